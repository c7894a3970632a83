import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  authorised,
  channelOf,
  parseChannel,
  requestBackup,
  serveBackups,
} from '../../../src/db/backup-channel.ts';
import { CHANNEL_FILE, thisProcess } from '../../../src/db/data-dir-lock.ts';

describe('authorised', () => {
  it('takes the token as a bearer token, and nothing else', () => {
    expect(authorised('Bearer abc', 'abc')).toBe(true);
    for (const header of [
      undefined,
      '',
      'abc',
      'Bearer',
      'Bearer abcd',
      'Bearer ab',
      'Basic abc',
      'bearer abc',
    ]) {
      expect(authorised(header, 'abc'), String(header)).toBe(false);
    }
  });
});

describe('parseChannel and channelOf', () => {
  const info = { pid: 10, startTicks: 20, port: 30, token: 't' };
  it('reads a channel file and ties it to the lock holder', () => {
    expect(parseChannel(JSON.stringify(info))).toEqual(info);
    for (const text of ['', '{}', '{"pid":10,"port":"30","token":"t","startTicks":1}']) {
      expect(parseChannel(text), text).toBeNull();
    }
    const holder = { pid: 10, startTicks: 20, started: '2026-01-01T00:00:00Z' };
    expect(channelOf(info, holder)).toBe(true);
    // Left by an earlier process with the same id, or by another one.
    expect(channelOf({ ...info, startTicks: 19 }, holder)).toBe(false);
    expect(channelOf({ ...info, pid: 11 }, holder)).toBe(false);
    expect(channelOf(null, holder)).toBe(false);
  });
});

describe('serveBackups', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wfc-channel-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('answers the token holder with a backup, refuses others, and removes its file when closed', async () => {
    const backup = new Uint8Array([1, 2, 3, 4]);
    const channel = await serveBackups(dir, async () => backup);
    const file = join(dir, CHANNEL_FILE);
    try {
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const info = parseChannel(await readFile(file, 'utf8'));
      expect(info).not.toBeNull();
      if (!info) return;
      expect(channelOf(info, thisProcess())).toBe(true);

      expect(await requestBackup(info)).toEqual({ ok: true, backup });
      expect(await requestBackup({ ...info, token: 'guessed' })).toMatchObject({ ok: false, status: 401 });
      const other = await fetch(`http://127.0.0.1:${info.port}/backup`, {
        headers: { authorization: `Bearer ${info.token}` },
      });
      expect(other.status).toBe(404);
    } finally {
      await channel.close();
    }
    expect(existsSync(file)).toBe(false);
  });

  it('says why when the database cannot be copied', async () => {
    const channel = await serveBackups(dir, async () => {
      throw new Error('PGlite is closing');
    });
    try {
      const info = parseChannel(await readFile(join(dir, CHANNEL_FILE), 'utf8'));
      if (!info) throw new Error('no channel file');
      expect(await requestBackup(info)).toEqual({ ok: false, status: 503, reason: 'PGlite is closing' });
    } finally {
      await channel.close();
    }
  });
});
