import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { shippedMigrations } from '../../../src/db/migrate.ts';
import { MIGRATIONS_DIR } from '../../../src/paths.ts';
import {
  SUMMARY_TRIGGER_FUNCTIONS,
  summaryTriggerMigration,
} from '../../../src/performance/summaries/triggers.ts';

/*
 * The summaries' trigger functions are owned by performance/summaries/triggers.ts; the migrations
 * apply copies. A database has the last definition a migration wrote, so that one must be the
 * source's, word for word: a change made in one place only fails here.
 */

/** A migration's statements (drizzle-kit's breakpoints), without their comment lines. */
async function statementsOf(tag: string): Promise<string[]> {
  const text = await readFile(`${MIGRATIONS_DIR}${tag}.sql`, 'utf8');
  return text.split('--> statement-breakpoint').map((s) =>
    s
      .split('\n')
      .filter((line) => !line.trim().startsWith('--'))
      .join('\n')
      .trim(),
  );
}

/** The last `CREATE [OR REPLACE] FUNCTION "name"` of the shipped migrations, as the source writes it. */
async function lastDefinition(name: string): Promise<string | undefined> {
  let last: string | undefined;
  for (const tag of await shippedMigrations()) {
    for (const statement of await statementsOf(tag)) {
      const header = new RegExp(`^CREATE\\s+(OR\\s+REPLACE\\s+)?FUNCTION\\s+"${name}"\\(`, 'i');
      if (header.test(statement))
        last = statement
          .replace(/^CREATE\s+(OR\s+REPLACE\s+)?FUNCTION/i, 'CREATE OR REPLACE FUNCTION')
          .replace(/;$/, '');
    }
  }
  return last;
}

describe('the summaries trigger SQL', () => {
  it('is, function by function, what the latest migration defining it holds', async () => {
    for (const f of SUMMARY_TRIGGER_FUNCTIONS) expect(await lastDefinition(f.name), f.name).toBe(f.sql);
  });

  it('renders as a migration of one statement per function, replacing each', () => {
    const statements = summaryTriggerMigration().split('--> statement-breakpoint');
    expect(statements).toHaveLength(SUMMARY_TRIGGER_FUNCTIONS.length);
    for (const [i, f] of SUMMARY_TRIGGER_FUNCTIONS.entries()) {
      expect(statements[i]?.trim()).toBe(`${f.sql};`);
      expect(f.sql).toMatch(new RegExp(`^CREATE OR REPLACE FUNCTION "${f.name}"\\(`));
    }
  });
});
