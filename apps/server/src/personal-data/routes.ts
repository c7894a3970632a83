import {
  ERASURE_MESSAGES,
  type ExportPersonalDataBody,
  employeeResource,
  erasePersonalDataSchema,
  exportPersonalDataSchema,
  personalDataFileName,
  profileResource,
  userResource,
} from '@wfc/contract';
import { confirmOwnPassword } from '../account/sign-in.ts';
import { recordAudit } from '../audit/recorder.ts';
import { conflict, notFound } from '../http/envelope.ts';
import { anyOf, defineRoute, type SessionContext, sessionAccess } from '../http/routes.ts';
import { personalDataZip } from './archive.ts';
import { PERSONAL_TABLES } from './catalogue.ts';
import { collectPersonalRows, findPerson, personRecord } from './collect.ts';
import { erasePerson } from './erase.ts';

/** The named record's own words: 'User not found', 'Profile not found', 'Employee not found'. */
const notFoundMessage = (body: ExportPersonalDataBody) =>
  (body.userCode ? userResource : body.profileCode ? profileResource : employeeResource).messages.notFound;

/**
 * Answers the ZIP of everything held about the person the body names, and records who asked for
 * whose: the entry holds how many rows of each kind were exported, none of their values.
 */
async function sendPersonalData(ctx: SessionContext<unknown, unknown>, body: ExportPersonalDataBody) {
  const { db } = ctx.services;
  const person = await findPerson(db, body);
  if (!person) throw notFound(notFoundMessage(body));
  const tables = await collectPersonalRows(db, person);
  const exportedAt = new Date().toISOString();
  const zip = personalDataZip({ exportedAt, person, tables }, PERSONAL_TABLES);
  const rows = Object.fromEntries(
    Object.entries(tables)
      .filter(([, r]) => r.length)
      .map(([table, r]) => [table, r.length]),
  );
  await recordAudit(db, {
    action: 'PERSONAL_DATA_EXPORTED',
    ...personRecord(person),
    after: { rows },
    actor: ctx.actor,
  });
  const code = personRecord(person).recordCode ?? 'person';
  await ctx.reply
    .header('Content-Type', 'application/zip')
    .header(
      'Content-Disposition',
      `attachment; filename="${personalDataFileName(code, exportedAt.slice(0, 10))}"`,
    )
    .header('Cache-Control', 'no-store')
    .send(Buffer.from(zip));
  return undefined;
}

/** A person's access request (docs/privacy.md): by those who answer them, and by the person. */
export const personalDataRoutes = [
  defineRoute({
    method: 'POST',
    path: 'ExportPersonalData',
    summary:
      'Everything the console holds about one person (by their user, profile or employee record), as a ZIP of a JSON file, a readable summary and their pictures',
    tag: 'Personal data',
    access: anyOf('EXPORT_PERSONAL_DATA'),
    body: exportPersonalDataSchema,
    produces: 'application/zip',
    answers: { 404: 'No such user, profile or employee' },
    handler: (ctx) => sendPersonalData(ctx, ctx.body),
  }),
  defineRoute({
    method: 'POST',
    path: 'ErasePersonalData',
    summary:
      "Erases one person (by their user, profile or employee record): their user, profile, sessions and sign-in records deleted, their employee records anonymised or deleted (ERASURE_EMPLOYEES), their values in the audit log replaced by '[erased]'",
    tag: 'Personal data',
    access: anyOf('ERASE_PERSONAL_DATA'),
    sessionOnly: true,
    body: erasePersonalDataSchema,
    answers: {
      400: 'The current password is wrong',
      404: 'No such user, profile or employee',
      409: 'The person is the only user who can manage roles, or is the caller',
      429: 'Too many wrong passwords: see Retry-After',
    },
    async handler(ctx) {
      const { body, services, session, req, actor } = ctx;
      await confirmOwnPassword(services, req, session.userCode, body.currentPassword);
      const person = await findPerson(services.db, body);
      if (!person) throw notFound(notFoundMessage(body));
      // Their own erasure would end the session that asks for it and leave their name on its entry.
      if (person.userCode === session.userCode) throw conflict(ERASURE_MESSAGES.notYourself);
      await services.db.transaction((tx) =>
        erasePerson(tx, person, services.config.ERASURE_EMPLOYEES, actor),
      );
      return { message: ERASURE_MESSAGES.done };
    },
  }),
  defineRoute({
    // A POST, as every call that writes: it adds an audit entry.
    method: 'POST',
    path: 'ExportMyPersonalData',
    summary: "Everything the console holds about the signed-in user, as ExportPersonalData's ZIP",
    tag: 'Personal data',
    access: sessionAccess,
    sessionOnly: true,
    produces: 'application/zip',
    handler: (ctx) => sendPersonalData(ctx, { userCode: ctx.session.userCode }),
  }),
];
