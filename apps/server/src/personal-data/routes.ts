import {
  type ExportPersonalDataBody,
  employeeResource,
  exportPersonalDataSchema,
  personalDataFileName,
  profileResource,
  userResource,
} from '@wfc/contract';
import { recordAudit } from '../audit/recorder.ts';
import { notFound } from '../http/envelope.ts';
import { anyOf, defineRoute, type SessionContext, sessionAccess } from '../http/routes.ts';
import { personalDataZip } from './archive.ts';
import { PERSONAL_TABLES } from './catalogue.ts';
import { collectPersonalRows, findPerson } from './collect.ts';

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
    collection: person.userCode ? userResource.listSegment : employeeResource.listSegment,
    recordCode: person.userCode ?? person.employeeCodes[0],
    after: { rows },
    actor: ctx.actor,
  });
  const code = person.userCode ?? person.employeeCodes[0] ?? 'person';
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
    // A POST, as every call that writes: it adds an audit entry.
    method: 'POST',
    path: 'ExportMyPersonalData',
    summary: "Everything the console holds about the signed-in user, as ExportPersonalData's ZIP",
    tag: 'Personal data',
    access: sessionAccess,
    produces: 'application/zip',
    handler: (ctx) => sendPersonalData(ctx, { userCode: ctx.session.userCode }),
  }),
];
