import type { FieldError } from '@wfc/contract';
import type { FastifyInstance } from 'fastify';
import qs from 'qs';
import { ApiError } from './envelope.ts';

export const BODY_LIMIT = 1024 * 1024;

/** Deeper than any request the console makes (a performance row's scores sit at depth 4). */
export const MAX_INPUT_DEPTH = 8;

/** More than any form sends: a role's permissions, a page of performance rows with their scores. */
export const MAX_PARAMETERS = 50_000;
export const MAX_ARRAY_ITEMS = 10_000;

const malformed = () => Object.assign(new Error('Malformed form body'), { statusCode: 400 });
const tooMany = () => Object.assign(new Error('Too many form fields'), { statusCode: 413 });

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

const INDEX = /^(0|[1-9]\d{0,8})$/;

/**
 * qs builds `a[5000]=x` as a sparse array of length 5001 and merges such arrays in time that grows
 * with the square of their length: 10,000 indexed keys (100 KB) blocked the event loop for seconds,
 * before any session check. So qs keeps indexes as object keys, and this pass turns objects whose
 * keys are all indexes into arrays in index order, as qs itself would, in linear time.
 */
function arraysFromIndexes(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  for (const k of keys) obj[k] = arraysFromIndexes(obj[k]);
  if (keys.length === 0 || !keys.every((k) => INDEX.test(k))) return obj;
  if (keys.length > MAX_ARRAY_ITEMS) throw tooMany();
  return keys
    .map(Number)
    .sort((a, b) => a - b)
    .map((i) => obj[i]);
}

/**
 * SPEC.md section 7: forms post nested keys in bracket notation (`address[countryCode]=...`,
 * `rolePermissions[0]=...`). Depth, parameter count and array length are bounded; prototype keys
 * are never honoured.
 */
export function parseBracketBody(text: string): Record<string, unknown> {
  let pairs = 1;
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) {
    if (++pairs > MAX_PARAMETERS) throw tooMany();
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = qs.parse(text, {
      depth: 5,
      arrayLimit: -1,
      parameterLimit: MAX_PARAMETERS,
      allowPrototypes: false,
      plainObjects: true,
      duplicates: 'first',
      strictDepth: true,
      decoder: strictDecode,
    }) as Record<string, unknown>;
  } catch (err) {
    // Nesting beyond the depth limit: the caller answers 400 rather than crash on a bare RangeError.
    throw (err as { statusCode?: number }).statusCode ? err : malformed();
  }
  for (const k of Object.keys(parsed)) parsed[k] = arraysFromIndexes(parsed[k]);
  return parsed;
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
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );
  app.addHook('preHandler', async (req) => {
    assertSafeInput(req.params);
    assertSafeInput(req.query);
    assertSafeInput(req.body);
  });
}
