import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEntryPoint } from '../../support/cli.ts';

/** Every way the server's code is started: each reads .env and reports a bad configuration alike. */
const ENTRY_POINTS = [
  'main.ts',
  'cli/migrate.ts',
  'cli/reset-password.ts',
  'cli/retention-purge.ts',
  'seed/demo-cli.ts',
];

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'wfc-entry-'));
  // PORT is wrong in the file; LOG_LEVEL is wrong in the file too, but the environment sets it.
  await writeFile(join(cwd, '.env'), 'PORT=99999\nLOG_LEVEL=loud\n');
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('a wrong configuration stops every entry point with a plain list and exit code 1', () => {
  for (const script of ENTRY_POINTS) {
    it(script, { timeout: 60_000 }, async () => {
      const run = await runEntryPoint(script, {
        cwd,
        env: { LOG_LEVEL: 'info', METRICS_TOKEN: 'short', DATA_DIR: join(cwd, 'data') },
      });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines[0]).toBe('Invalid configuration:');
      // From the .env file, and from the environment; LOG_LEVEL=info of the environment won.
      expect(lines.slice(1, -1)).toEqual([
        '  PORT: Too big: expected number to be <=65535',
        '  METRICS_TOKEN: must be at least 16 characters long',
      ]);
      expect(lines.at(-1)).toBe(
        `Set these in the environment or in ${join(cwd, '.env')}; .env.example explains each variable.`,
      );
      expect(run.stderr).not.toMatch(/^\s+at /m);
      expect(run.stderr).not.toContain('ConfigError');
      expect(run.stderr).not.toContain('LOG_LEVEL');
    });
  }
});
