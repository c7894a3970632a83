import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteSize, routeSizes } from '../../scripts/bundle-report';

/*
 * The bundle-size targets (200 KB gzip of JavaScript for the sign-in page, 400 KB for any route),
 * checked on a build of the current sources made for this test, so that a component added to the
 * sign-in page's imports cannot quietly push it over.
 */
// The web project's root (vitest.config.ts), where `vite build` finds its config.
const WEB = path.resolve(__dirname, '../..');
let out: string;
let sizes: RouteSize[];

beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'wfc-bundle-'));
  await promisify(execFile)(
    'npx',
    ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'],
    {
      cwd: WEB,
      // As `npm run build` makes it: vitest's NODE_ENV=test would bring React's development build.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  sizes = routeSizes(out);
}, 180_000);

afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

describe('the web bundle', () => {
  it('keeps every route within its gzip target', () => {
    const byRoute = Object.fromEntries(sizes.map((s) => [s.route, s]));
    expect(byRoute['/login']?.targetKb).toBe(200);
    expect(byRoute['/performance-snapshot/overview']?.targetKb).toBe(400);
    const over = sizes.filter((s) => !s.ok).map((s) => `${s.route}: ${(s.gzip / 1000).toFixed(1)} KB`);
    expect(over).toEqual([]);
  });
});
