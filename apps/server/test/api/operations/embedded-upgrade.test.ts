import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIOUS_RELEASE, previousRelease } from '../../support/previous-release.ts';
import { type RunningServer, startSourceServer } from '../../support/processes.ts';

/*
 * Upgrading on the embedded database (docs/operations.md, "Upgrades"): the folder the previous
 * release wrote opens in this one, which migrates it and serves what the previous release stored.
 * It is PGlite's own data directory, readable only by a PGlite of the same PostgreSQL major
 * version: the previous release's PGlite 0.3 (PostgreSQL 17) folder is converted at start
 * (db/embedded-upgrade.ts), and an upgrade of PGlite that changes it again fails here before it
 * reaches anyone's data.
 */

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const PASSWORD = 'upgrade-admin-password-1';
const embedded = !process.env.DATABASE_URL;

let folder: string;
let env: Record<string, string>;
const running: RunningServer[] = [];

beforeAll(async () => {
  if (!embedded) return;
  folder = await mkdtemp(join(tmpdir(), 'wfc-embedded-upgrade-'));
  env = {
    DATA_DIR: join(folder, 'data'),
    ADMIN_PASSWORD: PASSWORD,
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
  };
}, 60_000);

afterAll(async () => {
  for (const server of running) await server.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** A form post or a read, as the browser sends it, with the session cookie once signed in. */
async function call(server: RunningServer, path: string, body?: Record<string, string>, cookie?: string) {
  const res = await fetch(`${server.url}/api/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: {
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(cookie ? { cookie } : {}),
    },
    body: body ? new URLSearchParams(body) : undefined,
  });
  const json = (await res.json()) as { message: string; data?: unknown };
  return { status: res.status, json, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '' };
}

describe(`an embedded database the previous release (${PREVIOUS_RELEASE.version}) wrote`, () => {
  it.skipIf(!embedded)(
    'opens in this release, which migrates it and serves its data',
    { timeout: 600_000 },
    async () => {
      const release = await previousRelease();
      const previous = await startSourceServer(release, {
        // Its checkout holds no built web app; the API is what is asked of it.
        env: { ...env, WEB_DIST: '/nonexistent/' },
      });
      running.push(previous);
      const before = await call(previous, 'login', { username: 'admin', password: PASSWORD });
      expect(before.status, JSON.stringify(before.json)).toBe(200);
      const created = await call(
        previous,
        'CreateGender',
        { genderName: 'Kept across the upgrade' },
        before.cookie,
      );
      expect(created.status, JSON.stringify(created.json)).toBe(200);
      const { genderCode } = created.json.data as { genderCode: string };
      expect(await previous.stop()).toBe(0);

      const current = await startSourceServer(ROOT, {
        env,
      });
      running.push(current);
      // Ready: every migration of this release applied to the previous release's database.
      expect(current.ready).toEqual({ statusCode: 200, message: 'Ready' });
      expect((await call(current, 'health')).json.data).toEqual({ version: VERSION });
      const after = await call(current, 'login', { username: 'admin', password: PASSWORD });
      expect(after.status, JSON.stringify(after.json)).toBe(200);
      const kept = await call(current, 'GetGenderByCode', { genderCode }, after.cookie);
      expect(kept.json.data).toMatchObject({ genderName: 'Kept across the upgrade' });
      // The session signed in on the previous release signs requests in this one.
      const same = await call(current, 'GetGenderByCode', { genderCode }, before.cookie);
      expect(same.status, JSON.stringify(same.json)).toBe(200);
    },
  );
});
