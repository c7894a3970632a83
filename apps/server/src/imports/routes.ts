import {
  checkImportSchema,
  commitImportSchema,
  IMPORT_ENDPOINTS,
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  IMPORT_MODULES,
  importCodeSchema,
  importListItemSchema,
  importPermissions,
  importRecordSchema,
  importsQuerySchema,
  startImportSchema,
} from '@wfc/contract';
import { csvFile } from '../http/csv.ts';
import { type ApiRoute, anyOf, defineRoute } from '../http/routes.ts';
import {
  cancelImport,
  checkImport,
  commitImport,
  getImport,
  importErrors,
  listImports,
  startImport,
} from './service.ts';

/** Whoever may import into some module: what the module itself needs is checked by the handler. */
const IMPORTERS = anyOf(...new Set(IMPORT_MODULES.flatMap((m) => importPermissions(m, 'create'))));

const TAG = 'Imports';

const NEEDS =
  "the module's CREATE permission, and UPDATE too unless the mode is create (scores: CREATE_PERFORMANCE and UPDATE_PERFORMANCE)";

export const importRoutes = (): ApiRoute[] => [
  defineRoute({
    method: 'POST',
    path: IMPORT_ENDPOINTS.start,
    summary: `Uploads a CSV or XLSX file (multipart: module, file, mode, optional mapping as JSON and sheet) and checks every row; writes nothing. Answers the preview, or status 'checking' for a large file checked as a background job (then GetImportByCode). Needs ${NEEDS}`,
    tag: TAG,
    access: IMPORTERS,
    multipart: true,
    upload: { bytes: IMPORT_LIMITS.maxBytes, field: 'file', tooLarge: IMPORT_MESSAGES.tooLarge },
    body: startImportSchema,
    response: importRecordSchema,
    answers: {
      400: 'No file, a file that is not a readable CSV or XLSX, too many rows, columns or characters in a cell, or a mapping naming an unknown field',
      403: `The caller lacks ${NEEDS}`,
      413: `The file is larger than ${IMPORT_LIMITS.maxBytes / 1024 / 1024} MB, or an XLSX file unpacks to more than the console accepts`,
    },
    async handler({ services, session, body, files }) {
      const file = files?.find((f) => f.data.length > 0);
      const data = await startImport(services, session, body, file);
      return {
        message: data.status === 'checking' ? IMPORT_MESSAGES.checking : IMPORT_MESSAGES.started,
        data,
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: IMPORT_ENDPOINTS.check,
    summary: 'Checks the stored file of an import again, with another mapping, mode or sheet; writes nothing',
    tag: TAG,
    access: IMPORTERS,
    body: checkImportSchema,
    response: importRecordSchema,
    answers: { 409: 'The import is being checked or written, or has ended' },
    async handler({ services, session, body }) {
      const data = await checkImport(services, session, body);
      return {
        message: data.status === 'checking' ? IMPORT_MESSAGES.checking : IMPORT_MESSAGES.started,
        data,
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: IMPORT_ENDPOINTS.get,
    summary: 'One import: its status, progress, counts, first errors and preview',
    tag: TAG,
    access: IMPORTERS,
    changes: false,
    body: importCodeSchema,
    response: importRecordSchema,
    async handler({ services, session, body }) {
      return { message: IMPORT_MESSAGES.fetched, data: await getImport(services, session, body.importCode) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: IMPORT_ENDPOINTS.commit,
    summary:
      'Writes a checked import in one transaction, all rows or none (skipErrors: the rows without errors); as a background job for a large file',
    tag: TAG,
    access: IMPORTERS,
    body: commitImportSchema,
    response: importRecordSchema,
    answers: {
      400: `Some rows have errors and skipErrors is not set (${IMPORT_MESSAGES.hasErrors}); the errors name the rows`,
      409: `Records changed since the preview (${IMPORT_MESSAGES.stale}), naming the rows; or the import is not ready`,
    },
    async handler({ services, session, body }) {
      const data = await commitImport(services, session, body.importCode, body.skipErrors);
      return {
        message: data.status === 'committing' ? IMPORT_MESSAGES.committing : IMPORT_MESSAGES.committed,
        data,
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: IMPORT_ENDPOINTS.cancel,
    summary: 'Cancels an import before it commits; nothing of it is written',
    tag: TAG,
    access: IMPORTERS,
    body: importCodeSchema,
    response: importRecordSchema,
    answers: { 409: IMPORT_MESSAGES.notCancellable },
    async handler({ services, session, body }) {
      return {
        message: IMPORT_MESSAGES.cancelled,
        data: await cancelImport(services, session, body.importCode),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: IMPORT_ENDPOINTS.list,
    summary:
      "Past and current imports, newest first: the caller's own and those of the modules they may import into",
    tag: TAG,
    access: IMPORTERS,
    query: importsQuerySchema,
    response: importListItemSchema,
    listed: true,
    async handler({ services, session, query }) {
      const { rows, total } = await listImports(services, session, query);
      return { message: IMPORT_MESSAGES.listed, data: rows, total };
    },
  }),
  defineRoute({
    method: 'GET',
    path: IMPORT_ENDPOINTS.errors,
    summary: "Every error of an import's check or commit, as CSV (row, column, message)",
    tag: TAG,
    access: IMPORTERS,
    query: importCodeSchema,
    produces: 'text/csv',
    async handler({ services, session, query, reply }) {
      const { fileName, errors } = await importErrors(services, session, query.importCode);
      const base = fileName.replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_') || 'import';
      await reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${base}-errors.csv"`)
        .header('Cache-Control', 'no-store')
        .send(
          csvFile(
            ['Row', 'Column', 'Message'],
            errors.map((e) => [String(e.row), e.column ?? '', e.message]),
          ),
        );
      return undefined;
    },
  }),
];
