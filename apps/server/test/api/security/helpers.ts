import { inArray, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { createSession } from '../../../src/auth/sessions.ts';
import type { Database } from '../../../src/db/client.ts';
import { permissions, rolePermissions, roles, users } from '../../../src/db/schema/index.ts';
import { newCode } from '../../../src/resources/codes.ts';
import { formEncode } from '../../support/app.ts';

const POLICY = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };

/**
 * A user whose role holds exactly `names`, signed in by a session row rather than the login
 * route: the matrix needs dozens of them and argon2 would make each cost a tenth of a second.
 */
export async function sessionWith(db: Database, names: readonly string[], label = 'matrix') {
  const roleCode = newCode('ROLE-');
  const userCode = newCode('USER-');
  const username = `${label}_${userCode.slice(-10).toLowerCase()}`;
  await db.insert(roles).values({ roleCode, roleName: `Role ${username}` });
  if (names.length) {
    const perms = await db
      .select({ code: permissions.permissionCode })
      .from(permissions)
      .where(inArray(permissions.permissionName, [...names]));
    if (perms.length !== names.length) throw new Error(`unknown permission in ${names.join(',')}`);
    await db.insert(rolePermissions).values(perms.map((p) => ({ roleCode, permissionCode: p.code })));
  }
  await db.insert(users).values({
    userCode,
    username,
    email: `${username}@example.com`,
    passwordHash: 'not-a-usable-hash',
    roleCode,
  });
  const id = await createSession(db, userCode, POLICY, {});
  return { cookie: `sid=${id}`, userCode, roleCode, username };
}

/** DECISIONS.md section 2: every answer is the JSON envelope and its HTTP status is its statusCode. */
export function expectEnvelope(res: LightMyRequestResponse, status?: number) {
  expect(res.headers['content-type'], res.body).toMatch(/^application\/json/);
  const body = res.json() as { statusCode: unknown; message: unknown };
  expect(body.statusCode, res.body).toBe(res.statusCode);
  expect(typeof body.message).toBe('string');
  if (status !== undefined) expect(res.statusCode, res.body).toBe(status);
  return body as {
    statusCode: number;
    message: string;
    data?: unknown;
    errors?: { field: string; message: string }[];
  };
}

/** A multipart/form-data body written by hand, so tests control every byte of the file part. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { name?: string; filename: string; type: string; data: Buffer },
) {
  const boundary = `----wfc${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name ?? 'profilePicture'}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Bracket keys for a nested body, as the web client writes them into form data. */
export const bracketFields = (body: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(new URLSearchParams(formEncode(body)));

/**
 * Every table's content but the session and throttle bookkeeping that any request may touch, and
 * the security events a refused request leaves (tested with the audit trail).
 */
export async function fingerprint(db: Database): Promise<Record<string, string>> {
  const tables = (await db.execute(sql`select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
      and table_name not in ('sessions', 'login_throttle', 'schema_migrations') order by 1`)) as unknown as {
    rows: { name: string }[];
  };
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const events = name === 'audits' ? sql`where t.collection <> 'security'` : sql``;
    const res = (await db.execute(
      sql`select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from ${sql.identifier(name)} t ${events}`,
    )) as unknown as { rows: { n: number; h: string }[] };
    out[name] = `${res.rows[0].n}:${res.rows[0].h}`;
  }
  return out;
}
