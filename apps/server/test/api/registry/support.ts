import { crc32, deflateSync } from 'node:zlib';
import { asc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { expect } from 'vitest';
import { audits, permissions } from '../../../src/db/schema/index.ts';
import type { TestApp } from '../../support/app.ts';
import { formEncode } from '../../support/requests.ts';

export type Json = Record<string, unknown>;

export interface FilePart {
  name: string;
  type?: string;
  data: Buffer;
  field?: string;
}

/** A multipart body as a browser's FormData sends it: bracket keys for nested fields, then the file. */
export async function multipart(fields: Json, files: FilePart[] = []) {
  const form = new FormData();
  for (const [k, v] of new URLSearchParams(formEncode(fields))) form.append(k, v);
  for (const f of files) {
    form.append(
      f.field ?? 'profilePicture',
      new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }),
      f.name,
    );
  }
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await req.arrayBuffer()),
    contentType: req.headers.get('content-type') as string,
  };
}

export async function postMultipart(
  t: TestApp,
  path: string,
  fields: Json,
  files: FilePart[],
  cookie?: string,
): Promise<LightMyRequestResponse> {
  const { payload, contentType } = await multipart(fields, files);
  return t.app.inject({
    method: 'POST',
    url: `/api/${path}`,
    payload,
    headers: { 'content-type': contentType, ...(cookie ? { cookie } : {}) },
  });
}

export const pngImage = (width = 64, height = 48, rgb = { r: 200, g: 40, b: 40 }) =>
  sharp({ create: { width, height, channels: 3, background: rgb } })
    .png()
    .toBuffer();

/** A JPEG carrying EXIF text that must not survive the upload. */
export const jpegWithExif = () =>
  sharp({ create: { width: 80, height: 60, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'SecretCopyrightMarker', Artist: 'SecretArtistMarker' } })
    .toBuffer();

/** Random pixels compress badly: a valid PNG of a few megabytes. */
export function noisyPng(width: number, height: number) {
  const raw = Buffer.alloc(width * height * 3);
  let x = 12345;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    raw[i] = x >> 16;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A tiny file whose header claims a huge image (a decompression bomb's first step). */
export function hugeHeaderPng(width: number, height: number) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function permissionCodes(t: TestApp, ...names: string[]) {
  const rows = await t.handle.db.select().from(permissions);
  return names.map((n) => {
    const hit = rows.find((r) => r.permissionName === n);
    if (!hit) throw new Error(`no permission ${n}`);
    return hit.permissionCode;
  });
}

export const auditsOf = (t: TestApp, collection: string) =>
  t.handle.db.select().from(audits).where(eq(audits.collection, collection)).orderBy(asc(audits.id));

export async function lastAudit(t: TestApp, collection: string) {
  const rows = await auditsOf(t, collection);
  return rows[rows.length - 1]!;
}

/** No password, and nothing that looks like a stored hash, anywhere in a response or record. */
export function expectNoSecrets(value: unknown) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // `passwordChanged: true` records that a password was reset, never what it was.
  expect(text).not.toMatch(/password(?!Changed)/i);
  expect(text).not.toContain('$argon2');
}

export const names = (rows: Json[], key = 'name') => rows.map((r) => r[key]);
