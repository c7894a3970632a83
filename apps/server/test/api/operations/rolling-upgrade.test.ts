import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '../../support/app.ts';
import { expectEnvelope } from '../../support/envelope.ts';
import { PREVIOUS_RELEASE, previousRelease } from '../../support/previous-release.ts';
import { type RunningServer, startSourceServer } from '../../support/processes.ts';

/*
 * A rolling upgrade: the new release has migrated the database while an instance of the previous
 * release still serves (docs/operations.md, "Upgrading"). That instance must keep signing in,
 * listing, creating and updating on the new schema, and both must see each other's writes.
 * Only PostgreSQL runs several instances; the embedded database has one process.
 */

const postgres = Boolean(process.env.DATABASE_URL);
let current: TestApp;
let previous: RunningServer;

beforeAll(async () => {
  if (!postgres) return;
  current = await createTestApp();
  const release = await previousRelease();
  previous = await startSourceServer(release, {
    env: {
      DATABASE_URL: current.handle.url ?? '',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent/',
      SECRET_KEY: 'rolling-upgrade-secret-key-0123456789abcdef',
    },
  });
}, 600_000);

afterAll(async () => {
  await previous?.stop();
  await current?.close();
});

/** A request to the previous release's server, as a browser sends it (form-encoded). */
async function call(path: string, body?: Record<string, string | number>, cookie?: string) {
  const res = await fetch(`${previous.url}/api/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: {
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(cookie ? { cookie } : {}),
    },
    body: body
      ? new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)]))
      : undefined,
  });
  const json = (await res.json()) as { message: string; data?: unknown };
  return { status: res.status, json, cookie: res.headers.get('set-cookie')?.split(';')[0] };
}

describe(`the previous release (${PREVIOUS_RELEASE.version}) on a database this one migrated`, () => {
  it.skipIf(!postgres)('signs in, lists, creates and updates; the new release sees it and back', async () => {
    const login = await call('login', { username: 'admin', password: ADMIN_PASSWORD });
    expect(login.status, JSON.stringify(login.json)).toBe(200);
    const cookie = login.cookie ?? '';
    expect(cookie).toMatch(/^sid=/);

    const users = await call('GetUsers', undefined, cookie);
    expect(users.status).toBe(200);
    expect((users.json.data as { username: string }[]).map((u) => u.username)).toContain('admin');

    const created = await call('CreateGender', { genderName: 'Made by the previous release' }, cookie);
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const gender = created.json.data as { genderCode: string; version: number };
    const updated = await call(
      'UpdateGender',
      {
        genderCode: gender.genderCode,
        genderName: 'Renamed by the previous release',
        version: gender.version,
      },
      cookie,
    );
    expect(updated.status, JSON.stringify(updated.json)).toBe(200);

    const registered = await call(
      'register',
      {
        username: 'old.release.user',
        email: 'old.release.user@example.com',
        password: 'a-long-passphrase-1',
        roleCode: (users.json.data as { role: { roleCode: string } }[])[0]?.role.roleCode ?? '',
      },
      cookie,
    );
    expect(registered.status, JSON.stringify(registered.json)).toBe(200);
    const user = registered.json.data as { userCode: string; version: number; role: { roleCode: string } };
    const edited = await call(
      'UpdateUser',
      {
        userCode: user.userCode,
        username: 'old.release.user',
        email: 'renamed@example.com',
        roleCode: user.role.roleCode,
        version: user.version,
      },
      cookie,
    );
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);

    // The new release reads what the old one wrote, and writes what the old one then reads.
    await current.settle();
    const admin = await current.login();
    const seen = expectEnvelope(
      await current.post('GetGenderByCode', { genderCode: gender.genderCode }, admin),
      200,
    ).data as { genderName: string; version: number };
    expect(seen.genderName).toBe('Renamed by the previous release');
    const newer = await current.post(
      'UpdateGender',
      { genderCode: gender.genderCode, genderName: 'Renamed by the new release', version: seen.version },
      admin,
    );
    expect(newer.statusCode, newer.body).toBe(200);
    const back = await call('GetGenderByCode', { genderCode: gender.genderCode }, cookie);
    expect(back.json.data).toMatchObject({ genderName: 'Renamed by the new release' });
    const newUser = expectEnvelope(await current.post('GetUserById', { userCode: user.userCode }, admin), 200)
      .data as { email: string };
    expect(newUser.email).toBe('renamed@example.com');
    // A user the new release registers signs in on the old one.
    const roleCode = user.role.roleCode;
    const made = await current.post(
      'register',
      {
        username: 'new.release.user',
        email: 'new.release.user@example.com',
        password: 'a-long-passphrase-2',
        roleCode,
      },
      admin,
    );
    expect(made.statusCode, made.body).toBe(200);
    const theirs = await call('login', { username: 'new.release.user', password: 'a-long-passphrase-2' });
    expect(theirs.status, JSON.stringify(theirs.json)).toBe(200);
  });
});
