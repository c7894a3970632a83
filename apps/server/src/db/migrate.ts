import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_DIR } from '../paths.ts';
import type { Database, Executor } from './client.ts';
import { rowsOf } from './rows.ts';

/** Any fixed number: every instance takes the same lock, so migrations run once at a time. */
const MIGRATION_LOCK = 727_001;

interface Journal {
  entries: { idx: number; tag: string }[];
}

let shipped: Promise<readonly string[]> | undefined;

/** The migrations this build carries, in journal order: read once. */
export function shippedMigrations(): Promise<readonly string[]> {
  shipped ??= readFile(`${MIGRATIONS_DIR}meta/_journal.json`, 'utf8').then(
    (text) => (JSON.parse(text) as Journal).entries.sort((a, b) => a.idx - b.idx).map((e) => e.tag),
    (err: unknown) => {
      shipped = undefined;
      throw err;
    },
  );
  return shipped;
}

/**
 * The shipped migrations a database has not applied; it throws (42P01) when it was never migrated.
 */
export async function pendingMigrations(db: Executor): Promise<string[]> {
  const done = await rowsOf<{ tag: string }>(db, sql`select tag from schema_migrations`);
  const applied = new Set(done.map((r) => r.tag));
  return (await shippedMigrations()).filter((tag) => !applied.has(tag));
}

export interface MigrateOptions {
  /** Told of each migration as it is applied, with how long it took. */
  onApplied?: (tag: string, ms: number) => void;
}

/**
 * Applies drizzle-kit's generated SQL in journal order, each file once. The whole run holds a
 * transaction-scoped advisory lock, so two instances starting together do not race.
 */
export async function migrate(db: Database, options: MigrateOptions = {}): Promise<string[]> {
  const files = await Promise.all(
    (await shippedMigrations()).map(async (tag) => ({
      tag,
      text: await readFile(`${MIGRATIONS_DIR}${tag}.sql`, 'utf8'),
    })),
  );
  return db.transaction(async (tx) => {
    // A migration may rewrite a large table, and waiting here for another instance's migrations
    // is expected: the server's statement timeout (PG_STATEMENT_TIMEOUT_MS) is for requests.
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.execute(sql`create extension if not exists pg_trgm`);
    await tx.execute(
      sql`create table if not exists schema_migrations (tag text primary key, applied_at timestamptz not null default now())`,
    );
    const done = await rowsOf<{ tag: string }>(tx, sql`select tag from schema_migrations`);
    const applied = new Set(done.map((r) => r.tag));
    const ran: string[] = [];
    for (const file of files) {
      if (applied.has(file.tag)) continue;
      const started = performance.now();
      for (const statement of file.text.split('--> statement-breakpoint')) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`insert into schema_migrations (tag) values (${file.tag})`);
      ran.push(file.tag);
      options.onApplied?.(file.tag, performance.now() - started);
    }
    return ran;
  });
}
