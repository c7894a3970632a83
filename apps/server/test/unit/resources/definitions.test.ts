import {
  AUDIT_MODULES,
  DELETED_RECORDS_ENDPOINT,
  filterRangeErrors,
  PURGE_RECORD_ENDPOINT,
  RESOURCES,
  RESTORE_RECORD_ENDPOINT,
  RESTORE_VERSION_ENDPOINT,
  type ResourceDef,
  SEARCH_ENDPOINT,
} from '@wfc/contract';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registryRoutes, SERVER_RESOURCE_BY_KEY } from '../../../src/resources/index.ts';
import { shapeColumn } from '../../../src/resources/list-query.ts';

/**
 * The two halves of each entity's definition, the contract's and the server's, must agree: this
 * names any disagreement a convention or a typo could leave behind.
 */
const routes = registryRoutes();
const route = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path);

/** Whether a dotted body key (`address.countryCode`) is a field of an object schema. */
function schemaHas(schema: z.ZodType | undefined, path: string): boolean {
  let current: z.ZodType | undefined = schema;
  for (const key of path.split('.')) {
    while (current instanceof z.ZodPipe) current = current.in as z.ZodType;
    while (current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
    if (!(current instanceof z.ZodObject)) return false;
    current = current.shape[key];
    if (!current) return false;
  }
  return true;
}

const serverHalf = (def: ResourceDef) => {
  const res = SERVER_RESOURCE_BY_KEY.get(def.key);
  if (!res) throw new Error(`${def.label} has no server definition`);
  return res;
};

describe.each(RESOURCES.map((def) => [def.label, def] as const))('%s', (_label, def) => {
  it('has its server half, built from this very definition', () => {
    expect(serverHalf(def).def).toBe(def);
  });

  it('is served at every endpoint the contract names', () => {
    expect(route('GET', def.endpoints.list), def.endpoints.list).toBeDefined();
    for (const path of [
      def.endpoints.get,
      def.endpoints.create,
      def.endpoints.update,
      def.endpoints.delete,
    ]) {
      if (path) expect(route('POST', path), path).toBeDefined();
    }
    for (const list of def.listedBy) expect(route('POST', list.endpoint), list.endpoint).toBeDefined();
    for (const field of def.formFields) {
      if (field.dependsOn) expect(route('POST', field.dependsOn.endpoint), field.name).toBeDefined();
    }
  });

  it('sorts and searches only by paths its record has', () => {
    const res = serverHalf(def);
    for (const path of def.sortFields) expect(shapeColumn(res.shape, path), `sort ${path}`).toBeDefined();
    for (const path of res.search) expect(shapeColumn(res.shape, path), `search ${path}`).toBeDefined();
    for (const path of res.fewValues ?? []) expect(res.search, `few values ${path}`).toContain(path);
  });

  it('names unique indexes that exist on its table', () => {
    const res = serverHalf(def);
    const config = getTableConfig(res.table);
    const names = new Set([
      ...config.indexes.map((i) => i.config.name),
      ...config.uniqueConstraints.map((u) => u.getName()),
    ]);
    for (const u of res.unique ?? []) {
      expect(names, u.constraint).toContain(u.constraint);
      expect(
        schemaHas(def.createSchema ?? def.updateSchema, u.field),
        `${u.constraint} field ${u.field}`,
      ).toBe(true);
    }
  });

  it('has form fields that its schemas accept, with selectors of known resources', () => {
    for (const field of def.formFields) {
      if (field.kind === 'json') continue;
      const modes = field.modes ?? ['create', 'update'];
      const schemas = [
        ...(modes.includes('create') ? [def.createSchema] : []),
        ...(modes.includes('update') ? [def.updateSchema] : []),
      ].filter((s) => s !== undefined);
      for (const schema of schemas) expect(schemaHas(schema, field.name), field.name).toBe(true);
      if (field.source) expect(SERVER_RESOURCE_BY_KEY.get(field.source), field.name).toBeDefined();
    }
  });
});

describe('the route table', () => {
  it('has no registry route that no definition names', () => {
    // The search across modules, the restoring of an audited version and the recycle bin are built
    // from every definition, not named by one.
    const named = new Set([
      SEARCH_ENDPOINT,
      RESTORE_VERSION_ENDPOINT,
      DELETED_RECORDS_ENDPOINT,
      RESTORE_RECORD_ENDPOINT,
      PURGE_RECORD_ENDPOINT,
      ...RESOURCES.flatMap((def) => [
        ...Object.values(def.endpoints),
        ...def.listedBy.map((l) => l.endpoint),
        ...(SERVER_RESOURCE_BY_KEY.get(def.key)?.getters ?? []).map((g) => g.endpoint),
      ]),
    ]);
    const unnamed = routes.filter((r) => !named.has(r.path) && !r.path.startsWith('ProfilePicture'));
    expect(unnamed.map((r) => r.path)).toEqual([]);
  });
});

describe('list filters', () => {
  it('name a column of their resource', () => {
    for (const def of RESOURCES) {
      const res = serverHalf(def);
      for (const f of def.filters)
        expect(shapeColumn(res.shape, f.path), `${def.label}: ${f.param}`).toBeDefined();
    }
  });

  it("offer every module whose records are written, in the audit log's Module filter", () => {
    const written = RESOURCES.filter(
      (def) => def.endpoints.create || def.endpoints.update || def.endpoints.delete,
    );
    expect(written.length).toBeGreaterThan(5);
    for (const def of written) expect(AUDIT_MODULES, def.label).toContain(def.listSegment);
  });

  it('say a range whose end comes before its start, on the end', () => {
    const range = [
      { param: 'from', label: 'From', path: 'createdAt', match: 'from' },
      { param: 'to', label: 'To', path: 'createdAt', match: 'to' },
    ] as const;
    expect(filterRangeErrors(range, { from: '2026-03-02', to: '2026-03-01' })).toEqual([
      { field: 'to', message: 'To must not be before From' },
    ]);
    expect(filterRangeErrors(range, { from: '2026-03-01', to: '2026-03-01' })).toEqual([]);
    expect(filterRangeErrors(range, { from: '2026-03-02' })).toEqual([]);
    expect(filterRangeErrors(range, { to: '2026-03-01' })).toEqual([]);
  });
});
