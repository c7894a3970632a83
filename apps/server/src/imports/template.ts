import {
  type ImportField,
  type ImportFormat,
  type ImportModule,
  importFieldsOf,
  LIST_SEPARATOR,
  lookupPermissions,
  naturalKeyOf,
  RESOURCE_BY_KEY,
  type ResourceKey,
  type ScoreLayout,
  scoreImportFields,
  TOTAL_POINTS,
} from '@wfc/contract';
import { and, asc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { ActiveSession } from '../auth/sessions.ts';
import type { Executor } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { skills } from '../db/schema/index.ts';
import { csvFile } from '../http/csv.ts';
import { xlsxFile } from '../http/xlsx.ts';
import { SERVER_RESOURCE_BY_KEY } from '../resources/index.ts';
import { reach } from '../resources/read.ts';
import type { ServerResource } from '../resources/server-resource.ts';

/*
 * A module's import template (docs/product.md, "Import and export"): the headers an import maps
 * by themselves (the form's labels), one example row of values it accepts, and, in XLSX, a second
 * sheet of the values each reference column accepts.
 */

/** Values listed per reference column; a note says how many more there are. */
export const ACCEPTED_VALUES_CAP = 1000;
export const ACCEPTED_SHEET = 'Accepted values';

/** Pure: a password the password rule accepts, for the example row only. */
export const EXAMPLE_PASSWORD = 'change-me-2024';

/** What a template holds, before it is written as CSV or XLSX. */
export interface Template {
  headers: string[];
  example: string[];
  /** One column per reference column: its header and the values it accepts. */
  accepted: { header: string; values: string[] }[];
}

/** A record of a reference's target, as a template uses it. */
interface Target {
  code: string;
  value: string;
  parent: string | null;
}

/** Where a module's natural key is kept: its column, and its parent's (a state's country) if any. */
function keyColumns(res: ServerResource): { value: AnyPgColumn; parent?: AnyPgColumn } {
  const columns = getTableColumns(res.table);
  const key = res.def.import?.key ?? [];
  const value = columns[naturalKeyOf(res.def)];
  if (!value) throw new Error(`${res.def.label}: its natural key is no column`);
  const parent = key.length > 1 && key[0] ? columns[key[0]] : undefined;
  return { value, ...(parent ? { parent } : {}) };
}

/** The caller's view of a reference's target: what its selectors, or its list, let them see. */
function targetWhere(
  res: ServerResource,
  session: ActiveSession,
  permissions?: readonly string[],
): SQL | undefined {
  return reach(res, session, permissions ?? [res.def.permissions.view, ...lookupPermissions(res.def.key)])
    .where;
}

/** Records of a target, in the order of their natural key, within one parent where given. */
async function targets(
  db: Executor,
  res: ServerResource,
  where: SQL | undefined,
  opts: { parentCode?: string; code?: string; limit: number },
): Promise<Target[]> {
  const { value, parent } = keyColumns(res);
  const conditions = and(
    where,
    opts.parentCode !== undefined && parent ? eq(parent, opts.parentCode) : undefined,
    opts.code !== undefined ? eq(res.codeColumn, opts.code) : undefined,
    sql`${value} is not null and ${value} <> ''`,
  );
  return rowsOf<Target>(
    db,
    sql`select ${res.codeColumn} as code, ${value} as value, ${parent ?? sql`null`} as parent
        from ${res.table} where ${conditions} order by ${value}, ${res.codeColumn} limit ${opts.limit}`,
  );
}

/** Pure: the values a text field could show, the first its schema accepts being the example. */
function textCandidates(field: ImportField): string[] {
  const key = field.key.toLowerCase();
  if (key.includes('email')) return ['jane.doe@example.com'];
  if (key.includes('phone')) return ['+4791234567'];
  if (key === 'iso2') return ['XA'];
  if (key === 'iso3') return ['XAA'];
  if (key === 'iso') return ['XA-01'];
  if (key === 'username') return ['jane.doe'];
  if (key === 'employeeid') return ['E-1001'];
  if (/linkedin|twitter|facebook|instagram|url|website/.test(key)) return ['https://example.com/jane.doe'];
  if (key.includes('postal')) return ['0150'];
  return [`Example ${field.label.toLowerCase()}`, 'Example', 'EX1'];
}

/** Pure: the first candidate the create schema accepts for the field, or the first when none does. */
function firstAccepted(schema: unknown, key: string, candidates: readonly string[]): string {
  const field =
    schema instanceof z.ZodObject && !key.includes('.')
      ? new Map(Object.entries(schema.shape)).get(key)
      : undefined;
  if (!(field instanceof z.ZodType)) return candidates[0] ?? '';
  return candidates.find((c) => field.safeParse(c).success) ?? candidates[0] ?? '';
}

const today = () => new Date().toISOString().slice(0, 10);

/** Pure: how deep a field sits in a chain of `within` (a city within its state within its country). */
function depth(field: ImportField, fields: readonly ImportField[]): number {
  const parent = field.within ? fields.find((f) => f.key === field.within) : undefined;
  return parent ? 1 + depth(parent, fields) : 0;
}

/** A registry module's template: the example's references consistent with one another. */
async function registryTemplate(
  db: Executor,
  session: ActiveSession,
  module: ResourceKey,
): Promise<Template> {
  const def = RESOURCE_BY_KEY[module];
  const fields = importFieldsOf(def);
  const chosen = new Map<string, Target[]>();
  const resOf = (f: ImportField) => (f.reference ? SERVER_RESOURCE_BY_KEY.get(f.reference) : undefined);
  // The deepest reference first (a city), then what it lies within (its state, its country).
  const refs = fields.filter((f) => resOf(f)).sort((a, b) => depth(b, fields) - depth(a, fields));
  for (const field of refs) {
    const res = resOf(field);
    if (!res || chosen.has(field.key)) continue;
    const parentChosen = field.within ? chosen.get(field.within)?.[0] : undefined;
    const found = await targets(db, res, targetWhere(res, session), {
      ...(parentChosen ? { parentCode: parentChosen.code } : {}),
      limit: field.kind === 'references' ? 2 : 1,
    });
    chosen.set(field.key, found);
    // Walk up: the record this one lies within is the parent field's example.
    let child = field;
    let record = found[0];
    while (child.within && record?.parent) {
      const parentField = fields.find((f) => f.key === child.within);
      const parentRes = parentField && resOf(parentField);
      if (!parentField || !parentRes || chosen.has(parentField.key)) break;
      const [parent] = await targets(db, parentRes, targetWhere(parentRes, session), {
        code: record.parent,
        limit: 1,
      });
      chosen.set(parentField.key, parent ? [parent] : []);
      child = parentField;
      record = parent;
    }
  }
  const example = fields.map((f) => {
    switch (f.kind) {
      case 'boolean':
        return 'Yes';
      case 'password':
        return EXAMPLE_PASSWORD;
      case 'date':
        return firstAccepted(def.createSchema, f.key, ['1990-05-17', today()]);
      case 'reference':
      case 'references':
        return (chosen.get(f.key) ?? []).map((t) => t.value).join(`${LIST_SEPARATOR} `);
      default:
        return firstAccepted(def.createSchema, f.key, textCandidates(f));
    }
  });
  const accepted = [];
  for (const f of fields) {
    const res = resOf(f);
    if (!res) continue;
    accepted.push({ header: f.label, values: await acceptedValues(db, res, targetWhere(res, session)) });
  }
  return { headers: fields.map((f) => f.label), example, accepted };
}

/** The distinct values a reference column accepts, capped, with a note of how many more there are. */
async function acceptedValues(db: Executor, res: ServerResource, where: SQL | undefined): Promise<string[]> {
  const { value } = keyColumns(res);
  const rows = await rowsOf<{ value: string; total: number | string }>(
    db,
    sql`select value, count(*) over () as total from (
          select distinct ${value} as value from ${res.table}
          where ${and(where, sql`${value} is not null and ${value} <> ''`)}
        ) v order by value limit ${ACCEPTED_VALUES_CAP}`,
  );
  const total = Number(rows[0]?.total ?? 0);
  const values = rows.map((r) => r.value);
  if (total > values.length) values.push(`… and ${(total - values.length).toLocaleString('en')} more`);
  return values;
}

/** The score template: one column per skill (wide) or one row per skill (long). */
async function scoreTemplate(db: Executor, session: ActiveSession, layout: ScoreLayout): Promise<Template> {
  const employees = SERVER_RESOURCE_BY_KEY.get('employee');
  const skillRes = SERVER_RESOURCE_BY_KEY.get('skill');
  if (!employees || !skillRes) throw new Error('No employee or skill resource');
  const skillRows = await db
    .select({ skillCode: skills.skillCode, title: skills.title })
    .from(skills)
    .orderBy(asc(skills.title), asc(skills.skillCode));
  const fields = scoreImportFields(skillRows);
  const label = (key: string) => fields.find((f) => f.key === key)?.label ?? key;
  // The employees the caller may score.
  const scoring = targetWhere(employees, session, ['CREATE_PERFORMANCE']);
  const [employee] = await targets(db, employees, scoring, { limit: 1 });
  const score = String(Math.round(TOTAL_POINTS * 0.7));
  const headers =
    layout === 'wide'
      ? [label('employeeId'), label('date'), ...skillRows.map((s) => s.title)]
      : [label('employeeId'), label('date'), label('skill'), label('score')];
  const example =
    layout === 'wide'
      ? [employee?.value ?? '', today(), ...skillRows.map(() => score)]
      : [employee?.value ?? '', today(), skillRows[0]?.title ?? '', score];
  const accepted = [{ header: label('employeeId'), values: await acceptedValues(db, employees, scoring) }];
  if (layout === 'long') {
    accepted.push({ header: label('skill'), values: await acceptedValues(db, skillRes, undefined) });
  }
  return { headers, example, accepted };
}

/** What a module's template holds for this caller: accepted values are those they may pick from. */
export function buildTemplate(
  db: Executor,
  session: ActiveSession,
  module: ImportModule,
  layout: ScoreLayout,
): Promise<Template> {
  return module === 'performance'
    ? scoreTemplate(db, session, layout)
    : registryTemplate(db, session, module);
}

/** Pure: the accepted values as rows of a sheet, one column per reference column. */
export function acceptedRows(accepted: Template['accepted']): string[][] {
  const height = Math.max(0, ...accepted.map((a) => a.values.length));
  return Array.from({ length: height }, (_, i) => accepted.map((a) => a.values[i] ?? ''));
}

/** The template as a file: CSV (headers and example) or XLSX (and the accepted values' sheet). */
export function templateFile(template: Template, format: ImportFormat, sheetName: string) {
  if (format === 'csv') return csvFile(template.headers, [template.example]);
  return xlsxFile(template.headers, [template.example], {
    sheetName,
    extraSheets: template.accepted.length
      ? [
          {
            name: ACCEPTED_SHEET,
            headers: template.accepted.map((a) => a.header),
            rows: acceptedRows(template.accepted),
          },
        ]
      : [],
  });
}
