import type {
  ImportCounts,
  ImportError,
  ImportFormat,
  ImportMode,
  ImportModule,
  ImportSampleRow,
  ImportStatus,
  PermissionScope,
  ScoreLayout,
} from '@wfc/contract';
import { boolean, index, integer, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea, createdAt, id, updatedAt } from './columns.ts';

/**
 * Imports of a spreadsheet into a module: the state of each, so that one survives a closed browser
 * and a restart. The file itself is kept apart (`import_files`) until the import ends.
 */
export const imports = pgTable(
  'imports',
  {
    id: id(),
    importCode: text('import_code').notNull().unique(),
    module: text('module').$type<ImportModule>().notNull(),
    mode: text('mode').$type<ImportMode>().notNull(),
    fileName: text('file_name').notNull(),
    format: text('format').$type<ImportFormat>().notNull(),
    sheet: text('sheet'),
    sheets: jsonb('sheets').$type<string[]>().notNull().default([]),
    layout: text('layout').$type<ScoreLayout>(),
    status: text('status').$type<ImportStatus>().notNull(),
    columns: jsonb('columns').$type<string[]>().notNull().default([]),
    /** The mapping the client asked for (null: the automatic one), and the one in force. */
    askedMapping: jsonb('asked_mapping').$type<(string | null)[] | Record<string, string | null> | null>(),
    mapping: jsonb('mapping').$type<(string | null)[]>().notNull().default([]),
    counts: jsonb('counts')
      .$type<ImportCounts>()
      .notNull()
      .default({ rows: 0, create: 0, update: 0, unchanged: 0, errors: 0, skipped: 0 }),
    /** Every error found, up to IMPORT_LIMITS.storedErrors, in row order. */
    errors: jsonb('errors').$type<ImportError[]>().notNull().default([]),
    errorCount: integer('error_count').notNull().default(0),
    sample: jsonb('sample').$type<ImportSampleRow[]>().notNull().default([]),
    /**
     * The version of each record the preview planned to update, by code: a commit that finds one
     * changed writes nothing (409). Rows planned to be created are named by natural key.
     */
    plan: jsonb('plan').$type<ImportPlan>(),
    checkedRows: integer('checked_rows').notNull().default(0),
    writtenRows: integer('written_rows').notNull().default(0),
    rowsPerSecond: real('rows_per_second').notNull().default(0),
    skipErrors: boolean('skip_errors').notNull().default(false),
    /** Set by CancelImport; the job stops at its next step and writes nothing. */
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    message: text('message'),
    /**
     * Who runs the current pass and what they hold, as the request that started it had it: a job
     * checks and writes with exactly the rights of the person (or API token) who asked.
     */
    principal: jsonb('principal').$type<ImportPrincipal>(),
    // No foreign key: the history of imports outlives the user who made them.
    createdByCode: text('created_by_code'),
    createdByName: text('created_by_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    committedAt: timestamp('committed_at', { withTimezone: true }),
  },
  (t) => [
    index('imports_created').on(t.createdAt),
    index('imports_module_created').on(t.module, t.createdAt),
  ],
);

/** What a preview planned: updates by record code with the version read, creates by natural key. */
export interface ImportPlan {
  updates: Record<string, number>;
  creates: string[];
}

/** The caller of an import's latest request, as a job needs them. */
export interface ImportPrincipal {
  userCode: string;
  username: string;
  idHash: string;
  permissions: string[];
  scopes: Record<string, PermissionScope>;
}

/** The uploaded file of an import, until it ends. */
export const importFiles = pgTable('import_files', {
  importCode: text('import_code')
    .primaryKey()
    .references(() => imports.importCode, { onDelete: 'cascade' }),
  data: bytea('data').notNull(),
});
