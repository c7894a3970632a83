import { PICTURE_TYPE_MESSAGE, PROFILE_PICTURE_MAX_PIXELS } from '@wfc/contract';
import pLimit from 'p-limit';
import sharp, { type FormatEnum } from 'sharp';
import { ApiError } from '../http/envelope.ts';
import type { UploadedFile } from '../http/multipart.ts';
import { API_PREFIX } from '../http/routes.ts';

const FORMATS: Record<string, { extension: string; contentType: string }> = {
  jpeg: { extension: 'jpg', contentType: 'image/jpeg' },
  png: { extension: 'png', contentType: 'image/png' },
  webp: { extension: 'webp', contentType: 'image/webp' },
};

export const THUMBNAIL_SIZE = 256;

export const thumbnailUrl = (profileCode: string, version: number) =>
  `${API_PREFIX}/ProfilePicture/${encodeURIComponent(profileCode)}/thumbnail?v=${version}`;

const fail = (message: string, status = 400) =>
  new ApiError(status, message, [{ field: 'profilePicture', message }]);

export interface ProcessedPicture {
  original: Buffer;
  thumbnail: Buffer;
  contentType: string;
  filename: string;
  extension: string;
}

/**
 * A 40-megapixel picture takes about 160 MB and a core's second to decode: uploads wait their
 * turn rather than all decode at once, which exhausted memory and starved every other request.
 */
export const PICTURE_DECODES_AT_ONCE = 2;
const decodes = pLimit(PICTURE_DECODES_AT_ONCE);

/** Decodes under way now, and the most there have been at once since the process started. */
export const pictureDecodes = {
  get active() {
    return decodes.activeCount;
  },
  peak: 0,
};

/**
 * The type is decided by the bytes (sharp's decoder), never by the name or the declared type.
 * Re-encoding drops metadata and anything appended to the image (polyglots).
 */
export const processPicture = (file: UploadedFile): Promise<ProcessedPicture> =>
  decodes(() => {
    pictureDecodes.peak = Math.max(pictureDecodes.peak, decodes.activeCount);
    return decodePicture(file);
  });

async function decodePicture(file: UploadedFile): Promise<ProcessedPicture> {
  let format: string | undefined;
  let width = 0;
  let height = 0;
  try {
    // Reading the header decodes nothing; without a limit here, a huge image is reported as
    // too large below instead of as an unreadable file.
    const meta = await sharp(file.data, { limitInputPixels: false }).metadata();
    format = meta.format;
    width = meta.width ?? 0;
    height = meta.height ?? 0;
  } catch {
    throw fail(PICTURE_TYPE_MESSAGE);
  }
  const kind = format ? FORMATS[format] : undefined;
  if (!kind || width === 0 || height === 0) throw fail(PICTURE_TYPE_MESSAGE);
  // Refused from the header alone, before anything is decoded (a small file can claim a huge image).
  if (width * height > PROFILE_PICTURE_MAX_PIXELS) {
    throw fail(`Image is too large: at most ${PROFILE_PICTURE_MAX_PIXELS / 1_000_000} megapixels`, 413);
  }
  try {
    const input = sharp(file.data, { limitInputPixels: PROFILE_PICTURE_MAX_PIXELS }).rotate();
    const original = await input
      .clone()
      .resize({ width: 2048, height: 2048, fit: 'inside', withoutEnlargement: true })
      .toFormat(format as keyof FormatEnum)
      .toBuffer();
    const thumbnail = await input
      .clone()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'cover' })
      .webp({ quality: 80 })
      .toBuffer();
    const base =
      (file.filename || 'picture')
        .replace(/\.[^.]*$/, '')
        .replace(/[^\w.-]+/g, '_')
        .slice(0, 80) || 'picture';
    return {
      original,
      thumbnail,
      contentType: kind.contentType,
      filename: `${base}.${kind.extension}`,
      extension: kind.extension,
    };
  } catch {
    throw fail('The image could not be read');
  }
}
