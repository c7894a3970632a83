import {
  binModuleOf,
  binRecordBodySchema,
  DELETED_RECORDS_ENDPOINT,
  DELETED_SORT_FIELDS,
  deletedRecordSchema,
  deletedRecordsQuerySchema,
  PURGE_RECORD_ENDPOINT,
  RESTORE_RECORD_ENDPOINT,
  visibleRecordSchema,
} from '@wfc/contract';
import type { PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { ApiError } from '../../http/envelope.ts';
import { type ApiRoute, anyOf, defineRoute, type SessionContext } from '../../http/routes.ts';
import { shownResult } from '../need-to-know.ts';
import type { ServerResource } from '../server-resource.ts';
import { listBin, purgeFromBin, restoreFromBin } from './bin.ts';

const TAG = 'Recycle bin';

/**
 * The bin's three calls, for every module with a delete. Each is open to any DELETE permission and
 * then checks the one of the module it names, with its scope, as the module's delete does.
 */
export function recycleBinRoutes(resources: readonly ServerResource[]): ApiRoute[] {
  const binned = resources.filter((res) => res.def.endpoints.delete && res.def.permissions.delete);
  const byModule = new Map(binned.map((res) => [binModuleOf(res.def), res]));
  const byTable = new Map<unknown, ServerResource>(resources.map((res) => [res.table, res]));
  const moduleOf = (table: PgTable) => byTable.get(table);
  const access = anyOf(
    ...binned.flatMap((res) => (res.def.permissions.delete ? [res.def.permissions.delete] : [])),
  );
  const [first, ...more] = binned.map((res) => visibleRecordSchema(res.def));
  if (!first) throw new Error('No module has a recycle bin');

  /** The module a call names, once the caller is known to hold its DELETE permission. */
  const moduleFor = (ctx: SessionContext, module: string) => {
    const res = byModule.get(module);
    // The schemas admit only the bin's modules.
    if (!res) throw new Error(`No module ${module}`);
    const permission = res.def.permissions.delete;
    if (!permission || !ctx.session.permissions.has(permission)) {
      throw new ApiError(403, 'You do not have permission to do this');
    }
    return res;
  };

  return [
    defineRoute({
      method: 'GET',
      path: DELETED_RECORDS_ENDPOINT,
      summary:
        "A module's deleted records waiting in the recycle bin (paged, sorted, filtered by keyword): who deleted each and when",
      tag: TAG,
      access,
      query: deletedRecordsQuerySchema,
      response: deletedRecordSchema,
      listed: true,
      sortFields: DELETED_SORT_FIELDS,
      answers: { 403: 'The session lacks the DELETE permission of the module named' },
      handler: (ctx) => listBin(moduleFor(ctx, ctx.query.module), ctx, ctx.query),
    }),
    defineRoute({
      method: 'POST',
      path: RESTORE_RECORD_ENDPOINT,
      summary:
        'Restore a deleted record from the recycle bin with its code, version, history and the rows that went with it',
      tag: TAG,
      access,
      body: binRecordBodySchema,
      response: z.union([first, ...more]),
      answers: {
        403: 'The session lacks the DELETE permission of the module named, or the record is beyond its reach',
        404: 'The record is not in the recycle bin',
        409: 'A value of the record is taken by another one since, or a record it refers to is gone (`data.parent` names it, and whether it is in the bin)',
      },
      async handler(ctx) {
        const res = moduleFor(ctx, ctx.body.module);
        // The restored record is answered as its module's views answer it, to those who need to know.
        return shownResult(res, ctx.session, await restoreFromBin(res, ctx, ctx.body.code, moduleOf));
      },
    }),
    defineRoute({
      method: 'POST',
      path: PURGE_RECORD_ENDPOINT,
      summary: 'Delete a record in the recycle bin permanently, with everything it kept',
      tag: TAG,
      access,
      body: binRecordBodySchema,
      answers: {
        403: 'The session lacks the DELETE permission of the module named, or the record is beyond its reach',
        404: 'The record is not in the recycle bin',
      },
      handler: (ctx) => purgeFromBin(moduleFor(ctx, ctx.body.module), ctx, ctx.body.code),
    }),
  ];
}
