import { ScimError } from './protocol.ts';
import type { ScimContext } from './provisioning.ts';

/**
 * Refuses (403) a call whose token's role lacks one of these permissions: what the call needs
 * beyond what its route checked (a group's members are users, changed as UPDATE_USER changes them).
 */
export function needs(ctx: ScimContext, ...permissions: string[]) {
  const missing = permissions.filter((p) => !ctx.session.permissions.has(p));
  if (missing.length) {
    throw new ScimError(403, `The API token's role lacks ${missing.join(', ')}`);
  }
}
