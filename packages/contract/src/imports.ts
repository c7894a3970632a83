import { z } from 'zod';
import { codeRef, formBoolean } from './fields.ts';
import type { ResourceKey } from './permissions.ts';
import type { FormFieldDef, ResourceDef } from './resources/define.ts';
import { RESOURCE_BY_KEY } from './resources/index.ts';
import { text, timestamp } from './resources/record-parts.ts';

/*
 * Importing a company's data from spreadsheets (docs/product.md, "Import and export"): what a file
 * may hold, how its columns map to fields, and what the console answers about an import.
 */

/** The registry modules a file may be imported into, by permission module name, and the scores. */
export const IMPORT_MODULES = [
  'gender',
  'country',
  'state',
  'city',
  'department',
  'skill',
  'employee',
  'user',
  'role',
  'profile',
  'performance',
] as const;
export type ImportModule = (typeof IMPORT_MODULES)[number];
export type RegistryImportModule = Exclude<ImportModule, 'performance'>;

export const isImportModule = (s: string): s is ImportModule =>
  (IMPORT_MODULES as readonly string[]).includes(s);

/** What rows may do: only add records, only change existing ones, or either by natural key. */
export const IMPORT_MODES = ['create', 'update', 'upsert'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];
export const IMPORT_MODE_LABELS: Record<ImportMode, string> = {
  create: 'Create new records only',
  update: 'Update existing records only',
  upsert: 'Create or update',
};

/**
 * `checking` while rows are read and checked, `ready` once the preview stands, `committing` while
 * written; then `committed`, `failed` (nothing written, `message` says why) or `cancelled`.
 */
export const IMPORT_STATUSES = [
  'checking',
  'ready',
  'committing',
  'committed',
  'failed',
  'cancelled',
] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const IMPORT_STATUS_LABELS: Record<ImportStatus, string> = {
  checking: 'Checking',
  ready: 'Ready to import',
  committing: 'Importing',
  committed: 'Imported',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
/** An import in one of these has ended: nothing more happens to it. */
export const IMPORT_ENDED: readonly ImportStatus[] = ['committed', 'failed', 'cancelled'];

/** The score layouts: one column per skill, or one row per skill. */
export const SCORE_LAYOUTS = ['wide', 'long'] as const;
export type ScoreLayout = (typeof SCORE_LAYOUTS)[number];

export const IMPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * Bounds on what a file may hold, so that a crafted one cannot exhaust the server: the upload's
 * bytes, its rows and columns, a cell's characters, and what an XLSX file's zip may inflate to
 * (in all, and as a multiple of its compressed size per entry).
 */
export const IMPORT_LIMITS = {
  maxBytes: 50 * 1024 * 1024,
  maxRows: 100_000,
  maxColumns: 200,
  maxCellChars: 10_000,
  maxInflatedBytes: 400 * 1024 * 1024,
  maxInflateRatio: 200,
  /** Files up to this many rows are checked and committed within the request; larger ones as jobs. */
  inlineRows: 2_000,
  /** Rows of the preview shown as they will be stored. */
  sampleRows: 20,
  /** Errors an answer lists; the error report holds them all. */
  listedErrors: 200,
  /** Errors kept for the report; a file with more is refused at that count. */
  storedErrors: 10_000,
} as const;

export const IMPORT_ENDPOINTS = {
  start: 'StartImport',
  check: 'CheckImport',
  get: 'GetImportByCode',
  commit: 'CommitImport',
  cancel: 'CancelImport',
  list: 'GetImports',
  errors: 'ExportImportErrors',
  template: 'GetImportTemplate',
} as const;

export const IMPORT_MESSAGES = {
  started: 'File checked',
  checking: 'The file is being checked',
  committed: 'Import committed',
  committing: 'The import is being written',
  cancelled: 'Import cancelled',
  listed: 'Imports fetched successfully',
  fetched: 'Import fetched successfully',
  notFound: 'Import not found',
  fileRequired: 'Choose a CSV or XLSX file',
  fileType: 'The file must be a CSV or XLSX file',
  tooLarge: `The file is larger than ${IMPORT_LIMITS.maxBytes / 1024 / 1024} MB`,
  tooManyRows: `The file has more than ${IMPORT_LIMITS.maxRows.toLocaleString('en')} rows`,
  tooManyColumns: `The file has more than ${IMPORT_LIMITS.maxColumns} columns`,
  cellTooLong: `A cell holds more than ${IMPORT_LIMITS.maxCellChars.toLocaleString('en')} characters`,
  inflates: 'The XLSX file unpacks to more than the console accepts',
  unreadable: 'The file cannot be read as a spreadsheet',
  noHeader: 'The file has no header row',
  noRows: 'The file has no rows below its header',
  sheetNotFound: 'The workbook has no sheet of that name',
  notReady: 'Only a checked import that is ready can be committed',
  hasErrors: 'Some rows have errors: fix the file and upload it again, or choose to skip those rows',
  notCancellable: 'This import has ended and can no longer be cancelled',
  stale: 'Records changed since the preview: nothing was imported. Check the file again',
  duplicateKey: 'This row names the same record as an earlier row',
  unmappedKey: 'Map a column to',
  exists: 'already exists (this import only creates records)',
  missing: 'does not exist (this import only updates records)',
  moduleForbidden: 'You may not import into this module',
} as const;

export type ImportFieldKind = 'text' | 'date' | 'boolean' | 'password' | 'reference' | 'references' | 'score';

/**
 * A field a column can be mapped to. `key` is the create body's key (`address.countryCode`); a
 * reference names its record by the target's natural key, found `within` the record another field
 * of the row names (a state's ISO within the row's country); `references` hold several, split by
 * `;`. `aliases` are other headers that mean it (the list's column title, the body key).
 */
export interface ImportField {
  key: string;
  label: string;
  kind: ImportFieldKind;
  required: boolean;
  reference?: ResourceKey;
  within?: string;
  aliases: readonly string[];
}

/** The separator between several references in one cell (a role's permissions). */
export const LIST_SEPARATOR = ';';

const FIELD_KINDS: Partial<Record<FormFieldDef['kind'], ImportFieldKind>> = {
  text: 'text',
  textarea: 'text',
  email: 'text',
  password: 'password',
  date: 'date',
  switch: 'boolean',
  select: 'reference',
  multiselect: 'references',
};

/** Pure: whether the create body must hold `key` (its schema refuses it absent). */
function requiredIn(def: ResourceDef, key: string): boolean {
  const schema = def.createSchema;
  if (!(schema instanceof z.ZodObject) || key.includes('.')) return false;
  const field = new Map(Object.entries(schema.shape)).get(key);
  return field instanceof z.ZodType && !field.safeParse(undefined).success;
}

const importCache = new Map<ResourceKey, readonly ImportField[]>();

/**
 * Pure: the fields an import into `def` offers, in the template's order: those the definition
 * adds, then the form's, as the form labels them. JSON and scope fields are not imported.
 */
export function importFieldsOf(def: ResourceDef): readonly ImportField[] {
  const cached = importCache.get(def.key);
  if (cached) return cached;
  const columns = [...def.columns, ...def.exportColumns];
  const aliasesOf = (paths: readonly (string | undefined)[], label: string) => [
    ...new Set(
      columns
        .filter((c) => paths.includes(c.path))
        .map((c) => c.label)
        .filter((l) => l !== label),
    ),
  ];
  const extra: ImportField[] = (def.import?.fields ?? []).map((f) => ({
    key: f.name,
    label: f.label,
    kind: f.kind === 'switch' ? 'boolean' : f.kind,
    required: requiredIn(def, f.name),
    aliases: [...aliasesOf([f.name], f.label), f.name],
  }));
  const fromForm = def.formFields.flatMap((f): ImportField[] => {
    const kind = FIELD_KINDS[f.kind];
    if (!kind || (f.modes && !f.modes.includes('create') && !f.modes.includes('update'))) return [];
    return [
      {
        key: f.name,
        label: f.label,
        kind,
        required: requiredIn(def, f.name),
        ...(f.source ? { reference: f.source } : {}),
        ...(f.dependsOn ? { within: f.dependsOn.field } : {}),
        aliases: [...aliasesOf([f.name, f.valuePath, f.labelPath], f.label), f.name],
      },
    ];
  });
  const fields = [...extra, ...fromForm.filter((f) => !extra.some((e) => e.key === f.key))];
  importCache.set(def.key, fields);
  return fields;
}

/** The body field whose value a file writes to name a record of `def` (a department's name). */
export function naturalKeyOf(def: ResourceDef): string {
  const key = def.import?.key.at(-1);
  if (!key) throw new Error(`${def.label} has no natural key`);
  return key;
}

/** The score import's fixed fields; each skill adds one, keyed `skill:{skillCode}`, for the wide layout. */
export const SCORE_FIELDS = {
  employeeId: 'employeeId',
  date: 'date',
  skill: 'skill',
  score: 'score',
} as const;
export const skillFieldKey = (skillCode: string) => `skill:${skillCode}`;

/** Pure: the score import's fields, for the skills there are (`title` labels each wide column). */
export function scoreImportFields(skills: readonly { skillCode: string; title: string }[]): ImportField[] {
  return [
    {
      key: 'employeeId',
      label: 'Employee Id',
      kind: 'text',
      required: true,
      reference: 'employee',
      aliases: [],
    },
    { key: 'date', label: 'Date', kind: 'date', required: true, aliases: [] },
    { key: 'skill', label: 'Skill', kind: 'reference', required: false, reference: 'skill', aliases: [] },
    { key: 'score', label: 'Score', kind: 'score', required: false, aliases: ['Points', 'Points Earned'] },
    ...skills.map((s) => ({
      key: skillFieldKey(s.skillCode),
      label: s.title,
      kind: 'score' as const,
      required: false,
      aliases: [],
    })),
  ];
}

/** The registry definition of a module, for those that have one. */
export const importDefOf = (module: RegistryImportModule): ResourceDef => RESOURCE_BY_KEY[module];

/** The permissions importing into a module needs: always to create; to update too unless only creating. */
export function importPermissions(module: ImportModule, mode: ImportMode): string[] {
  if (module === 'performance') return ['CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE'];
  const { create, update } = importDefOf(module).permissions;
  return [create, ...(mode === 'create' ? [] : [update])].filter((p): p is NonNullable<typeof p> =>
    Boolean(p),
  );
}

const fold = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Pure: the field each header means, matched by label, alias or key whatever the case, spaces and
 * punctuation; a header that matches none, or a field already taken by an earlier header, is null.
 */
export function autoMapping(headers: readonly string[], fields: readonly ImportField[]): (string | null)[] {
  const byName = new Map<string, string>();
  for (const f of fields) {
    for (const name of [f.label, ...f.aliases, f.key]) {
      const k = fold(name);
      if (k && !byName.has(k)) byName.set(k, f.key);
    }
  }
  const taken = new Set<string>();
  return headers.map((h) => {
    const key = byName.get(fold(h));
    if (!key || taken.has(key)) return null;
    taken.add(key);
    return key;
  });
}

/** The words for true and false a cell may hold (the lists' Active/Disabled among them). */
const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'on', 'active', 'enabled', 'x']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0', 'off', 'disabled', 'inactive', '']);

/** Pure: a cell as a boolean, undefined when it is neither. */
export function booleanCell(value: string): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (TRUE_WORDS.has(v)) return true;
  if (FALSE_WORDS.has(v)) return false;
  return undefined;
}

/** Day 0 of Excel's serial dates, 1899-12-30 (so that its 1900 leap-year bug cancels out after March 1900). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

const isoOf = (y: number, m: number, d: number): string | undefined => {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return undefined;
  return date.toISOString().slice(0, 10);
};

/**
 * Pure: a cell as an ISO date, or the cell unchanged when it is none (the form's rule then says
 * why). Accepts ISO dates and times (`2024-03-01`, `2024-03-01T00:00:00Z`), `2024/03/01`, and
 * Excel serial numbers (45352), which a spreadsheet writes for a date cell saved as text.
 */
export function dateCell(value: string): string {
  const v = value.trim();
  const iso = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(v);
  if (iso) return isoOf(Number(iso[1]), Number(iso[2]), Number(iso[3])) ?? v;
  if (/^\d{1,6}(?:\.\d+)?$/.test(v)) {
    const serial = Math.floor(Number(v));
    if (serial >= 1 && serial <= 2_958_465) {
      return new Date(EXCEL_EPOCH_MS + serial * DAY_MS).toISOString().slice(0, 10);
    }
  }
  return v;
}

/** Pure: several references in one cell, split by `;` (or by commas where there is no `;`). */
export function listCell(value: string): string[] {
  const sep = value.includes(LIST_SEPARATOR) ? LIST_SEPARATOR : ',';
  return value
    .split(sep)
    .map((s) => s.trim())
    .filter(Boolean);
}

// ---- The API -------------------------------------------------------------------------------

const mappingEntry = z.string().trim().max(100).nullable();

/**
 * A mapping as a client sends it: one field key (or null: ignore) per column, in the file's order,
 * or by header; a multipart body carries it as JSON text.
 */
export const importMappingInput = z
  .union([z.string(), z.array(mappingEntry), z.record(z.string(), mappingEntry)])
  .transform((v, ctx) => {
    if (typeof v !== 'string') return v;
    if (v.trim() === '') return undefined;
    try {
      return z.union([z.array(mappingEntry), z.record(z.string(), mappingEntry)]).parse(JSON.parse(v));
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: 'Mapping must be a list of field keys, or an object by header',
      });
      return z.NEVER;
    }
  })
  .optional();
export type ImportMappingInput = z.output<typeof importMappingInput>;

const moduleField = z
  .string({ error: 'Module is required' })
  .trim()
  .toLowerCase()
  .refine(isImportModule, { message: `Module must be one of ${IMPORT_MODULES.join(', ')}` })
  .transform((s) => s as ImportModule);

const modeField = z
  .enum(IMPORT_MODES, { error: `Mode must be one of ${IMPORT_MODES.join(', ')}` })
  .default('upsert');

const sheetField = z
  .string()
  .trim()
  .max(100)
  .optional()
  .transform((v) => v || undefined);

/** `StartImport`'s fields beside its file (multipart). */
export const startImportSchema = z.object({
  module: moduleField,
  mode: modeField,
  mapping: importMappingInput,
  sheet: sheetField,
});
export type StartImportInput = z.output<typeof startImportSchema>;

export const importCodeSchema = z.object({ importCode: codeRef('Import code') });

/** `CheckImport`: the stored file checked again with another mapping, mode or sheet. */
export const checkImportSchema = importCodeSchema.extend({
  mode: modeField.optional(),
  mapping: importMappingInput,
  sheet: sheetField,
});
export type CheckImportInput = z.output<typeof checkImportSchema>;

/** `CommitImport`: `skipErrors` writes the rows without errors and leaves the others out, on purpose. */
export const commitImportSchema = importCodeSchema.extend({ skipErrors: formBoolean });

export const importTemplateQuerySchema = z.object({
  module: moduleField,
  format: z.enum(IMPORT_FORMATS).default('csv'),
  /** Scores: one column per skill, or one row per skill. */
  layout: z.enum(SCORE_LAYOUTS).default('wide'),
});

export const exportFormatQuery = z.enum(IMPORT_FORMATS).default('csv');

export const importsQuerySchema = z.object({
  module: moduleField.optional(),
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const IMPORT_ROW_ACTIONS = ['create', 'update', 'unchanged', 'error'] as const;
export type ImportRowAction = (typeof IMPORT_ROW_ACTIONS)[number];

export const importErrorSchema = z.strictObject({
  /** The row as the spreadsheet numbers it: the header is row 1. */
  row: z.number().int(),
  /** The column's header, or null for the row as a whole. */
  column: z.string().nullable(),
  message: z.string(),
});
export type ImportError = z.output<typeof importErrorSchema>;

export const importCountsSchema = z.strictObject({
  rows: z.number().int(),
  create: z.number().int(),
  update: z.number().int(),
  unchanged: z.number().int(),
  /** Rows with at least one error. */
  errors: z.number().int(),
  /** Rows with errors left out of a commit that skipped them. */
  skipped: z.number().int(),
});
export type ImportCounts = z.output<typeof importCountsSchema>;

export const importProgressSchema = z.strictObject({
  checked: z.number().int(),
  written: z.number().int(),
  rowsPerSecond: z.number(),
});
export type ImportProgress = z.output<typeof importProgressSchema>;

export const importFieldSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  kind: z.enum(['text', 'date', 'boolean', 'password', 'reference', 'references', 'score']),
  required: z.boolean(),
  reference: z.string().optional(),
  within: z.string().optional(),
  aliases: z.array(z.string()),
});

export const importSampleRowSchema = z.strictObject({
  row: z.number().int(),
  action: z.enum(IMPORT_ROW_ACTIONS),
  /** The values as they will be stored, by field key, as text. */
  values: z.record(z.string(), z.string()),
});
export type ImportSampleRow = z.output<typeof importSampleRowSchema>;

export const importRecordSchema = z.strictObject({
  importCode: text,
  module: z.enum(IMPORT_MODULES),
  mode: z.enum(IMPORT_MODES),
  fileName: text,
  format: z.enum(IMPORT_FORMATS),
  /** The sheet read (XLSX), and every sheet the workbook has. */
  sheet: text.nullable(),
  sheets: z.array(text),
  /** Scores only: how the file lays them out, as told by its headers. */
  layout: z.enum(SCORE_LAYOUTS).nullable(),
  status: z.enum(IMPORT_STATUSES),
  /** The file's headers, and the field each is mapped to (null: ignored), in the same order. */
  columns: z.array(text),
  mapping: z.array(z.string().nullable()),
  fields: z.array(importFieldSchema),
  counts: importCountsSchema,
  /** The first errors, by row; `ExportImportErrors` gives all of them. */
  errors: z.array(importErrorSchema),
  errorCount: z.number().int(),
  sample: z.array(importSampleRowSchema),
  progress: importProgressSchema,
  skipErrors: z.boolean(),
  /** Why it failed, or what stopped it. */
  message: text.nullable(),
  createdBy: z.strictObject({ userCode: z.string().nullable(), username: z.string().nullable() }),
  createdAt: timestamp,
  updatedAt: timestamp,
  committedAt: timestamp.nullable(),
});
export type ImportRecord = z.output<typeof importRecordSchema>;

/** An import as the Imports screen lists it: without its preview. */
export const importListItemSchema = importRecordSchema.omit({ fields: true, errors: true, sample: true });
export type ImportListItem = z.output<typeof importListItemSchema>;
