import {
  ERASED_NOT_RESTORED,
  holdsErased,
  ONLY_UPDATES_RESTORE,
  RESTORE_VERSION_ENDPOINT,
  RESTORED_FROM,
  restorable,
  restoreVersionSchema,
  visibleRecordSchema,
} from '@wfc/contract';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { exists } from '../db/rows.ts';
import { audits } from '../db/schema/index.ts';
import { ApiError, badRequest, notFound, zodFieldErrors } from '../http/envelope.ts';
import { type ApiRoute, anyOf, defineRoute } from '../http/routes.ts';
import { answerShown, keepHiddenFields } from './need-to-know.ts';
import type { Row, ServerResource } from './server-resource.ts';
import { updateBodyOf, updateRecord } from './write.ts';

/** What an audit entry says of the change it records. */
export interface AuditedChange {
  action: string;
  collection: string;
  recordCode: string | null;
  before: unknown;
}

const isRow = (value: unknown): value is Row =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A module an audited update of can be restored, with the schema and permission of its update. */
interface Restorable {
  res: ServerResource;
  // An update body is an object of fields: `restorable` has checked the schema is one.
  schema: z.ZodType<Row>;
  permission: string;
}

/**
 * Pure: the module whose record an audit entry's `before` can be restored to, and that record,
 * when the entry is an update of a restorable module (`byCollection`, by the module's list segment,
 * which is the collection its entries name); undefined otherwise.
 */
export function restoreTarget<T>(
  entry: AuditedChange,
  byCollection: ReadonlyMap<string, T>,
): { module: T; code: string; before: Row } | undefined {
  const module = byCollection.get(entry.collection);
  if (!module || entry.action !== 'UPDATE' || !entry.recordCode || !isRow(entry.before)) return undefined;
  return { module, code: entry.recordCode, before: entry.before };
}

const restorableOf = (res: ServerResource): Restorable[] => {
  const { updateSchema, permissions } = res.def;
  return restorable(res.def) && updateSchema && permissions.update
    ? [{ res, schema: updateSchema, permission: permissions.update }]
    : [];
};

/**
 * `RestoreVersion`: an audited update undone by a new update of the record, made by the module's
 * own update, so its permission, reach, delegation, uniqueness, version check and audit all apply.
 */
export function restoreRoute(resources: readonly ServerResource[]): ApiRoute {
  const modules = resources.flatMap(restorableOf);
  const byCollection = new Map(modules.map((m) => [m.res.def.listSegment, m]));
  const [first, ...more] = modules.map((m) => visibleRecordSchema(m.res.def));
  if (!first) throw new Error('No module can be restored');
  return defineRoute({
    method: 'POST',
    path: RESTORE_VERSION_ENDPOINT,
    summary:
      "Restore a record to the values an audited update replaced, as a new update of the record's module",
    tag: 'Audit Logs',
    // Each module's own UPDATE permission is checked once the entry names its module.
    access: anyOf(...new Set(modules.map((m) => m.permission))),
    body: restoreVersionSchema,
    response: z.union([first, ...more]),
    answers: {
      400: `${ONLY_UPDATES_RESTORE}; ${ERASED_NOT_RESTORED}; or the old values are refused as an update of the record would be`,
      403: "The session lacks the UPDATE permission of the entry's module, or the record is beyond its reach",
      404: 'No audit entry with that code, or its record no longer exists',
      409: 'The record changed since that version was read, or a value is taken by another record',
    },
    async handler(ctx) {
      const { auditCode, version } = ctx.body;
      const { db } = ctx.services;
      const [entry] = await db.select().from(audits).where(eq(audits.auditCode, auditCode));
      if (!entry) throw notFound('Audit entry not found');
      const target = restoreTarget(entry, byCollection);
      if (!target) throw badRequest(ONLY_UPDATES_RESTORE);
      const { module, code, before } = target;
      if (holdsErased(before)) throw badRequest(ERASED_NOT_RESTORED);
      const { res } = module;
      if (!ctx.session.permissions.has(module.permission)) {
        throw new ApiError(403, 'You do not have permission to do this');
      }
      // A record deleted since is not found, rather than stale: there is nothing left to restore.
      const found = await exists(db, sql`select from ${res.table} where ${eq(res.codeColumn, code)}`);
      if (!found) throw notFound(res.def.messages.notFound);
      // Fields hidden from the caller (need-to-know) stay as they are now, as in any of their edits.
      const body = await keepHiddenFields(res, db, ctx.session, {
        ...updateBodyOf(res, before),
        [res.def.code]: code,
      });
      const parsed = module.schema.safeParse(body);
      if (!parsed.success) throw badRequest('Invalid input', zodFieldErrors(parsed.error));
      return answerShown(res, ctx.session, () =>
        updateRecord(res, { ...ctx, body: { ...parsed.data, version } }, { [RESTORED_FROM]: auditCode }),
      );
    },
  });
}
