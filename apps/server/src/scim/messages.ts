import type { ZodType, z } from 'zod';
import { invalidValue, SCHEMA, ScimError } from './protocol.ts';

/*
 * The request and answer messages of RFC 7644 the resources share: list paging, ListResponse,
 * PatchOp, and bodies read with a schema.
 */

/** At most this many resources in one page (ServiceProviderConfig says so as `maxResults`). */
export const MAX_PAGE = 200;

export interface Page {
  filter: string | undefined;
  /** 1-based, as SCIM counts. */
  startIndex: number;
  count: number;
}

/** Pure: a list's query (RFC 7644 section 3.4.2.4): `startIndex` below 1 is 1, `count` at most MAX_PAGE. */
export function pageOf(query: Record<string, unknown>): Page {
  const number = (v: unknown, name: string) => {
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n)) throw invalidValue(`${name} must be a whole number`);
    return n;
  };
  const filter = query.filter;
  if (filter !== undefined && typeof filter !== 'string')
    throw new ScimError(400, 'One filter at most', 'invalidFilter');
  return {
    filter: filter === '' ? undefined : filter,
    startIndex: Math.max(1, number(query.startIndex, 'startIndex') ?? 1),
    count: Math.min(MAX_PAGE, Math.max(0, number(query.count, 'count') ?? MAX_PAGE)),
  };
}

export const listResponse = (page: Page, total: number, resources: readonly unknown[]) => ({
  schemas: [SCHEMA.listResponse],
  totalResults: total,
  startIndex: page.startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});

/**
 * Pure: a body read with `schema`; a refusal names the attributes at fault, with the console's
 * field names turned into SCIM's by `names`.
 */
export function parsedInput<S extends ZodType>(
  schema: S,
  value: unknown,
  names: Readonly<Record<string, string>> = {},
): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => {
    const field = i.path.map(String).join('.');
    const name = names[field] ?? field;
    return name ? `${name}: ${i.message}` : i.message;
  });
  throw invalidValue(problems.slice(0, 5).join('; '));
}

export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string | undefined;
  value: unknown;
}

/** Pure: the operations of a PatchOp body; `op` in any case (Microsoft Entra ID sends "Replace"). */
export function patchBody(body: unknown): PatchOperation[] {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const schemas = b.schemas;
  if (!Array.isArray(schemas) || !schemas.includes(SCHEMA.patchOp)) {
    throw new ScimError(400, `A PATCH body names the schema ${SCHEMA.patchOp}`, 'invalidSyntax');
  }
  const ops = b.Operations;
  if (!Array.isArray(ops) || ops.length === 0) {
    throw new ScimError(400, 'A PATCH body holds a list of Operations', 'invalidSyntax');
  }
  return ops.map((raw: unknown) => {
    const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const op = typeof o.op === 'string' ? o.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      throw new ScimError(400, 'Each operation is add, replace or remove', 'invalidSyntax');
    }
    if (o.path !== undefined && (typeof o.path !== 'string' || o.path === '')) {
      throw new ScimError(400, 'An operation’s path is an attribute path', 'invalidPath');
    }
    return { op, path: o.path as string | undefined, value: o.value };
  });
}

/** Pure: a PATCH path without its schema URN, lower-cased outside its quoted values. */
export function pathKey(path: string, schemaUrn: string): string {
  const trimmed = path.trim();
  const prefix = `${schemaUrn.toLowerCase()}:`;
  const rest = trimmed.toLowerCase().startsWith(prefix) ? trimmed.slice(prefix.length) : trimmed;
  // Quoted values keep their case: `members[value eq "USER-AB"]`.
  return rest
    .split('"')
    .map((part, i) => (i % 2 === 0 ? part.toLowerCase() : part))
    .join('"');
}
