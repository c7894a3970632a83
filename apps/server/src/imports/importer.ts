import type {
  ImportCounts,
  ImportError,
  ImportField,
  ImportMode,
  ImportModule,
  ImportSampleRow,
  ScoreLayout,
} from '@wfc/contract';
import type { AuditActor } from '../audit/recorder.ts';
import type { ActiveSession } from '../auth/sessions.ts';
import type { Executor } from '../db/client.ts';
import type { ImportPlan } from '../db/schema/index.ts';
import type { Services } from '../services.ts';
import type { OpenedSheet } from './files/sheet.ts';

/**
 * One pass over an import's file: checking it (the preview) or writing it (the commit). The
 * session is the importer's, as it stands when the pass runs (a job rebuilds it from their role).
 */
export interface ImportRun {
  services: Services;
  session: ActiveSession;
  actor: AuditActor;
  importCode: string;
  module: ImportModule;
  mode: ImportMode;
  /** The file, opened at the chosen sheet; `rows()` may be iterated once per pass. */
  sheet: OpenedSheet;
  /** The field key each column is mapped to (null: ignored), by column index. */
  mapping: readonly (string | null)[];
  fields: readonly ImportField[];
  /** Rows with errors are left out of a commit instead of refusing it. */
  skipErrors: boolean;
  /**
   * Reports rows checked or written so far; the caller stores it now and then. Throws
   * `ImportCancelled` once the import was cancelled, so a pass stops at its next step.
   */
  progress(step: { checked?: number; written?: number }): Promise<void>;
}

/** What a check found: nothing is written by it. */
export interface CheckOutcome {
  counts: ImportCounts;
  /** In row order, at most IMPORT_LIMITS.storedErrors of them; `errorCount` counts all. */
  errors: ImportError[];
  errorCount: number;
  sample: ImportSampleRow[];
  plan: ImportPlan;
  /** Scores: the layout the headers tell. */
  layout?: ScoreLayout;
}

/** What a commit wrote, and what it left out. */
export interface CommitOutcome {
  counts: ImportCounts;
}

/** How one module's rows are read, checked and written; registry modules share one (engine/). */
export interface ModuleImporter {
  /** The fields a column may be mapped to (the scores' depend on the skills there are). */
  fields(db: Executor): Promise<readonly ImportField[]>;
  /** Reads every row and checks it by the module's rules; writes nothing. */
  check(run: ImportRun): Promise<CheckOutcome>;
  /**
   * Writes every row in `tx`, by the same rules, or none: a row with errors refuses the whole
   * (400, naming the rows) unless `run.skipErrors`; a record changed since `plan` was made refuses
   * it (409, naming the rows). Per-record audit entries are written as usual; the caller writes
   * the IMPORT entry.
   */
  commit(run: ImportRun, tx: Executor, plan: ImportPlan): Promise<CommitOutcome>;
}

/** Thrown by `ImportRun.progress` once the import was cancelled. */
export class ImportCancelled extends Error {
  constructor() {
    super('The import was cancelled');
  }
}
