import {
  linkSsoIdentitySchema,
  setSsoLinkingSchema,
  ssoIdentityRecordSchema,
  unlinkSsoIdentitySchema,
  userCodeSchema,
  userSsoSchema,
} from '@wfc/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { ssoIdentities, users } from '../db/schema/index.ts';
import { ApiError, conflict, notFound } from '../http/envelope.ts';
import { anyOf, defineRoute } from '../http/routes.ts';
import { recordAccountEvent } from './events.ts';
import { providerIssuer } from './oidc.ts';
import { linkIdentity, rolePermissionNames } from './sso-links.ts';
import { nameLinkAllowed } from './sso-rules.ts';
import { reachableUser } from './user-security.ts';

async function userSso(db: Executor, userCode: string) {
  const [user] = await db
    .select({ roleCode: users.roleCode, ssoLinking: users.ssoLinking })
    .from(users)
    .where(eq(users.userCode, userCode));
  if (!user) throw notFound('User not found');
  const identities = await db
    .select({
      issuer: ssoIdentities.issuer,
      subject: ssoIdentities.subject,
      providerUsername: ssoIdentities.providerUsername,
      linkedAt: ssoIdentities.createdAt,
      lastUsedAt: ssoIdentities.lastUsedAt,
    })
    .from(ssoIdentities)
    .where(eq(ssoIdentities.userCode, userCode))
    .orderBy(asc(ssoIdentities.createdAt));
  return {
    linking: user.ssoLinking,
    linkingAllowedNow: nameLinkAllowed(user.ssoLinking, await rolePermissionNames(db, user.roleCode)),
    identities: identities.map((i) => ({
      ...i,
      linkedAt: i.linkedAt.toISOString(),
      lastUsedAt: i.lastUsedAt?.toISOString() ?? null,
    })),
  };
}

/**
 * A way in for oneself is given by someone else: a session taken over could otherwise link the
 * taker's provider account and keep the door after the session ends.
 */
const notOnOneself = (userCode: string, actorCode: string) => {
  if (userCode === actorCode) {
    throw new ApiError(403, "Another user manager must change your own account's single sign-on");
  }
};

const DELEGATION = {
  403: "The user's role has permissions the caller does not hold, or the user is the caller",
  404: 'No user with that code',
};

/** What a user manager (UPDATE_USER) does about a user's single sign-on. */
export const ssoIdentityRoutes = [
  defineRoute({
    method: 'POST',
    path: 'GetSsoByUserCode',
    summary: "A user's single sign-on: the rule for linking by name, and the provider accounts linked",
    tag: 'Account',
    access: anyOf('UPDATE_USER'),
    sessionOnly: true,
    body: userCodeSchema,
    response: userSsoSchema,
    changes: false,
    answers: { 403: DELEGATION[403], 404: DELEGATION[404] },
    async handler({ body, session, services }) {
      const user = await reachableUser(services.db, body.userCode, session);
      return {
        message: 'Single sign-on fetched successfully',
        data: await userSso(services.db, user.userCode),
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'LinkSsoIdentity',
    summary:
      "Links an account of the configured provider (its subject, `sub`) to a user: its single sign-on then reaches this user, whatever the account's name",
    tag: 'Account',
    access: anyOf('UPDATE_USER'),
    sessionOnly: true,
    body: linkSsoIdentitySchema,
    response: ssoIdentityRecordSchema,
    answers: {
      ...DELEGATION,
      409: 'The account is linked to a user already, or the user has an account of this provider',
      503: 'Single sign-on is not configured',
    },
    async handler({ body, session, actor, services }) {
      const issuer = await providerIssuer(services.config);
      notOnOneself(body.userCode, session.userCode);
      const linked = await services.db.transaction(async (tx) => {
        const user = await reachableUser(tx, body.userCode, session);
        if (!(await linkIdentity(tx, { issuer, subject: body.subject, userCode: user.userCode }))) {
          throw conflict('This account is linked to a user already, or the user has one of this provider');
        }
        await recordAccountEvent(tx, 'SSO_LINKED', user, actor, { issuer, subject: body.subject });
        return (await userSso(tx, user.userCode)).identities.find((i) => i.subject === body.subject);
      });
      return { message: 'The account was linked', data: linked };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'UnlinkSsoIdentity',
    summary: 'Removes a provider account from a user: its single sign-on no longer reaches them',
    tag: 'Account',
    access: anyOf('UPDATE_USER'),
    sessionOnly: true,
    body: unlinkSsoIdentitySchema,
    answers: { 403: DELEGATION[403], 404: 'No user with that code, or no such account linked to them' },
    async handler({ body, session, actor, services }) {
      await services.db.transaction(async (tx) => {
        // Removing a way in is always one's own to do: no side door opens by it.
        const user = await reachableUser(tx, body.userCode, session);
        const removed = await tx
          .delete(ssoIdentities)
          .where(
            and(
              eq(ssoIdentities.userCode, user.userCode),
              eq(ssoIdentities.issuer, body.issuer),
              eq(ssoIdentities.subject, body.subject),
            ),
          )
          .returning({ subject: ssoIdentities.subject });
        if (removed.length === 0) throw notFound('No such account is linked to this user');
        await recordAccountEvent(tx, 'SSO_UNLINKED', user, actor, {
          issuer: body.issuer,
          subject: body.subject,
        });
      });
      return { message: 'The account was unlinked' };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'SetSsoLinking',
    summary:
      "Whether a user's first single sign-on may link a provider account by its name: by the role (not for a role that manages access), allowed, or refused",
    tag: 'Account',
    access: anyOf('UPDATE_USER'),
    sessionOnly: true,
    body: setSsoLinkingSchema,
    response: userSsoSchema,
    answers: DELEGATION,
    async handler({ body, session, actor, services }) {
      notOnOneself(body.userCode, session.userCode);
      const data = await services.db.transaction(async (tx) => {
        const user = await reachableUser(tx, body.userCode, session);
        await tx.update(users).set({ ssoLinking: body.linking }).where(eq(users.userCode, user.userCode));
        await recordAccountEvent(tx, 'SSO_LINKING_CHANGED', user, actor, { linking: body.linking });
        return userSso(tx, user.userCode);
      });
      return { message: 'Single sign-on linking was changed', data };
    },
  }),
];
