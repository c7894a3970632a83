import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { escapeLike } from '../../../src/db/like.ts';
import { rows } from '../../../src/seed/sql.ts';
import { sharedTestApp } from '../../support/app.ts';

const t = sharedTestApp();
let admin: string;

beforeAll(async () => {
  admin = await t.login();
});

describe('change notifications', () => {
  it('come from every table', async () => {
    const missing = await rows<{ tablename: string }>(
      t.handle.db,
      sql`select tablename from pg_tables where schemaname = 'public'
          and not exists (select 1 from pg_trigger g join pg_class c on c.oid = g.tgrelid
            where c.relname = pg_tables.tablename and g.tgname = 'wfc_table_changed')`,
    );
    expect(missing).toEqual([]);
  });

  it('let a list show a record written behind the server, once the server has seen it', async () => {
    const names = async () =>
      (await t.get('GetGenders', admin, { limit: 100 }))
        .json()
        .data.map((g: { genderName: string }) => g.genderName);
    expect(await names()).not.toContain('Behind The Back');
    await t.handle.db.execute(
      sql`insert into genders (gender_code, gender_name) values ('GEN-BEHINDTHEBACK', 'Behind The Back')`,
    );
    await t.settle();
    expect(await names()).toContain('Behind The Back');
  });
});

describe('audit keyword over few-valued columns', () => {
  beforeAll(async () => {
    await t.handle.db.execute(sql`
      insert into audits (audit_code, action, collection, username)
      values ('AUDIT-FEW1', 'CREATE', 'cities', 'dana.logan'),
             ('AUDIT-FEW2', 'DELETE', 'skills', 'eve'),
             ('AUDIT-FEW3', 'UPDATE', 'auth', null),
             ('AUDIT-FEW4', 'LOGOUT', 'auth', 'frank')`);
    await t.settle();
  });

  /** The keyword matches part of the action, the collection or the username. */
  async function expected(keyword: string) {
    const p = `%${escapeLike(keyword)}%`;
    const found = await rows<{ audit_code: string }>(
      t.handle.db,
      sql`select audit_code from audits
          where action ilike ${p} or collection ilike ${p} or username ilike ${p}
          order by audit_code`,
    );
    return found.map((r) => r.audit_code);
  }

  async function listed(keyword: string) {
    const body = (await t.get('GetAudits', admin, { keyword, limit: 100 })).json();
    return { codes: body.data.map((a: { auditCode: string }) => a.auditCode).sort(), total: body.total };
  }

  it.each(['log', 'LOG', 'ties', 'del', 'eve', 'e', 'au', 'nothing-like-it', '%', '_', 'a_b'])(
    'matches %s as a plain substring search would',
    async (keyword) => {
      const want = await expected(keyword);
      const got = await listed(keyword);
      expect(got.codes).toEqual(want);
      expect(got.total).toBe(want.length);
    },
  );

  it('finds an action that first appears after the list was read', async () => {
    expect((await listed('IMPORT')).total).toBe(0);
    await t.handle.db.execute(
      sql`insert into audits (audit_code, action, collection) values ('AUDIT-FEW5', 'IMPORT', 'demo data')`,
    );
    await t.settle();
    expect((await listed('import')).codes).toEqual(['AUDIT-FEW5']);
  });
});
