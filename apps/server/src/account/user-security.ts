import {
  type OwnAccountChange,
  ownAccountRefusal,
  userCodeSchema,
  userSessionRecordSchema,
  VIEW_PERSONAL_DATA,
} from '@wfc/contract';
import { and, eq, ne } from 'drizzle-orm';
import { holdsEverything, mayGive, type ScopedCaller } from '../auth/scopes.ts';
import type { Executor } from '../db/client.ts';
import { permissions, rolePermissions, sessions, users } from '../db/schema/index.ts';
import { ApiError, conflict, notFound } from '../http/envelope.ts';
import { anyOf, defineRoute } from '../http/routes.ts';
import { countOf, recordAccountEvent } from './events.ts';
import { removeMfa } from './mfa.ts';
import { listSessions } from './sessions-list.ts';

/**
 * The user a user manager acts on, within the delegation rule of Update User: whoever lacks a
 * permission of the user's role, or holds it for fewer records, may not sign them out or remove
 * their second factor.
 */
export async function reachableUser(db: Executor, userCode: string, caller: ScopedCaller) {
  const [user] = await db
    .select({ userCode: users.userCode, username: users.username, roleCode: users.roleCode })
    .from(users)
    .where(eq(users.userCode, userCode));
  if (!user) throw notFound('User not found');
  if (holdsEverything(caller)) return user;
  const grants = await db
    .select({ name: permissions.permissionName, scope: rolePermissions.scope })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.permissionCode, rolePermissions.permissionCode))
    .where(eq(rolePermissions.roleCode, user.roleCode));
  if (grants.some((g) => !mayGive(caller, g.name, g.scope))) {
    throw new ApiError(403, 'You cannot change a user whose role has permissions you do not hold');
  }
  return user;
}

/**
 * Nobody signs themselves out everywhere or removes their own second factor through these calls,
 * the Administrator included: My account does both, asking for the password (and a code).
 */
function refuseOwnAccount(actor: { userCode: string }, userCode: string, change: OwnAccountChange) {
  const refusal = ownAccountRefusal(actor.userCode, userCode, change);
  if (refusal) throw new ApiError(403, refusal);
}

const DELEGATION = {
  403: "The user's role has permissions the caller does not hold",
  404: 'No user with that code',
};

/** The answers of a change: the delegation rule's, and the caller's own user refused. */
const CHANGE_ANSWERS = {
  ...DELEGATION,
  403: `${DELEGATION[403]}, or the user is the caller (My account does that)`,
};

/** What a user manager (UPDATE_USER) does about another user's sessions and second factor. */
export const userSecurityRoutes = [
  defineRoute({
    method: 'POST',
    path: 'GetSessionsByUserCode',
    summary: "A user's sessions, most recently used first",
    tag: 'Account',
    access: anyOf('UPDATE_USER'),
    sessionOnly: true,
    body: userCodeSchema,
    response: userSessionRecordSchema,
    listed: true,
    changes: false,
    answers: DELEGATION,
    async handler({ body, session, services }) {
      const user = await reachableUser(services.db, body.userCode, session);
      const list = await listSessions(services.db, user.userCode, services.sessionPolicy, session.idHash);
      // Addresses and browsers are personal data: for those who need to know, and the user.
      const shown =
        session.permissions.has(VIEW_PERSONAL_DATA) || user.userCode === session.userCode
          ? list
          : list.map(({ ipAddress: _ip, userAgent: _agent, ...rest }) => rest);
      return { message: 'Sessions fetched successfully', data: shown, total: list.length };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'EndUserSessions',
    summary: 'Signs a user out everywhere (the caller keeps their own session)',
    tag: 'Account',
    access: anyOf('UPDATE_USER'),
    sessionOnly: true,
    body: userCodeSchema,
    answers: CHANGE_ANSWERS,
    async handler({ body, session, actor, services }) {
      refuseOwnAccount(actor, body.userCode, 'sessions');
      const ended = await services.db.transaction(async (tx) => {
        const user = await reachableUser(tx, body.userCode, session);
        const rows = await tx
          .delete(sessions)
          .where(and(eq(sessions.userCode, user.userCode), ne(sessions.idHash, session.idHash)))
          .returning({ idHash: sessions.idHash });
        await recordAccountEvent(tx, 'SESSION_ENDED', user, actor, { sessions: rows.length });
        return rows.length;
      });
      return { message: `${countOf(ended, 'session')} ended` };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'ResetUserMfa',
    summary:
      "Removes a user's second factor and recovery codes; a role that requires one makes them set it up again",
    tag: 'Account',
    access: anyOf('UPDATE_USER'),
    sessionOnly: true,
    body: userCodeSchema,
    answers: { ...CHANGE_ANSWERS, 409: 'The user has not set up two-factor sign-in' },
    async handler({ body, session, actor, services }) {
      refuseOwnAccount(actor, body.userCode, 'secondFactor');
      await services.db.transaction(async (tx) => {
        const user = await reachableUser(tx, body.userCode, session);
        if (!(await removeMfa(tx, user.userCode))) {
          throw conflict('This user has not set up two-factor sign-in');
        }
        await recordAccountEvent(tx, 'MFA_RESET', user, actor);
      });
      return { message: 'Two-factor sign-in was reset' };
    },
  }),
];
