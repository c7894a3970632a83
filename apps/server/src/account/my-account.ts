import { changeMyPasswordSchema, endMySessionSchema, mySessionRecordSchema } from '@wfc/contract';
import { and, eq } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords.ts';
import { revokeOtherSessions } from '../auth/sessions.ts';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../config/common-passwords.ts';
import { sessions, users } from '../db/schema/index.ts';
import { badRequest, notFound } from '../http/envelope.ts';
import { clearSessionCookie, defineRoute, sessionAccess } from '../http/routes.ts';
import { countOf, recordAccountEvent } from './events.ts';
import { listSessions } from './sessions-list.ts';
import { confirmOwnPassword } from './sign-in.ts';

/** Every signed-in user's own password and sessions (docs/product.md, My account). */
export const myAccountRoutes = [
  defineRoute({
    method: 'POST',
    path: 'ChangeMyPassword',
    summary: "Changes the signed-in user's password (the current one is asked); ends their other sessions",
    tag: 'Account',
    access: sessionAccess,
    sessionOnly: true,
    bodyLimit: 16 * 1024,
    body: changeMyPasswordSchema,
    answers: {
      400: 'The current password is wrong, or the new one breaks the password rule or is too common',
      429: 'Too many wrong passwords: see Retry-After',
    },
    async handler({ body, req, session, actor, services }) {
      const account = await confirmOwnPassword(services, req, session.userCode, body.currentPassword);
      if (isCommonPassword(body.newPassword)) {
        throw badRequest(COMMON_PASSWORD_MESSAGE, [
          { field: 'newPassword', message: COMMON_PASSWORD_MESSAGE },
        ]);
      }
      const passwordHash = await hashPassword(body.newPassword);
      const ended = await services.db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.userCode, account.userCode));
        const others = await revokeOtherSessions(tx, account.userCode, session.idHash).returning({
          idHash: sessions.idHash,
        });
        await recordAccountEvent(tx, 'PASSWORD_CHANGED', account, actor, {
          otherSessionsEnded: others.length,
        });
        return others.length;
      });
      return {
        message:
          ended > 0
            ? `Your password was changed; ${countOf(ended, 'other session')} ended`
            : 'Your password was changed',
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: 'GetMySessions',
    summary: "The signed-in user's sessions, most recently used first; `current` marks this one",
    tag: 'Account',
    access: sessionAccess,
    sessionOnly: true,
    response: mySessionRecordSchema,
    listed: true,
    async handler({ session, services }) {
      const list = await listSessions(services.db, session.userCode, services.sessionPolicy, session.idHash);
      return { message: 'Sessions fetched successfully', data: list, total: list.length };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'EndMySession',
    summary: "Ends one of the signed-in user's sessions (this one too, which signs out)",
    tag: 'Account',
    access: sessionAccess,
    sessionOnly: true,
    body: endMySessionSchema,
    answers: { 404: 'The user has no session with that code' },
    async handler({ body, session, actor, reply, services }) {
      const ended = await services.db.transaction(async (tx) => {
        const [row] = await tx
          .delete(sessions)
          .where(and(eq(sessions.userCode, session.userCode), eq(sessions.sessionCode, body.sessionCode)))
          .returning({ idHash: sessions.idHash });
        if (!row) throw notFound('No session with that code');
        await recordAccountEvent(tx, 'SESSION_ENDED', actor, actor, { sessionCode: body.sessionCode });
        return row;
      });
      if (ended.idHash === session.idHash) clearSessionCookie(reply, services.config.COOKIE_SECURE);
      return { message: 'The session was ended' };
    },
  }),
  defineRoute({
    method: 'POST',
    path: 'EndMyOtherSessions',
    summary: 'Ends every session of the signed-in user but this one',
    tag: 'Account',
    access: sessionAccess,
    sessionOnly: true,
    async handler({ session, actor, services }) {
      const ended = await services.db.transaction(async (tx) => {
        const rows = await revokeOtherSessions(tx, session.userCode, session.idHash).returning({
          idHash: sessions.idHash,
        });
        if (rows.length > 0) {
          await recordAccountEvent(tx, 'SESSION_ENDED', actor, actor, { otherSessions: rows.length });
        }
        return rows.length;
      });
      return {
        message: ended === 0 ? 'No other session was open' : `${countOf(ended, 'other session')} ended`,
      };
    },
  }),
];
