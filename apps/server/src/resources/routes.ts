import {
  bulkChangeSchema,
  bulkDeleteSchema,
  codeRef,
  listQuerySchema,
  lookupPermissions,
  lookupSchema,
  RESOURCE_BY_KEY,
  type ResourceKey,
  recordVersion,
  visibleRecordSchema,
  withArticle,
} from '@wfc/contract';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { exists } from '../db/rows.ts';
import { notFound } from '../http/envelope.ts';
import { registerUniqueMessage } from '../http/errors.ts';
import { type ApiRoute, anyOf, defineRoute } from '../http/routes.ts';
import { exportQuerySchema, exportRecords } from './export.ts';
import { answerShown, keepHiddenFields, shown, shownResult } from './need-to-know.ts';
import { fetchOne, fetchRecords, listRecords, reach } from './read.ts';
import type { AltGetter, AnyResourceDef, ParentFilter, ServerResource } from './server-resource.ts';
import {
  changeRecords,
  createRecord,
  deleteRecord,
  deleteRecords,
  updateRecord,
  type Versioned,
} from './write.ts';

/** A body that names one record by a code: the handler is given the code itself. */
const codeBody = (param: string) =>
  z.object({ [param]: codeRef(param) }).transform((body) => String(body[param]));

const versionBody = z.object({ version: recordVersion });

/** A delete's body: the record's code and, optionally, the version it was read at. */
function deleteBody(param: string) {
  const shape: Record<string, z.ZodType> = { [param]: codeRef(param), version: recordVersion };
  // The schema has checked both: the code is a string, the version a number or absent.
  return z.object(shape).transform((body): { code: string } & Versioned => ({
    code: String(body[param]),
    version: body.version === undefined ? undefined : Number(body.version),
  }));
}

/** The parent a sub-list route names, as its own definition stores it. */
function parentOf(list: ParentFilter, registry: ReadonlyMap<ResourceKey, ServerResource>) {
  const parent = registry.get(list.parent);
  if (!parent) throw new Error(`${list.endpoint}: no server definition of ${list.parent}`);
  return { column: parent.codeColumn, notFound: RESOURCE_BY_KEY[list.parent].messages.notFound };
}

/** What a resource's list and its sub-lists share: who may read them, the selectors' view, the query. */
function listing(res: ServerResource) {
  const { def } = res;
  const lookups = lookupPermissions(def.key);
  return {
    access: anyOf(def.permissions.view, ...lookups),
    lookup: lookups.length ? lookupSchema(def.code, def.nameField) : undefined,
    query: listQuerySchema({ flags: res.listFlags?.map((f) => f.param), filters: def.filters }),
  };
}

type Listing = ReturnType<typeof listing>;

/** Every route one resource definition implies; `registry` finds the parents of its sub-lists. */
export function resourceRoutes<D extends AnyResourceDef>(
  res: ServerResource<D>,
  registry: ReadonlyMap<ResourceKey, ServerResource>,
): ApiRoute[] {
  for (const u of res.unique ?? []) registerUniqueMessage(u.constraint, u.field, u.message);
  const list = listing(res);
  return [
    ...readRoutes(res, list),
    ...res.parentFilters.map((sub) => subListRoute(res, list, sub, registry)),
    ...(res.getters ?? []).map((getter) => getterRoute(res, getter)),
    ...writeRoutes(res),
  ];
}

/** The list, the get by code and the export (CSV or XLSX). */
function readRoutes(res: ServerResource, list: Listing): ApiRoute[] {
  const { def } = res;
  const tag = def.plural;
  return [
    defineRoute({
      method: 'GET',
      path: def.endpoints.list,
      summary: `List ${def.plural.toLowerCase()} (paged, sorted, filtered by keyword${
        def.filters.length ? ` and by ${def.filters.map((f) => f.param).join(', ')}` : ''
      })`,
      tag,
      access: list.access,
      query: list.query,
      response: visibleRecordSchema(def),
      listed: true,
      lookup: list.lookup,
      sortFields: def.sortFields,
      handler: async (ctx) => shownResult(res, ctx.session, await listRecords(res, ctx)),
    }),
    defineRoute({
      method: 'POST',
      path: def.endpoints.get,
      summary: `One ${def.label.toLowerCase()} by ${def.code}`,
      tag,
      // An editor loads the record it edits, even without the module's VIEW permission.
      access: anyOf(def.permissions.view, ...(def.permissions.update ? [def.permissions.update] : [])),
      changes: false,
      body: codeBody(def.code),
      response: visibleRecordSchema(def),
      async handler(ctx) {
        // A record beyond the caller's reach is not found, in the words of one that does not exist.
        const { where } = reach(res, ctx.session, [def.permissions.view, def.permissions.update]);
        const record = await fetchOne(ctx.services.db, res, ctx.body, where);
        if (!record) throw notFound(def.messages.notFound);
        return { message: def.messages.fetched, data: shown(res, ctx.session, record) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: def.endpoints.export,
      summary: `Every ${def.label.toLowerCase()} the list's keyword and filters match, in its order, as CSV or XLSX (format)`,
      tag,
      access: anyOf(def.permissions.view),
      query: exportQuerySchema(list.query),
      produces: 'spreadsheet',
      handler: (ctx) => exportRecords(res, ctx),
    }),
  ];
}

/** The records of one parent (a state's cities): its code is checked before the list is read. */
function subListRoute(
  res: ServerResource,
  list: Listing,
  sub: ParentFilter,
  registry: ReadonlyMap<ResourceKey, ServerResource>,
): ApiRoute {
  const { def } = res;
  const parent = parentOf(sub, registry);
  return defineRoute({
    method: 'POST',
    path: sub.endpoint,
    summary: `List ${def.plural.toLowerCase()} of one ${sub.parent}`,
    tag: def.plural,
    access: list.access,
    changes: false,
    query: list.query,
    body: codeBody(sub.param),
    response: visibleRecordSchema(def),
    listed: true,
    lookup: list.lookup,
    sortFields: def.sortFields,
    async handler(ctx) {
      const parentCode = ctx.body;
      const found = await exists(
        ctx.services.db,
        sql`select from ${parent.column.table} where ${eq(parent.column, parentCode)}`,
      );
      if (!found) throw notFound(parent.notFound);
      const page = await listRecords(res, ctx, {
        where: sub.where(parentCode),
        key: { endpoint: sub.endpoint, code: parentCode },
        sub,
      });
      return shownResult(res, ctx.session, page);
    },
  });
}

/** One record by another unique field than its code. */
function getterRoute(res: ServerResource, getter: AltGetter): ApiRoute {
  const { def } = res;
  return defineRoute({
    method: 'POST',
    path: getter.endpoint,
    summary: `One ${def.label.toLowerCase()} by ${getter.param}`,
    tag: def.plural,
    access: anyOf(def.permissions.view),
    changes: false,
    body: codeBody(getter.param),
    response: visibleRecordSchema(def),
    async handler(ctx) {
      const { where } = reach(res, ctx.session, [def.permissions.view]);
      const { records } = await fetchRecords(ctx.services.db, res, {
        where: and(eq(getter.column, ctx.body), where),
        limit: 1,
      });
      if (!records[0]) throw notFound(def.messages.notFound);
      if (res.attach) await res.attach(ctx.services.db, records, { populate: true });
      return { message: def.messages.fetched, data: shown(res, ctx.session, records[0]) };
    },
  });
}

/** Create, update and delete, each where the definition has its endpoint, permission and schema. */
function writeRoutes<D extends AnyResourceDef>(res: ServerResource<D>): ApiRoute[] {
  const { def } = res;
  const tag = def.plural;
  const { create, update, delete: del } = def.endpoints;
  const perms = def.permissions;
  const routes: ApiRoute[] = [];
  if (create && perms.create && def.createSchema) {
    routes.push(
      defineRoute({
        method: 'POST',
        path: create,
        summary: `Create ${withArticle(def.label.toLowerCase())}`,
        tag,
        access: anyOf(perms.create),
        body: def.createSchema,
        response: visibleRecordSchema(def),
        multipart: res.multipart,
        handler: (ctx) => answerShown(res, ctx.session, () => createRecord(res, ctx)),
      }),
    );
  }
  if (update && perms.update && def.updateSchema) {
    routes.push(
      defineRoute({
        method: 'POST',
        path: update,
        summary: `Update ${withArticle(def.label.toLowerCase())}`,
        tag,
        access: anyOf(perms.update),
        body: def.updateSchema.and(versionBody),
        response: visibleRecordSchema(def),
        multipart: res.multipart,
        prepareBody: (body, { session, services }) => keepHiddenFields(res, services.db, session, body),
        handler: (ctx) => answerShown(res, ctx.session, () => updateRecord(res, ctx)),
      }),
    );
  }
  if (def.endpoints.deleteMany && perms.delete) {
    routes.push(
      defineRoute({
        method: 'POST',
        path: def.endpoints.deleteMany,
        summary: `Delete several ${def.plural.toLowerCase()} at once: all of them, or none when any is refused`,
        tag,
        access: anyOf(perms.delete),
        body: bulkDeleteSchema,
        response: z.array(visibleRecordSchema(def)),
        handler: (ctx) => answerShown(res, ctx.session, () => deleteRecords(res, ctx)),
      }),
    );
  }
  if (def.endpoints.changeMany && perms.update) {
    routes.push(
      defineRoute({
        method: 'POST',
        path: def.endpoints.changeMany,
        summary: `Set ${def.bulkChange.map((f) => f.name).join(' or ')} on several ${def.plural.toLowerCase()} at once: all of them, or none when any is refused`,
        tag,
        access: anyOf(perms.update),
        body: bulkChangeSchema(def),
        response: z.array(visibleRecordSchema(def)),
        handler: (ctx) => answerShown(res, ctx.session, () => changeRecords(res, ctx)),
      }),
    );
  }
  if (del && perms.delete) {
    routes.push(
      defineRoute({
        method: 'POST',
        path: del,
        summary: `Delete ${withArticle(def.label.toLowerCase())}`,
        tag,
        access: anyOf(perms.delete),
        body: deleteBody(def.code),
        response: visibleRecordSchema(def),
        handler: (ctx) => answerShown(res, ctx.session, () => deleteRecord(res, ctx)),
      }),
    );
  }
  return routes;
}
