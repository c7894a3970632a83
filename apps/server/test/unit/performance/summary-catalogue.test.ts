import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as performanceSchema from '../../../src/db/schema/performance.ts';
import { type ColumnType, SUMMARY_TABLES } from '../../../src/performance/summaries/declarations.ts';

/*
 * The rebuild empties and recomputes the tables of the summary catalogue: a summary table left
 * out of it would keep stale rows after a rebuild, and a column declared with another type than
 * the schema's would be cast wrongly by the upserts that add to it.
 */

/** Every table of the performance schema but the scores themselves: those the catalogue must hold. */
const exported: unknown[] = Object.values(performanceSchema);
const summaryTables = exported
  .filter((value): value is PgTable => is(value, PgTable))
  .filter((table) => {
    const name = getTableName(table);
    return name.startsWith('performance_') && name !== 'performance_scores';
  });

/** How the schema's SQL type of a column starts, for each type the declarations use. */
const SQL_TYPE: Record<ColumnType, string> = {
  text: 'text',
  date: 'date',
  bigint: 'bigint',
  smallint: 'smallint',
  int: 'integer',
  numeric: 'numeric',
};

describe('the summary catalogue', () => {
  it('lists every summary table of the schema, once', () => {
    const listed = SUMMARY_TABLES.map((s) => s.table);
    expect(new Set(listed).size).toBe(listed.length);
    expect(summaryTables.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual(summaryTables.map((t) => getTableName(t)).sort());
  });

  it.each(summaryTables.map((t) => [getTableName(t), t] as const))(
    "declares each column of %s, keys and measures, with the schema's type",
    (name, table) => {
      const summary = SUMMARY_TABLES.find((s) => s.table === name);
      const declared = new Map([...(summary?.keys ?? []), ...(summary?.measures ?? [])]);
      const schema = new Map(Object.values(getTableColumns(table)).map((c) => [c.name, c.getSQLType()]));
      expect([...declared.keys()].sort()).toEqual([...schema.keys()].sort());
      for (const [column, type] of declared) {
        expect(schema.get(column), column).toMatch(new RegExp(`^${SQL_TYPE[type]}\\b`));
      }
    },
  );
});
