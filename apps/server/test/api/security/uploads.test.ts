import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { profilePictures, profiles } from '../../../src/db/schema/index.ts';
import { PICTURE_DECODES_AT_ONCE, pictureDecodes } from '../../../src/resources/pictures.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectEnvelope } from '../../support/envelope.ts';
import { hugeHeaderPng } from '../registry/support.ts';
import { multipartBody } from './helpers.ts';

/**
 * Attacks on the profile picture upload. The normal profile flow (types by bytes, EXIF removal,
 * picture replacement) is tested with the registry; this file tries to get hostile bytes stored
 * or served, or to make the server spend unbounded work.
 */
const t = sharedTestApp();
let admin: string;
let genderCode: string;
let png: Buffer;
const TYPE_MESSAGE = 'File type must be jpg, jpeg, png or webp';

beforeAll(async () => {
  admin = await t.login();
  genderCode = (await t.post('CreateGender', { genderName: 'Upload' }, admin)).json().data.genderCode;
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 1, g: 2, b: 3 } } })
    .png()
    .toBuffer();
});

async function upload(
  file: { filename: string; type: string; data: Buffer; name?: string } | undefined,
  extra: Record<string, string> = {},
) {
  const { userCode } = await t.userWith([], { signIn: 'session' });
  const { payload, contentType } = multipartBody(
    { firstName: 'Eve', lastName: 'Upload', genderCode, dob: '1990-01-01', userCode, ...extra },
    file,
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/CreateProfile',
    payload,
    headers: { 'content-type': contentType, cookie: admin },
  });
  return { res, userCode };
}

const storedFor = async (userCode: string) => {
  const [p] = await t.handle.db.select().from(profiles).where(eq(profiles.userCode, userCode));
  if (!p) return undefined;
  const [pic] = await t.handle.db
    .select()
    .from(profilePictures)
    .where(eq(profilePictures.profileCode, p.profileCode));
  return { profile: p, pic };
};

/** A JPEG with a comment segment (FF FE) right after its start marker. */
function jpegWithComment(jpeg: Buffer, comment: string) {
  const text = Buffer.from(comment);
  const seg = Buffer.alloc(4);
  seg.writeUInt16BE(0xfffe, 0);
  seg.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), seg, text, jpeg.subarray(2)]);
}

const SCRIPT = '<html><body><script>alert(document.cookie)</script></body></html>';
const ZIP = Buffer.from('504b0304140000000800', 'hex');

describe('polyglots are stored only as re-encoded images', () => {
  it('a PNG with HTML and a ZIP appended: accepted as a PNG, stored and served without either', async () => {
    const polyglot = Buffer.concat([png, Buffer.from(SCRIPT), ZIP, Buffer.from('evil.js')]);
    const { res, userCode } = await upload({ filename: 'avatar.png', type: 'image/png', data: polyglot });
    expectEnvelope(res, 200);
    const { pic, profile } = (await storedFor(userCode))!;
    expect(pic!.contentType).toBe('image/png');
    expect(Buffer.compare(pic!.original, polyglot)).not.toBe(0);
    for (const stored of [pic!.original, pic!.thumbnail]) {
      expect(stored.includes(Buffer.from('<script'))).toBe(false);
      expect(stored.includes(ZIP.subarray(0, 4))).toBe(false);
    }
    const served = await t.get(`ProfilePicture/${profile.profileCode}/original`, admin);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.includes(Buffer.from('<script'))).toBe(false);
    expect((await sharp(served.rawPayload).metadata()).format).toBe('png');
  });

  it('a JPEG carrying a script in a comment segment: the comment is gone', async () => {
    const jpeg = await sharp({
      create: { width: 32, height: 32, channels: 3, background: { r: 9, g: 9, b: 9 } },
    })
      .jpeg()
      .toBuffer();
    const data = jpegWithComment(jpeg, SCRIPT);
    expect((await sharp(data).metadata()).format).toBe('jpeg');
    const { res, userCode } = await upload({ filename: 'me.jpg', type: 'image/jpeg', data });
    expectEnvelope(res, 200);
    const { pic } = (await storedFor(userCode))!;
    expect(pic!.original.includes(Buffer.from('<script'))).toBe(false);
    expect(pic!.extension).toBe('jpg');
  });

  it('the file name cannot inject a path or a header', async () => {
    const { res, userCode } = await upload({
      filename: '../../etc/"x\r\nSet-Cookie: a=b".png',
      type: 'image/png',
      data: png,
    });
    expectEnvelope(res, 200);
    const { pic, profile } = (await storedFor(userCode))!;
    expect(pic!.filename).toMatch(/^[\w.-]+\.png$/);
    expect(pic!.filename).not.toContain('/');
    const served = await t.get(`ProfilePicture/${profile.profileCode}/original`, admin);
    expect(served.headers['set-cookie']).toBeUndefined();
    expect(String(served.headers['content-disposition'])).toMatch(/^inline; filename="[\w.-]+"$/);
  });
});

describe('files that are not pictures are refused, whatever they claim', () => {
  const cases: [string, () => Buffer, string, string][] = [
    ['HTML named .png', () => Buffer.from(SCRIPT), 'avatar.png', 'image/png'],
    [
      'SVG with a script',
      () =>
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>`,
        ),
      'a.png',
      'image/png',
    ],
    [
      'GIF/JavaScript polyglot',
      () => Buffer.from('GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=alert(1)//;'),
      'a.gif',
      'image/gif',
    ],
    [
      'PNG magic then garbage',
      () => Buffer.concat([png.subarray(0, 8), Buffer.from('garbage'.repeat(20))]),
      'a.png',
      'image/png',
    ],
    [
      'JPEG magic then garbage',
      () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('garbage'.repeat(20))]),
      'a.jpg',
      'image/jpeg',
    ],
    [
      'JPEG magic on PNG bytes',
      () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), png.subarray(4)]),
      'a.jpg',
      'image/jpeg',
    ],
    ['a ZIP archive', () => Buffer.concat([ZIP, Buffer.alloc(200)]), 'a.png', 'image/png'],
    ['a PDF', () => Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF'), 'a.png', 'image/png'],
    ['an empty file', () => Buffer.alloc(0), 'a.png', 'image/png'],
  ];
  for (const [name, bytes, filename, type] of cases) {
    it(name, async () => {
      const data = bytes();
      const { res, userCode } = await upload({ filename, type, data });
      const body = expectEnvelope(res, 400);
      expect(body.errors?.[0]?.field).toBe('profilePicture');
      if (data.length > 0) expect([TYPE_MESSAGE, 'The image could not be read']).toContain(body.message);
      expect(await storedFor(userCode)).toBeUndefined();
    });
  }
});

describe('images too large to decode safely are refused from their header', () => {
  it('a PNG header claiming 100000 × 100000: 413 at once, nothing decoded or stored', async () => {
    const started = Date.now();
    const { res, userCode } = await upload({
      filename: 'bomb.png',
      type: 'image/png',
      data: hugeHeaderPng(100_000, 100_000),
    });
    expect(expectEnvelope(res, 413).errors?.[0]?.field).toBe('profilePicture');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await storedFor(userCode)).toBeUndefined();
  });

  it('a real, highly compressible 7000 × 7000 PNG (a decompression bomb): 413', async () => {
    const bomb = await sharp({
      create: { width: 7000, height: 7000, channels: 3, background: { r: 0, g: 0, b: 0 } },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const { res, userCode } = await upload({ filename: 'bomb.png', type: 'image/png', data: bomb });
    expectEnvelope(res, 413);
    expect(await storedFor(userCode)).toBeUndefined();
  });

  it('ten 40-megapixel pictures sent at once are decoded a few at a time, and all are stored', async () => {
    const big = await sharp({
      create: { width: 6320, height: 6320, channels: 3, background: { r: 20, g: 150, b: 70 } },
    })
      .png({ compressionLevel: 1 })
      .toBuffer();
    pictureDecodes.peak = 0;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => upload({ filename: 'big.png', type: 'image/png', data: big })),
    );
    for (const { res } of results) expectEnvelope(res, 200);
    expect(pictureDecodes.peak).toBeGreaterThanOrEqual(1);
    expect(pictureDecodes.peak).toBeLessThanOrEqual(PICTURE_DECODES_AT_ONCE);
    expect(pictureDecodes.active).toBe(0);
  });

  it('a header claiming 0 × 0 or absurd sizes: 400', async () => {
    for (const [w, h] of [
      [0, 0],
      [1, 0],
      [0x7fffffff, 1],
    ] as const) {
      const { res } = await upload({ filename: 'odd.png', type: 'image/png', data: hugeHeaderPng(w, h) });
      expect([400, 413], `${w}x${h}`).toContain(res.statusCode);
      expectEnvelope(res);
    }
  });
});

describe('oversize and malformed multipart bodies', () => {
  it('a file over 5 MB: 413, nothing stored', async () => {
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1)]);
    const { res, userCode } = await upload({ filename: 'big.png', type: 'image/png', data: big });
    expectEnvelope(res, 413);
    expect(await storedFor(userCode)).toBeUndefined();
  });

  it('two files: 400; too many fields: 413', async () => {
    const { userCode } = await t.userWith([], { signIn: 'session' });
    const one = multipartBody(
      { firstName: 'A', lastName: 'B', genderCode, dob: '1990-01-01', userCode },
      { filename: 'a.png', type: 'image/png', data: png },
    );
    const boundary = one.contentType.split('boundary=')[1];
    const second = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="profilePicture"; filename="b.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const twoFiles = Buffer.concat([second, png, Buffer.from('\r\n'), one.payload]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/CreateProfile',
      payload: twoFiles,
      headers: { 'content-type': one.contentType, cookie: admin },
    });
    expect(expectEnvelope(res, 400).message).toBe('Too many files');

    const fields = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`f${i}`, 'x']));
    const many = multipartBody(fields);
    const res2 = await t.app.inject({
      method: 'POST',
      url: '/api/CreateProfile',
      payload: many.payload,
      headers: { 'content-type': many.contentType, cookie: admin },
    });
    expectEnvelope(res2, 413);
    expect(await storedFor(userCode)).toBeUndefined();
  });

  it('fields nested beyond the limit, NUL, or a truncated body: 400', async () => {
    const deep = await upload(
      { filename: 'a.png', type: 'image/png', data: png },
      { 'firstName[a][b][c][d][e][f][g]': 'x' },
    );
    expectEnvelope(deep.res, 400);
    const nul = await upload({ filename: 'a.png', type: 'image/png', data: png }, { lastName: 'a\u0000b' });
    expect(expectEnvelope(nul.res, 400).errors?.[0]?.field).toBe('lastName');
    const { payload, contentType } = multipartBody(
      { firstName: 'A' },
      { filename: 'a.png', type: 'image/png', data: png },
    );
    const truncated = await t.app.inject({
      method: 'POST',
      url: '/api/CreateProfile',
      payload: payload.subarray(0, payload.length - 30),
      headers: { 'content-type': contentType, cookie: admin },
    });
    expect(truncated.statusCode).toBeGreaterThanOrEqual(400);
    expect(truncated.statusCode).toBeLessThan(500);
    expectEnvelope(truncated);
  });
});
