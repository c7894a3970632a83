import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/config.ts';
import { envFilePath, loadEnvFile } from '../../../src/config/startup.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wfc-env-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function envFile(text: string) {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.env`);
  await writeFile(path, text);
  return path;
}

describe('the .env file', () => {
  it('adds what the environment lacks; a variable of the real environment wins, even when empty', async () => {
    const path = await envFile(
      [
        '# a comment',
        'PORT=4000',
        'HOST=0.0.0.0',
        'ADMIN_PASSWORD=from-the-file-1',
        'CORS_ORIGINS="https://a.example, https://b.example"',
        "LOG_LEVEL='debug' # trailing comment",
        '',
      ].join('\n'),
    );
    const env: NodeJS.ProcessEnv = { PORT: '5000', ADMIN_PASSWORD: '' };
    const set = loadEnvFile(path, env);
    expect(set.sort()).toEqual(['CORS_ORIGINS', 'HOST', 'LOG_LEVEL']);
    expect(env).toEqual({
      PORT: '5000',
      ADMIN_PASSWORD: '',
      HOST: '0.0.0.0',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      LOG_LEVEL: 'debug',
    });
    expect(loadConfig(env)).toMatchObject({
      PORT: 5000,
      HOST: '0.0.0.0',
      ADMIN_PASSWORD: undefined,
      CORS_ORIGINS: ['https://a.example', 'https://b.example'],
      LOG_LEVEL: 'debug',
    });
  });

  it('is optional: a missing file changes nothing', () => {
    const env: NodeJS.ProcessEnv = { PORT: '1' };
    expect(loadEnvFile(join(dir, 'nothing-here.env'), env)).toEqual([]);
    expect(env).toEqual({ PORT: '1' });
  });

  it('that cannot be read is a configuration error naming it, not a stack trace', async () => {
    const notAFile = join(dir, 'a-directory.env');
    await mkdir(notAFile);
    expect(() => loadEnvFile(notAFile, {})).toThrow(ConfigError);
    expect(() => loadEnvFile(notAFile, {})).toThrow(`${notAFile} cannot be read`);
  });

  it('is the one of the directory the command was started in (npm names it in INIT_CWD)', () => {
    expect(envFilePath({}, '/srv/console')).toBe('/srv/console/.env');
    expect(envFilePath({ INIT_CWD: '/home/me/console' }, '/home/me/console/apps/server')).toBe(
      '/home/me/console/.env',
    );
    expect(envFilePath({ INIT_CWD: '' }, '/srv/console')).toBe('/srv/console/.env');
  });
});

describe('configuration errors', () => {
  it('list every problem on a line of its own, each naming its variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', TRUST_PROXY: 'true' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['LOG_LEVEL', 'PORT', 'TRUST_PROXY']);
    const lines = (error as Error).message.split('\n');
    expect(lines[0]).toBe('Invalid configuration:');
    expect(lines.slice(1)).toEqual(problems.map((p) => `  ${p}`));
  });

  it('METRICS_TOKEN: unset or empty turns metrics off; a set one must be long and sendable in a header', () => {
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-token-1' }).METRICS_TOKEN).toBe(
      'a-long-enough-token-1',
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in the middle' })).toThrow(
      /METRICS_TOKEN: must be printable ASCII/,
    );
  });
});
