import type { FieldError } from '@wfc/contract';
import type { FastifyInstance } from 'fastify';
import qs from 'qs';
import { ApiError } from './envelope.ts';

export const BODY_LIMIT = 1024 * 1024;

/** Deeper than any request the console makes (a performance row's scores sit at depth 4). */
export const MAX_INPUT_DEPTH = 8;

const malformed = () => Object.assign(new Error('Malformed form body'), { statusCode: 400 });

/**
 * Browsers percent-encode every byte they send, so an escape that does not decode to valid UTF-8
 * (a stray '%', a truncated sequence, an encoded lone surrogate) is a broken or hostile client.
 * The default decoder would keep such text verbatim and store it.
 */
function strictDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw malformed();
  }
}

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
    decoder: strictDecode,
  }) as Record<string, unknown>;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** NUL, which PostgreSQL text cannot hold, and UTF-16 halves without their partner. */
const unsafeText = (s: string) => s.includes('\u0000') || LONE_SURROGATE.test(s);

/**
 * The first problem in a parsed input: text the database would refuse or silently alter, or
 * nesting deeper than any form. Iterative, so a hostile JSON body cannot exhaust the stack.
 */
export function findUnsafeInput(value: unknown, root = ''): FieldError | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (unsafeText(v)) return { field: path || '_', message: 'Contains characters that are not allowed' };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return { field: path || '_', message: 'Nested too deeply' };
    for (const [k, child] of Object.entries(v)) {
      const childPath = path ? `${path}.${k}` : k;
      if (unsafeText(k)) return { field: '_', message: 'Contains characters that are not allowed' };
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return undefined;
}

export function assertSafeInput(value: unknown, root = '') {
  const problem = findUnsafeInput(value, root);
  if (problem) throw new ApiError(400, 'Invalid input', [problem]);
}

export function registerBodyParsers(app: FastifyInstance) {
  // Plain text is not a body the API understands, and is one a cross-site form may send.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_req, body, done) => {
      try {
        done(null, parseBracketBody(body as string));
      } catch {
        done(malformed(), undefined);
      }
    },
  );
  app.addHook('preHandler', async (req) => {
    assertSafeInput(req.params);
    assertSafeInput(req.query);
    assertSafeInput(req.body);
  });
}
