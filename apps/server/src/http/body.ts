import { setImmediate as yieldToOthers } from 'node:timers/promises';
import type { FieldError } from '@wfc/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
 * docs/product.md section 2: forms post nested keys in bracket notation (`address[countryCode]=...`,
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

interface Problem {
  /** Keys from the problem up to the root: built only on the way back from a problem. */
  path: string[];
  message: string;
  /** A bad key has no field of its own to blame: the body as a whole is at fault. */
  wholeBody?: boolean;
}

const UNSAFE_TEXT = 'Contains characters that are not allowed';

/**
 * Recursion is safe here: it never goes deeper than MAX_INPUT_DEPTH, where it refuses. No path is
 * built unless a problem is found, so the walk costs one visit per node.
 */
function walk(v: unknown, depth: number): Problem | undefined {
  if (typeof v === 'string') return unsafeText(v) ? { path: [], message: UNSAFE_TEXT } : undefined;
  if (v === null || typeof v !== 'object') return undefined;
  if (depth >= MAX_INPUT_DEPTH) return { path: [], message: 'Nested too deeply' };
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = walk(v[i], depth + 1);
      if (p) {
        p.path.push(String(i));
        return p;
      }
    }
    return undefined;
  }
  // A schema's length checks read `length` (`size`) from any value and compare it with a number:
  // an object there that cannot become a primitive (qs's have no prototype; JSON's can hide
  // `toString` behind a key) made them throw, a 500. No form has such a field.
  const { length, size } = v as { length?: unknown; size?: unknown };
  if ((typeof length === 'object' && length !== null) || (typeof size === 'object' && size !== null)) {
    return { path: [], message: 'Invalid value' };
  }
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    if (unsafeText(k)) return { path: [], message: UNSAFE_TEXT, wholeBody: true };
    const p = walk((v as Record<string, unknown>)[k], depth + 1);
    if (p) {
      p.path.push(k);
      return p;
    }
  }
  return undefined;
}

/**
 * The first problem in a parsed input: text the database would refuse or silently alter, or
 * nesting deeper than any form.
 */
export function findUnsafeInput(value: unknown, root = ''): FieldError | undefined {
  const problem = walk(value, 0);
  if (!problem) return undefined;
  if (problem.wholeBody) return { field: '_', message: problem.message };
  const path = [...problem.path].reverse();
  if (root) path.unshift(root);
  return { field: path.join('.') || '_', message: problem.message };
}

export function assertSafeInput(value: unknown, root = '') {
  const problem = findUnsafeInput(value, root);
  if (problem) throw new ApiError(400, 'Invalid input', [problem]);
}

/** Values a JSON body may hold per byte of its route's limit; never fewer than a form's fields. */
export const maxJsonValues = (bodyLimit: number) => Math.max(MAX_PARAMETERS, Math.floor(bodyLimit / 8));

const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** Keys that would reach an object's prototype if any code ever copied them. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Up to this many keys an object's duplicates are found by comparison; beyond, by a set. */
const FEW_KEYS = 16;

const jsonRefusal = (status: number, message: string) =>
  new ApiError(status, message, status === 400 ? [{ field: '_', message }] : undefined);

/**
 * One pass over a JSON text before it is parsed, linear in its length: nesting deeper than any
 * form, more values than its route's limit (413), prototype keys, and duplicate keys, which
 * JSON.parse would resolve silently in favour of the last while forms keep the first; both are
 * refused, so no part of the server can read another value than the one validated. A text that
 * is not JSON at all is left to JSON.parse to refuse.
 */
export function checkJsonText(text: string, maxValues: number): void {
  for (const _pause of scanJson(text, maxValues)) {
    // Run to the end at once.
  }
}

/** Characters scanned between two pauses of a large body's check: a few milliseconds. */
const SCAN_SLICE = 256 * 1024;

/**
 * The check of `checkJsonText`, pausing (yielding) after each slice of text, so that a caller
 * can let other requests run in between.
 */
function* scanJson(text: string, maxValues: number): Generator<void, void, void> {
  // Per open container: where its keys start in `keys`, or -1 for an array.
  const open: number[] = [];
  const sets: (Set<string> | undefined)[] = [];
  const keys: string[] = [];
  let keyCount = 0;
  // Per open container, the key or index being read: the path of a refusal.
  const at: (string | number)[] = [];
  let values = 0;
  let i = 0;
  // The next backslash: strings before it need no escape handling.
  let backslash = text.indexOf('\\');
  const n = text.length;
  let pauseAt = SCAN_SLICE;
  while (i < n) {
    if (i >= pauseAt) {
      yield;
      pauseAt = i + SCAN_SLICE;
    }
    const q = text.indexOf('"', i);
    const end = q === -1 ? n : q;
    for (let j = i; j < end; j++) {
      const c = text.charCodeAt(j);
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (open.length >= MAX_INPUT_DEPTH) {
          throw new ApiError(400, 'Invalid input', [
            { field: at.slice(0, open.length).join('.') || '_', message: 'Nested too deeply' },
          ]);
        }
        at[open.length] = 0;
        open.push(c === OPEN_OBJECT ? keyCount : -1);
        sets.push(undefined);
        if (++values > maxValues) throw jsonRefusal(413, 'Request body has too many values');
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        const start = open.pop();
        sets.pop();
        if (start !== undefined && start >= 0) keyCount = start;
      } else if (c === COMMA) {
        if (++values > maxValues) throw jsonRefusal(413, 'Request body has too many values');
        const top = open.length - 1;
        if (open[top] === -1) at[top] = (at[top] as number) + 1;
      }
    }
    if (q === -1) return;
    if (backslash !== -1 && backslash < q) backslash = text.indexOf('\\', q);
    let close = text.indexOf('"', q + 1);
    if (close === -1) return;
    const escaped = backslash !== -1 && backslash < close;
    while (backslash !== -1 && backslash < close) {
      let b = close - 1;
      while (text.charCodeAt(b) === BACKSLASH) b--;
      // An even run of backslashes escapes itself, not the quote.
      if ((close - 1 - b) % 2 === 0) break;
      close = text.indexOf('"', close + 1);
      if (close === -1) return;
    }
    let next = close + 1;
    while (next < n && isSpace(text.charCodeAt(next))) next++;
    const top = open.length - 1;
    const start = open[top];
    if (next < n && text.charCodeAt(next) === COLON && start !== undefined && start >= 0) {
      let key = text.slice(q + 1, close);
      if (escaped) {
        try {
          key = JSON.parse(`"${key}"`) as string;
        } catch {
          return;
        }
      }
      if (PROTOTYPE_KEYS.has(key)) throw jsonRefusal(400, 'Key not allowed');
      let set = sets[top];
      if (!set && keyCount - start >= FEW_KEYS) {
        set = new Set(keys.slice(start, keyCount));
        sets[top] = set;
      }
      let duplicate = false;
      if (set) duplicate = set.has(key);
      else for (let k = start; k < keyCount && !duplicate; k++) duplicate = keys[k] === key;
      if (duplicate) throw jsonRefusal(400, `Duplicate key: ${key.slice(0, 50)}`);
      set?.add(key);
      // Slots are reused rather than the array shortened: shrinking and regrowing it costs dearly.
      keys[keyCount++] = key;
      at[top] = key;
      i = next + 1;
    } else {
      i = close + 1;
    }
  }
}

/**
 * Only a body with NUL, an escape (which may decode to NUL, half of a surrogate pair or a key) or
 * a `length` or `size` key needs the walk of `assertSafeInput` after parsing.
 */
const SUSPICIOUS = /\\u|"(?:length|size)"/;
const suspicious = (text: string) => text.includes('\u0000') || SUSPICIOUS.test(text);

/** Bodies already checked for unsafe text while they were parsed. */
const checkedBodies = new WeakSet<object>();

const LARGE_BODY = 256 * 1024;

export async function parseJsonBody(text: string, maxValues: number): Promise<unknown> {
  for (const _pause of scanJson(text, maxValues)) await yieldToOthers();
  if (text.length > LARGE_BODY) await yieldToOthers();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw jsonRefusal(400, 'Malformed JSON body');
  }
  if (suspicious(text)) {
    if (text.length > LARGE_BODY) await yieldToOthers();
    assertSafeInput(parsed);
  }
  if (parsed !== null && typeof parsed === 'object') checkedBodies.add(parsed);
  return parsed;
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
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (req: FastifyRequest, body: string | Buffer) =>
      parseJsonBody(String(body), maxJsonValues(req.routeOptions.bodyLimit ?? BODY_LIMIT)),
  );
  app.addHook('preHandler', async (req) => {
    assertSafeInput(req.params);
    assertSafeInput(req.query);
    if (!(req.body !== null && typeof req.body === 'object' && checkedBodies.has(req.body))) {
      assertSafeInput(req.body);
    }
  });
}
