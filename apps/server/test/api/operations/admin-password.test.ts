import { PERMISSION_CATALOGUE } from '@wfc/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../src/auth/passwords.ts';
import { createSession } from '../../../src/auth/sessions.ts';
import type { DbHandle } from '../../../src/db/client.ts';
import { audits, sessions, users } from '../../../src/db/schema/index.ts';
import { runEntryPoint, type ScratchDatabase, scratchDatabase } from '../../support/cli.ts';

/*
 * The commands as an operator runs them, in child processes, on an embedded database in a
 * temporary directory, or with DATABASE_URL set on a new database of that PostgreSQL server.
 */

const POLICY = { idleMs: 60_000, absoluteMs: 3_600_000 };
const GENERATED = /generated password: (\S+)/g;

let db: ScratchDatabase;
beforeAll(async () => {
  db = await scratchDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** Opens the database from the test, runs `work`, and closes it again before any child opens it. */
async function inDatabase<T>(work: (h: DbHandle) => Promise<T>): Promise<T> {
  const h = await db.open();
  try {
    return await work(h);
  } finally {
    await h.close();
  }
}

const adminRow = (h: DbHandle) =>
  h.db
    .select()
    .from(users)
    .where(eq(users.username, 'admin'))
    .then((rows) => rows[0]!);

const adminSessions = async (h: DbHandle, userCode: string) =>
  h.db.$count(sessions, eq(sessions.userCode, userCode));

describe('npm run admin:reset-password before the database is set up', () => {
  it('says what to do, plainly, with exit code 1', { timeout: 120_000 }, async () => {
    const run = await runEntryPoint('cli/reset-password.ts', { env: db.env });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr.trim()).toBe(
      "There is no user 'admin': the database is empty; run npm run db:migrate first",
    );
    expect(run.stdout).toBe('');
  });
});

describe('npm run db:migrate on a new database', () => {
  let password: string;

  it('creates admin and prints its generated password exactly once', { timeout: 120_000 }, async () => {
    const run = await runEntryPoint('cli/migrate.ts', { env: db.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Applied: 0000_init, /);
    const printed = [...run.stdout.matchAll(GENERATED)].map((m) => m[1]!);
    expect(printed, run.stdout).toHaveLength(1);
    password = printed[0]!;
    expect(run.stdout).toContain(
      `Created user 'admin' with the generated password: ${password} (shown once;`,
    );
    await inDatabase(async (h) => {
      const admin = await adminRow(h);
      expect(await verifyPassword(admin.passwordHash, password)).toBe(true);
      // Nothing else of it is shown: the hash stays in the database.
      expect(run.stdout).not.toContain(admin.passwordHash);
    });
  });

  it('prints no password when run again: admin exists', { timeout: 120_000 }, async () => {
    const run = await runEntryPoint('cli/migrate.ts', { env: db.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('Database is up to date');
    await inDatabase(async (h) => {
      expect(await verifyPassword((await adminRow(h)).passwordHash, password)).toBe(true);
      expect(await h.db.$count(users)).toBe(1);
    });
  });
});

describe('npm run admin:reset-password', () => {
  async function signInAdminTwice() {
    return inDatabase(async (h) => {
      const admin = await adminRow(h);
      await createSession(h.db, admin.userCode, POLICY, { ip: '127.0.0.1' });
      await createSession(h.db, admin.userCode, POLICY, { ip: '10.0.0.2' });
      expect(await adminSessions(h, admin.userCode)).toBe(2);
      return admin;
    });
  }

  it('sets ADMIN_PASSWORD, ends every session of admin and audits it as a password change', {
    timeout: 120_000,
  }, async () => {
    const before = await signInAdminTwice();
    const chosen = 'chosen-by-operator-7';
    const run = await runEntryPoint('cli/reset-password.ts', { env: { ...db.env, ADMIN_PASSWORD: chosen } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      "The password of 'admin' is now the one in ADMIN_PASSWORD",
      "Sessions of 'admin' ended: 2",
    ]);
    expect(run.stdout + run.stderr).not.toContain(chosen);
    await inDatabase(async (h) => {
      const admin = await adminRow(h);
      expect(await verifyPassword(admin.passwordHash, chosen)).toBe(true);
      expect(admin.version).toBe(before.version + 1);
      expect(await adminSessions(h, admin.userCode)).toBe(0);
      const entries = await h.db
        .select()
        .from(audits)
        .where(and(eq(audits.collection, 'users'), eq(audits.recordCode, admin.userCode)));
      expect(entries).toHaveLength(1);
      const [entry] = entries;
      expect(entry).toMatchObject({
        action: 'UPDATE',
        userCode: null,
        username: null,
        requestId: null,
        changes: { passwordChanged: { old: null, new: true } },
        after: { username: 'admin', passwordChanged: true },
        before: { username: 'admin', userCode: admin.userCode },
      });
      const text = JSON.stringify(entry);
      for (const secret of [chosen, '$argon2', 'passwordHash']) expect(text).not.toContain(secret);
    });
  });

  it('without ADMIN_PASSWORD generates one and prints it once', { timeout: 120_000 }, async () => {
    await signInAdminTwice();
    const run = await runEntryPoint('cli/reset-password.ts', { env: db.env });
    expect(run.code, run.stderr).toBe(0);
    const printed = [...run.stdout.matchAll(GENERATED)].map((m) => m[1]!);
    expect(printed).toHaveLength(1);
    expect(run.stdout).toContain("Sessions of 'admin' ended: 2");
    await inDatabase(async (h) => {
      const admin = await adminRow(h);
      expect(await verifyPassword(admin.passwordHash, printed[0]!)).toBe(true);
      expect(await verifyPassword(admin.passwordHash, 'chosen-by-operator-7')).toBe(false);
      expect(await adminSessions(h, admin.userCode)).toBe(0);
      const resets = await h.db.$count(
        audits,
        and(eq(audits.recordCode, admin.userCode), sql`${audits.after} ->> 'passwordChanged' = 'true'`),
      );
      expect(resets).toBe(2);
      // The role and its permissions are left as they were.
      const [{ n }] = (
        (await h.db.execute(sql`select count(*)::int as n from role_permissions rp
          join users u on u.role_code = rp.role_code where u.user_code = ${admin.userCode}`)) as unknown as {
          rows: [{ n: number }];
        }
      ).rows;
      expect(n).toBe(PERMISSION_CATALOGUE.length);
    });
  });

  it('refuses a weak ADMIN_PASSWORD before touching anything', { timeout: 120_000 }, async () => {
    const run = await runEntryPoint('cli/reset-password.ts', { env: { ...db.env, ADMIN_PASSWORD: 'weak' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Invalid configuration:\n {2}ADMIN_PASSWORD: /);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});
