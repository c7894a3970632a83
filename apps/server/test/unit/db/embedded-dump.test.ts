import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isHolderEntry,
  loadableTarball,
  tarballMajor,
  withoutEntries,
} from '../../../src/db/embedded-dump.ts';

/*
 * A backup of the embedded database leaves out the holder's own files (its lock, its channel).
 * Archives made by tar itself, in its ustar and GNU formats, with entries small, large, empty,
 * nested and with long paths, lose exactly those and keep every other byte.
 */

let dir: string;
const files: Record<string, string | Buffer> = {
  PG_VERSION: '17\n',
  'console.lock': '{"pid":1}\n',
  'console.channel': '{"token":"secret"}\n',
  'secret.key': 'key\n',
  'base/1/1259': Buffer.alloc(8192 * 3 + 100, 7),
  'pg_wal/archive_status/.keep': '',
  // Past ustar's 100-character name field: the path is split into its prefix field.
  [`${'deep/'.repeat(25)}file`]: 'deep\n',
  'nested/console.lock': 'a database file that happens to be called so\n',
  // Left by a process that stopped while creating a database (db/embedded-init.ts).
  'console.lock.new/base/1/1259': 'half made\n',
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wfc-tar-'));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(dir, 'src', name, '..'), { recursive: true });
    await writeFile(join(dir, 'src', name), content);
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const archive = (format: string) =>
  new Uint8Array(execFileSync('tar', [`--format=${format}`, '-cf', '-', '-C', join(dir, 'src'), '.']));

const listing = (tar: Uint8Array) =>
  execFileSync('tar', ['-tf', '-'], { input: tar })
    .toString()
    .split('\n')
    .filter((line) => line && !line.endsWith('/'))
    .map((line) => line.replace(/^\.\//, ''))
    .sort();

describe('withoutEntries', () => {
  for (const format of ['ustar', 'gnu']) {
    it(`drops the holder's files of a ${format} archive and keeps the rest intact`, async () => {
      const kept = withoutEntries(archive(format), isHolderEntry);
      const expected = Object.keys(files)
        .filter((name) => !/^console\.(lock|channel)/.test(name))
        .sort();
      expect(listing(kept)).toEqual(expected);
      const out = join(dir, `out-${format}`);
      await mkdir(out);
      execFileSync('tar', ['-xf', '-', '-C', out], { input: kept });
      for (const name of expected) {
        expect(Buffer.compare(await readFile(join(out, name)), Buffer.from(files[name] ?? '')), name).toBe(0);
      }
    });
  }

  it('keeps an archive that holds none of them entry for entry', () => {
    const tar = archive('ustar');
    const all = withoutEntries(tar, () => false);
    expect(listing(all)).toEqual(Object.keys(files).sort());
  });

  it('refuses what is no tar archive', () => {
    const junk = new Uint8Array(1024).fill(0x41);
    expect(() => withoutEntries(junk, () => false)).toThrow('not a tar archive');
  });
});

describe('loadableTarball', () => {
  it('takes a gzipped backup or a bare tarball, without the holder files', async () => {
    const tar = archive('ustar');
    for (const input of [new Uint8Array(gzipSync(tar)), tar]) {
      const names = listing(await loadableTarball(input));
      expect(names).not.toContain('console.lock');
      expect(names).toContain('PG_VERSION');
    }
  });
});

describe('tarballMajor', () => {
  it('reads the PostgreSQL major version of a data-directory tarball', () => {
    for (const format of ['ustar', 'gnu']) expect(tarballMajor(archive(format))).toBe('17');
  });

  it('finds none in an archive without PG_VERSION', () => {
    expect(tarballMajor(withoutEntries(archive('ustar'), (name) => name === 'PG_VERSION'))).toBeNull();
  });
});
