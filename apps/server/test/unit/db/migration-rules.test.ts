import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { shippedMigrations } from '../../../src/db/migrate.ts';
import { MIGRATIONS_DIR } from '../../../src/paths.ts';
import { PREVIOUS_RELEASE } from '../../support/previous-release.ts';

/*
 * Migrations expand, then contract (docs/operations.md, "Upgrading"): a migration may add what the
 * new release needs, never take away or change what the previous release still reads and writes,
 * since an instance of it keeps serving on the migrated database until it is replaced. The
 * rolling-upgrade test proves it end to end on PostgreSQL; this reads every new migration.
 */

const BREAKING: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /\bRENAME\b/i, why: 'renames what the previous release names' },
  { pattern: /\bDROP\s+(COLUMN|TABLE)\b/i, why: 'drops what the previous release may read' },
  { pattern: /\bALTER\s+COLUMN\s+"?\w+"?\s+(SET\s+DATA\s+)?TYPE\b/i, why: "changes a column's type" },
  { pattern: /\bALTER\s+COLUMN\s+"?\w+"?\s+SET\s+NOT\s+NULL\b/i, why: 'makes an optional column required' },
  {
    pattern: /\bADD\s+COLUMN\s+(?:(?!\bDEFAULT\b)[^;,])*\bNOT\s+NULL\b(?:(?!\bDEFAULT\b)[^;,])*(;|,|$)/i,
    why: 'adds a required column without a default, which the previous release does not fill',
  },
];

/** Marks a statement as the contract phase: what it removes, no release still running uses. */
const CONTRACT_MARK = '-- contract:';

/** The statements of a migration (drizzle-kit's breakpoints) the previous release cannot run beside. */
function expandOnlyViolations(sql: string): { statement: string; why: string }[] {
  return sql
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter((s) => s && !s.includes(CONTRACT_MARK))
    .flatMap((statement) => {
      const code = statement
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n');
      const broken = BREAKING.find((b) => b.pattern.test(code));
      return broken ? [{ statement: statement.slice(0, 200), why: broken.why }] : [];
    });
}

describe('expandOnlyViolations', () => {
  it.each([
    'CREATE TABLE "t" ("a" text NOT NULL);',
    'ALTER TABLE "users" ADD COLUMN "sso_linking" text DEFAULT \'role\' NOT NULL;',
    'ALTER TABLE "users" ADD COLUMN "x" text NOT NULL DEFAULT \'\';',
    'ALTER TABLE "users" ADD COLUMN "note" text;',
    'CREATE INDEX "i" ON "t" USING btree ("a");',
    '-- contract: 2.0.0 no longer reads it\nALTER TABLE "t" DROP COLUMN "old";',
  ])('lets the previous release run beside: %s', (sql) => {
    expect(expandOnlyViolations(sql)).toEqual([]);
  });

  it.each([
    ['ALTER TABLE "sessions" ADD COLUMN "session_code" text NOT NULL;', 'without a default'],
    ['ALTER TABLE "sessions" ALTER COLUMN "session_code" SET NOT NULL;', 'required'],
    ['ALTER TABLE "t" RENAME COLUMN "a" TO "b";', 'renames'],
    ['ALTER TABLE "t" DROP COLUMN "a";', 'drops'],
    ['DROP TABLE "t";', 'drops'],
    ['ALTER TABLE "t" ALTER COLUMN "a" SET DATA TYPE integer;', 'type'],
    ['ALTER TABLE "t" ADD COLUMN "a" text NOT NULL, ADD COLUMN "b" text DEFAULT 1;', 'without a default'],
  ])('refuses %s', (sql, why) => {
    const [violation] = expandOnlyViolations(`CREATE TABLE "x" ("a" text);--> statement-breakpoint\n${sql}`);
    expect(violation?.why).toContain(why);
  });
});

describe('migrations after the previous release', () => {
  it('only expand, or say why they may contract', async () => {
    const tags = await shippedMigrations();
    const since = tags.indexOf(PREVIOUS_RELEASE.lastMigration);
    expect(since, `${PREVIOUS_RELEASE.lastMigration} is shipped`).toBeGreaterThanOrEqual(0);
    const found: string[] = [];
    for (const tag of tags.slice(since + 1)) {
      const sql = await readFile(`${MIGRATIONS_DIR}${tag}.sql`, 'utf8');
      for (const v of expandOnlyViolations(sql)) found.push(`${tag}: ${v.why}: ${v.statement}`);
    }
    expect(found).toEqual([]);
  });
});
