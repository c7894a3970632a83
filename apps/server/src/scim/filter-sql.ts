import { and, type Column, eq, gt, gte, isNotNull, lt, lte, ne, not, or, type SQL, sql } from 'drizzle-orm';
import { attributeKey, type CompareOp, type Filter, type FilterValue } from './filter.ts';
import { invalidFilter } from './protocol.ts';

/** How a filterable SCIM attribute reads in SQL. */
export type FilterAttribute =
  | { type: 'string'; column: Column; caseExact: boolean }
  | { type: 'boolean'; column: Column }
  | { type: 'dateTime'; column: Column }
  /** A multi-valued reference (a group's members): only `eq`, by the member's id. */
  | { type: 'reference'; has: (value: string) => SQL; any: SQL };

/** `%`, `_` and `\` as themselves in a LIKE pattern. */
const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function stringCompare(a: Extract<FilterAttribute, { type: 'string' }>, op: CompareOp, value: string): SQL {
  const col = a.caseExact ? sql`${a.column}` : sql`lower(${a.column})`;
  const v = a.caseExact ? value : value.toLowerCase();
  switch (op) {
    case 'eq':
      return sql`${col} = ${v}`;
    case 'ne':
      return sql`(${a.column} is null or ${col} <> ${v})`;
    case 'co':
      return sql`${col} like ${`%${likeEscaped(v)}%`}`;
    case 'sw':
      return sql`${col} like ${`${likeEscaped(v)}%`}`;
    case 'ew':
      return sql`${col} like ${`%${likeEscaped(v)}`}`;
    case 'gt':
      return sql`${col} > ${v}`;
    case 'ge':
      return sql`${col} >= ${v}`;
    case 'lt':
      return sql`${col} < ${v}`;
    case 'le':
      return sql`${col} <= ${v}`;
  }
}

function dateCompare(column: Column, op: CompareOp, value: FilterValue, name: string): SQL {
  const at = typeof value === 'string' ? new Date(value) : undefined;
  if (!at || Number.isNaN(at.getTime())) throw invalidFilter(`${name} is compared with a date and time`);
  const compare = { eq, ne, gt, ge: gte, lt, le: lte } as const;
  if (!(op in compare)) throw invalidFilter(`${name} cannot be compared with ${op}`);
  return compare[op as keyof typeof compare](column, at);
}

function compare(a: FilterAttribute, name: string, op: CompareOp, value: FilterValue): SQL {
  switch (a.type) {
    case 'string':
      if (typeof value !== 'string') throw invalidFilter(`${name} is compared with a string`);
      return stringCompare(a, op, value);
    case 'boolean':
      if (typeof value !== 'boolean' || (op !== 'eq' && op !== 'ne')) {
        throw invalidFilter(`${name} is compared with eq or ne and true or false`);
      }
      return op === 'eq' ? eq(a.column, value) : ne(a.column, value);
    case 'dateTime':
      return dateCompare(a.column, op, value, name);
    case 'reference':
      if (op !== 'eq' || typeof value !== 'string')
        throw invalidFilter(`${name} is compared with eq and an id`);
      return a.has(value);
  }
}

/**
 * Pure: the filter as a condition on the resource's rows; an attribute the resource cannot be
 * filtered by is an `invalidFilter` refusal naming it.
 */
export function filterSql(
  filter: Filter,
  attributes: Readonly<Record<string, FilterAttribute>>,
  schemaUrn: string,
): SQL {
  const attribute = (name: string) => {
    const a = attributes[attributeKey(name, schemaUrn)];
    if (!a) throw invalidFilter(`The filter cannot use ${name}`);
    return a;
  };
  const walk = (f: Filter): SQL => {
    switch (f.kind) {
      case 'and':
        return and(walk(f.left), walk(f.right)) as SQL;
      case 'or':
        return or(walk(f.left), walk(f.right)) as SQL;
      case 'not':
        return not(walk(f.filter));
      case 'present': {
        const a = attribute(f.attribute);
        if (a.type === 'reference') return a.any;
        return a.type === 'string' ? sql`coalesce(${a.column}, '') <> ''` : isNotNull(a.column);
      }
      case 'compare':
        return compare(attribute(f.attribute), f.attribute, f.op, f.value);
    }
  };
  return walk(filter);
}
