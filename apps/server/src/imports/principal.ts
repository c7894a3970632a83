import type { ActiveSession } from '../auth/sessions.ts';
import type { ImportPrincipal } from '../db/schema/index.ts';

/** Pure: what a job needs to know of the caller of an import's request. */
export function principalOf(session: ActiveSession): ImportPrincipal {
  return {
    userCode: session.userCode,
    username: session.username,
    idHash: session.idHash,
    permissions: [...session.permissions],
    scopes: Object.fromEntries(session.scopes),
  };
}

/** Pure: the session a pass runs with, as the request that asked for it had it. */
export function sessionOf(p: ImportPrincipal): ActiveSession {
  return {
    idHash: p.idHash,
    userCode: p.userCode,
    username: p.username,
    permissions: new Set(p.permissions),
    scopes: new Map(Object.entries(p.scopes)),
    mfaSetupRequired: false,
  };
}
