import { RESOURCES, sessionUserSchema } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { sharedDemoApp } from '../../support/app.ts';

/*
 * The contract's record schemas are what the web app and the OpenAPI description trust. Every
 * record the server answers with, in lists, sub-lists and views, must parse with its resource's
 * schema strictly: a field too many, one missing or of another type fails here.
 */

const t = sharedDemoApp({ pictures: true });

function expectShape(schema: z.ZodType, record: unknown, where: string) {
  const parsed = schema.safeParse(record);
  expect(parsed.success ? [] : parsed.error.issues, `${where}: ${JSON.stringify(record)}`).toEqual([]);
}

describe.each(RESOURCES.map((def) => [def.label, def] as const))('%s records', (_label, def) => {
  it('match the contract in the list, each sub-list and the view', async () => {
    const list = (await t.get(def.endpoints.list, t.admin, { limit: 5 })).json();
    expect(list.statusCode).toBe(200);
    expect(list.data.length, `${def.plural} has demo records`).toBeGreaterThan(0);
    for (const record of list.data) expectShape(def.recordSchema, record, def.endpoints.list);

    const [first] = list.data;
    const view = (await t.post(def.endpoints.get, { [def.code]: first[def.code] }, t.admin)).json();
    expect(view.statusCode).toBe(200);
    expectShape(def.recordSchema, view.data, def.endpoints.get);

    for (const sub of def.listedBy) {
      const parent = RESOURCES.find((r) => r.key === sub.parent);
      if (!parent) throw new Error(`${sub.parent} is not a resource`);
      const [owner] = (await t.get(parent.endpoints.list, t.admin, { limit: 1 })).json().data;
      const page = (await t.post(sub.endpoint, { [sub.param]: owner[parent.code] }, t.admin)).json();
      expect(page.statusCode).toBe(200);
      for (const record of page.data) expectShape(def.recordSchema, record, sub.endpoint);
    }
  });
});

describe('the signed-in user', () => {
  it('matches the contract in GetSession', async () => {
    const session = (await t.get('GetSession', t.admin)).json();
    expect(session.statusCode).toBe(200);
    expectShape(sessionUserSchema, session.data, 'GetSession');
  });
});
