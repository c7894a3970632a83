import type { PermissionName, SsoLinking } from '@wfc/contract';

/*
 * The rules single sign-on follows once the provider's answer is verified: who the provider
 * account is here, and whether the provider's own check stands for the console's second factor.
 */

/** The console's username alphabet (the user form's rule): what a provider's name must fit to be matched. */
const USERNAME = /^[A-Za-z0-9._-]{3,50}$/;

/**
 * The provider's name as a console username, or undefined when it cannot be one. NFKC first, so
 * that look-alike forms (full-width letters) become the letters they stand for; then only names
 * of the console's alphabet, so no other character (a dotted capital I that PostgreSQL's `lower()`
 * turns into `i`, a trailing space) can reach an account; then ASCII-only case folding.
 */
export function providerUsername(name: string): string | undefined {
  const normal = name.normalize('NFKC');
  if (!USERNAME.test(normal)) return undefined;
  return normal.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** The same folding for a console username: both sides of a name match are folded alike. */
export const foldUsername = (username: string): string => username.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * Permissions that govern who may do what: a role holding any of them is an account worth
 * taking over, so a provider account is never linked to it by name unless a user manager said so.
 */
export const ACCESS_MANAGEMENT_PERMISSIONS: readonly PermissionName[] = [
  'CREATE_ROLE',
  'UPDATE_ROLE',
  'DELETE_ROLE',
  'CREATE_USER',
  'UPDATE_USER',
  'DELETE_USER',
];

/** Whether a first single sign-on may link a provider account to this user by the name alone. */
export function nameLinkAllowed(linking: SsoLinking, rolePermissions: readonly string[]): boolean {
  if (linking !== 'role') return linking === 'allowed';
  return !rolePermissions.some((p) => (ACCESS_MANAGEMENT_PERMISSIONS as readonly string[]).includes(p));
}

export interface ProviderMfaPolicy {
  /** `amr` values any one of which means the provider checked a second factor. */
  amr: readonly string[];
  /** An `acr` value that means the same; undefined when `acr` is not read. */
  acr?: string | undefined;
}

/**
 * Whether the ID token says the provider checked a second factor: an `amr` value of the policy's
 * list, or the policy's `acr`. Claims of any other shape say nothing.
 */
export function providerCheckedSecondFactor(
  claims: Record<string, unknown>,
  policy: ProviderMfaPolicy,
): boolean {
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((v) => typeof v === 'string') : [];
  if (amr.some((v) => policy.amr.includes(v))) return true;
  return policy.acr !== undefined && claims.acr === policy.acr;
}
