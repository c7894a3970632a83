import { PICTURE_SIZE_MESSAGE, PROFILE_PICTURE_MAX_BYTES } from '@wfc/contract';
import type { FastifyRequest } from 'fastify';
import { assertSafeInput, parseBracketBody } from './body.ts';
import { ApiError } from './envelope.ts';

/** A file of a multipart body, read into memory (pictures are small and checked whole). */
export interface UploadedFile {
  fieldname: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

export const MULTIPART_LIMITS = {
  fileSize: PROFILE_PICTURE_MAX_BYTES,
  files: 1,
  fields: 100,
  fieldSize: 10_000,
  parts: 101,
};

/** What a route's file may be: its size, and the field and message a larger one is refused with. */
export interface UploadLimit {
  bytes: number;
  field: string;
  tooLarge: string;
}

/** A profile's picture: what most multipart routes carry. */
const PICTURE_UPLOAD: UploadLimit = {
  bytes: PROFILE_PICTURE_MAX_BYTES,
  field: 'profilePicture',
  tooLarge: PICTURE_SIZE_MESSAGE,
};

/** Fields keep their bracket keys (`address[countryCode]`), so they nest exactly like a form body. */
export async function readMultipart(req: FastifyRequest, upload: UploadLimit = PICTURE_UPLOAD) {
  const pairs = new URLSearchParams();
  const files: UploadedFile[] = [];
  try {
    for await (const part of req.parts({ limits: { ...MULTIPART_LIMITS, fileSize: upload.bytes } })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        files.push({ fieldname: part.fieldname, filename: part.filename, mimetype: part.mimetype, data });
      } else {
        pairs.append(part.fieldname, String(part.value));
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ApiError(413, upload.tooLarge, [{ field: upload.field, message: upload.tooLarge }]);
    if (code === 'FST_FILES_LIMIT')
      throw new ApiError(400, 'Too many files', [{ field: upload.field, message: 'Too many files' }]);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new ApiError(413, 'Too many form fields');
    throw new ApiError(400, 'Malformed multipart body');
  }
  const fields = parseBracketBody(pairs.toString());
  assertSafeInput(fields);
  return { fields, files };
}
