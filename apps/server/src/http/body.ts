import type { FastifyInstance } from 'fastify';
import qs from 'qs';

export const BODY_LIMIT = 1024 * 1024;

/**
 * SPEC.md section 7: forms post nested keys in bracket notation (`address[countryCode]=...`,
 * `rolePermissions[0]=...`). Depth and sizes are bounded; prototype keys are never honoured.
 */
export function parseBracketBody(text: string): Record<string, unknown> {
  return qs.parse(text, {
    depth: 5,
    arrayLimit: 10_000,
    parameterLimit: 50_000,
    allowPrototypes: false,
    plainObjects: true,
    duplicates: 'first',
    strictDepth: true,
  }) as Record<string, unknown>;
}

export function registerBodyParsers(app: FastifyInstance) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_req, body, done) => {
      try {
        done(null, parseBracketBody(body as string));
      } catch {
        const err = Object.assign(new Error('Malformed form body'), { statusCode: 400 });
        done(err, undefined);
      }
    },
  );
}
