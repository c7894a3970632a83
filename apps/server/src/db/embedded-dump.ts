import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { isOwnerFile } from './data-dir-lock.ts';

/*
 * The embedded database's backup: PGlite's tarball of its data directory, gzipped, without the
 * files of the process that held the directory (its lock, its backup channel), which would make a
 * restored copy look in use by that process.
 */

const BLOCK = 512;
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).replace(/\0[\s\S]*$/, '');

/** One entry of a tar archive: its path as stored, without a leading `/` or `./`, and its bytes. */
interface TarEntry {
  name: string;
  /** The whole entry, header and padding included. */
  block: Uint8Array;
  content: Uint8Array;
}

/** Pure: the entries of a tar archive, in order. Throws on what is no tar archive. */
function* tarEntries(tar: Uint8Array): Generator<TarEntry> {
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) return;
    const sizeField = text(header.subarray(124, 136)).trim();
    if (!/^[0-7]*$/.test(sizeField)) throw new Error('not a tar archive');
    const size = sizeField ? Number.parseInt(sizeField, 8) : 0;
    // ustar keeps the start of a long path apart, in its prefix field.
    const prefix = text(header.subarray(257, 262)) === 'ustar' ? text(header.subarray(345, 500)) : '';
    const name = `${prefix ? `${prefix}/` : ''}${text(header.subarray(0, 100))}`.replace(/^(\.?\/)+/, '');
    const end = offset + BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (end > tar.length) throw new Error('not a tar archive');
    yield {
      name,
      block: tar.subarray(offset, end),
      content: tar.subarray(offset + BLOCK, offset + BLOCK + size),
    };
    offset = end;
  }
}

/**
 * Pure: a tar archive without the entries `drop` names (paths as stored, without a leading `/` or
 * `./`); every other entry is kept byte for byte. Throws on what is no tar archive.
 */
export function withoutEntries(tar: Uint8Array, drop: (name: string) => boolean): Uint8Array {
  const kept: Uint8Array[] = [];
  for (const entry of tarEntries(tar)) if (!drop(entry.name)) kept.push(entry.block);
  // The end of an archive: two empty blocks.
  kept.push(new Uint8Array(2 * BLOCK));
  const out = new Uint8Array(kept.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of kept) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Pure: the PostgreSQL major version a data-directory tarball was written by (its `PG_VERSION`),
 * or null when it holds none.
 */
export function tarballMajor(tar: Uint8Array): string | null {
  for (const entry of tarEntries(tar)) {
    if (entry.name === 'PG_VERSION') return new TextDecoder().decode(entry.content).trim();
  }
  return null;
}

/** Pure: whether an entry is (or lies in) a file of the holder's at the top of the data directory. */
export const isHolderEntry = (name: string) => isOwnerFile(name.split('/')[0] ?? '');

const gzipped = promisify(gzip);
const gunzipped = promisify(gunzip);

/**
 * A backup of an open embedded database, taken by the process that has it open: with PGlite's
 * transaction lock held, no transaction is under way and no other statement can start; CHECKPOINT
 * then writes every committed change from PGlite's memory into the data files, and the tarball is
 * read from them before the lock is let go. So it holds every write committed before it began,
 * and the database carries on untouched. Compressing happens after, off the lock.
 */
export async function dumpEmbedded(client: PGlite): Promise<Uint8Array> {
  const tar = await client.transaction(async (tx) => {
    await tx.exec('checkpoint');
    return new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer());
  });
  return new Uint8Array(await gzipped(withoutEntries(tar, isHolderEntry)));
}

/** A backup file's tarball, ready to load, without any holder's files (a tarball made by hand may hold some). */
export async function loadableTarball(backup: Uint8Array): Promise<Uint8Array> {
  const gzip = backup[0] === 0x1f && backup[1] === 0x8b;
  const tar = gzip ? new Uint8Array(await gunzipped(backup)) : backup;
  return withoutEntries(tar, isHolderEntry);
}
