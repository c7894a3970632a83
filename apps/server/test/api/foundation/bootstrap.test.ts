import { randomBytes } from 'node:crypto';
import { ALL_PERMISSION_NAMES, passwordRule } from '@wfc/contract';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { verifyPassword } from '../../../src/auth/passwords.ts';
import { ADMIN_ROLE, ADMIN_USERNAME, bootstrap } from '../../../src/bootstrap.ts';
import { testConfig } from '../../../src/config/config.ts';
import { type DbHandle, openDatabase } from '../../../src/db/client.ts';
import { migrate } from '../../../src/db/migrate.ts';
import { permissions, rolePermissions, roles, users } from '../../../src/db/schema/index.ts';
import { makeServices } from '../../../src/services.ts';
import { formEncode } from '../../support/requests.ts';

const BASE_URL = process.env.DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * An empty, unmigrated database. On PostgreSQL, `connections` separate pools stand for separate
 * server instances; PGlite is one process, so its "instances" share the one handle.
 */
async function emptyDatabase(connections = 1): Promise<DbHandle[]> {
  if (!BASE_URL) {
    const handle = await openDatabase({ dataDir: 'memory://' });
    cleanups.push(() => handle.close());
    return Array.from({ length: connections }, () => handle);
  }
  const name = `wfc_boot_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  const handles = await Promise.all(
    Array.from({ length: connections }, () =>
      openDatabase({ dataDir: 'memory://', databaseUrl: url.toString(), poolSize: 3 }),
    ),
  );
  cleanups.push(async () => {
    for (const h of handles) await h.close();
    const c = new pg.Client({ connectionString: BASE_URL });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  return handles;
}

const tableCount = async (db: DbHandle['db']) => {
  const res = (await db.execute(
    sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
  )) as unknown as { rows: { n: number }[] };
  return res.rows[0]!.n;
};

describe('one instance', () => {
  let h: DbHandle;
  beforeAll(async () => {
    [h] = (await emptyDatabase()) as [DbHandle];
  });

  it('migrations apply once, and a second run changes nothing', async () => {
    const first = await migrate(h.db);
    expect(first.length).toBeGreaterThan(0);
    const tables = await tableCount(h.db);
    expect(tables).toBeGreaterThan(10);
    expect(await migrate(h.db)).toEqual([]);
    expect(await tableCount(h.db)).toBe(tables);
    const applied = (await h.db.execute(sql`select tag from schema_migrations`)) as unknown as {
      rows: { tag: string }[];
    };
    expect(applied.rows.map((r) => r.tag).sort()).toEqual([...first].sort());
  });

  it('first start: the catalogue, Administrator with every permission, and admin with a generated password', async () => {
    const result = await bootstrap(h.db, undefined);
    expect(result.createdAdmin).toBe(true);
    const generated = result.generatedPassword!;
    expect(passwordRule.safeParse(generated).success).toBe(true);

    const names = (await h.db.select({ n: permissions.permissionName }).from(permissions)).map((r) => r.n);
    expect(names.sort()).toEqual([...ALL_PERMISSION_NAMES].sort());
    const [role] = await h.db.select().from(roles).where(eq(roles.roleName, ADMIN_ROLE));
    expect(await h.db.$count(rolePermissions, eq(rolePermissions.roleCode, role!.roleCode))).toBe(
      ALL_PERMISSION_NAMES.length,
    );
    const [admin] = await h.db.select().from(users).where(eq(users.username, ADMIN_USERNAME));
    expect(admin!.roleCode).toBe(role!.roleCode);
    expect(admin!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(admin!.passwordHash, generated)).toBe(true);

    // The generated password signs in through the API, and nothing else does.
    const app = await buildApp(makeServices(h.db, testConfig({ WEB_DIST: '/nonexistent/' })));
    const login = (password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/login',
        payload: formEncode({ username: 'admin', password }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    expect((await login(generated)).statusCode).toBe(200);
    expect((await login(`${generated}x`)).statusCode).toBe(401);
    await app.close();
  });

  it('an empty password counts as none: a generated one, never an empty one', async () => {
    const [other] = (await emptyDatabase()) as [DbHandle];
    await migrate(other.db);
    const result = await bootstrap(other.db, '');
    expect(result.generatedPassword).toMatch(/^\S{12,}$/);
    const [admin] = await other.db.select().from(users);
    expect(await verifyPassword(admin!.passwordHash, '')).toBe(false);
    expect(await verifyPassword(admin!.passwordHash, result.generatedPassword!)).toBe(true);
  });

  it('a later start creates nothing and generates no password', async () => {
    expect(await bootstrap(h.db, undefined)).toEqual({ createdAdmin: false });
    expect(await h.db.$count(users)).toBe(1);
    expect(await h.db.$count(roles)).toBe(1);
  });

  it('restores a missing catalogue entry and gives it to Administrator on the next start', async () => {
    await h.db.delete(permissions).where(eq(permissions.permissionName, 'VIEW_AUDITS'));
    expect(await h.db.$count(permissions)).toBe(ALL_PERMISSION_NAMES.length - 1);
    await bootstrap(h.db, undefined);
    const [perm] = await h.db.select().from(permissions).where(eq(permissions.permissionName, 'VIEW_AUDITS'));
    expect(perm).toBeDefined();
    expect(await h.db.$count(rolePermissions, eq(rolePermissions.permissionCode, perm!.permissionCode))).toBe(
      1,
    );
  });

  it("corrects a description an earlier version stored ('Create a employee') and keeps the code", async () => {
    const byName = eq(permissions.permissionName, 'CREATE_EMPLOYEE');
    await h.db.update(permissions).set({ permissionDescription: 'Create a employee' }).where(byName);
    const [old] = await h.db.select().from(permissions).where(byName);
    await bootstrap(h.db, undefined);
    const [now] = await h.db.select().from(permissions).where(byName);
    expect(now?.permissionDescription).toBe('Create an employee');
    expect(now?.permissionCode).toBe(old?.permissionCode);
    const descriptions = (await h.db.select().from(permissions)).map((p) => p.permissionDescription);
    expect(descriptions).toEqual(
      expect.arrayContaining(['Create a user', 'Update an employee', 'Delete a city']),
    );
    expect(descriptions.filter((d) => / a [aeio]/.test(d))).toEqual([]);
  });
});

describe('two instances starting together', () => {
  let a: DbHandle;
  let b: DbHandle;
  beforeAll(async () => {
    [a, b] = (await emptyDatabase(2)) as [DbHandle, DbHandle];
  });

  it('migrate once: one applies, the other waits on the lock and finds nothing to do', async () => {
    const [ranA, ranB] = await Promise.all([migrate(a.db), migrate(b.db)]);
    expect(Math.max(ranA.length, ranB.length)).toBeGreaterThan(0);
    expect(Math.min(ranA.length, ranB.length)).toBe(0);
    const once = (await a.db.execute(
      sql`select count(*)::int as n, count(distinct tag)::int as d from schema_migrations`,
    )) as unknown as { rows: { n: number; d: number }[] };
    expect(once.rows[0]!.n).toBe(once.rows[0]!.d);
  });

  it('bootstrap once: one admin, with ADMIN_PASSWORD and no generated password, and one catalogue', async () => {
    const results = await Promise.all([
      bootstrap(a.db, 'chosen-password-42'),
      bootstrap(b.db, 'chosen-password-42'),
    ]);
    expect(results.filter((r) => r.createdAdmin)).toEqual([
      { createdAdmin: true, generatedPassword: undefined },
    ]);
    expect(await a.db.$count(users)).toBe(1);
    expect(await a.db.$count(roles)).toBe(1);
    expect(await a.db.$count(permissions)).toBe(ALL_PERMISSION_NAMES.length);
    const [admin] = await a.db.select().from(users);
    expect(await verifyPassword(admin!.passwordHash, 'chosen-password-42')).toBe(true);
  });
});
