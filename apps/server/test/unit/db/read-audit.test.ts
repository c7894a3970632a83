import { describe, expect, it } from 'vitest';
import { costliestNode, SCAN_LIMITS, wastefulScans } from '../../../src/db/read-audit.ts';

/** A scan node as EXPLAIN (ANALYZE, FORMAT JSON) writes it: rows and removed rows per loop. */
const scan = (type: string, relation: string, rows: number, removed: number, loops = 1) => ({
  'Node Type': type,
  'Relation Name': relation,
  'Actual Rows': rows,
  'Actual Loops': loops,
  ...(removed ? { 'Rows Removed by Filter': removed } : {}),
});

const plan = (...nodes: object[]) => [{ Plan: { 'Node Type': 'Aggregate', Plans: nodes } }];

describe('wastefulScans', () => {
  it('finds a table scanned for a few rows, at any depth (the count of `= any(array(select ...))`)', () => {
    const found = wastefulScans(
      plan({
        'Node Type': 'Hash Join',
        Plans: [scan('Seq Scan', 'cities', 111, 14_079), scan('Seq Scan', 'states', 95, 4868)],
      }),
    );
    expect(found).toEqual([{ node: 'Seq Scan', relation: 'cities', read: 14_190, kept: 111 }]);
  });

  it('finds an index walked in sort order for rows it never meets (a rare keyword)', () => {
    expect(wastefulScans(plan(scan('Index Scan', 'cities', 2, 148_036)))).toHaveLength(1);
  });

  it('counts every loop, as PostgreSQL reports rows per loop', () => {
    expect(wastefulScans(plan(scan('Seq Scan', 'employees', 1, 999, 10)))).toEqual([
      { node: 'Seq Scan', relation: 'employees', read: 10_000, kept: 10 },
    ]);
  });

  it('lets a small table be scanned, and a large one read for what it needs', () => {
    expect(wastefulScans(plan(scan('Seq Scan', 'states', 95, 4868)))).toEqual([]);
    // Not selective: most rows are kept, and a scan is the right plan.
    expect(wastefulScans(plan(scan('Seq Scan', 'cities', 41_134, 106_904)))).toEqual([]);
    // No filter: every row read is used (an unfiltered count, a hash join's inner side).
    expect(wastefulScans(plan(scan('Seq Scan', 'audits', 1_000_000, 0)))).toEqual([]);
    // A trigram index's recheck discards candidates, not rows of a walk.
    expect(
      wastefulScans(
        plan({ ...scan('Bitmap Heap Scan', 'cities', 111, 0), 'Rows Removed by Index Recheck': 9000 }),
      ),
    ).toEqual([]);
    // An index condition reads the range it selects (a month of one action), whatever its filter
    // then drops.
    expect(
      wastefulScans(plan({ ...scan('Index Scan', 'audits', 93, 5003), 'Index Cond': '(action = ...)' })),
    ).toEqual([]);
  });

  it('ignores what never ran, and holds to its limits', () => {
    expect(wastefulScans(plan(scan('Seq Scan', 'cities', 0, 0, 0)))).toEqual([]);
    const limits = { ...SCAN_LIMITS, maxDiscarded: 100 };
    expect(wastefulScans(plan(scan('Seq Scan', 'roles', 1, 200)), limits)).toHaveLength(1);
    expect(wastefulScans(plan(scan('Seq Scan', 'roles', 1, 200)))).toEqual([]);
  });
});

describe('costliestNode', () => {
  it('is the highest estimated cost of any node, below a Limit too', () => {
    expect(
      costliestNode([
        {
          Plan: {
            'Node Type': 'Limit',
            'Total Cost': 3.1,
            Plans: [{ 'Node Type': 'Index Scan', 'Total Cost': 1874.5, Plans: [] }],
          },
        },
      ]),
    ).toBe(1874.5);
    expect(costliestNode(undefined)).toBe(0);
  });
});
