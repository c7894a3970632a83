import { narrowerScope, type PermissionScope } from '@wfc/contract';
import { type SQL, sql } from 'drizzle-orm';
import { employeeRelation, heldScope, type ScopedCaller, scopeCondition } from '../auth/scopes.ts';
import { textSet } from '../db/arrays.ts';
import type { Executor } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { ApiError } from '../http/envelope.ts';

/**
 * A performance row is its employee's: mine when the employee is linked to me, my team's when
 * the employee's department is one I manage. Written over `employees e`, as the grid reads them.
 */
const relation = employeeRelation({ userCode: sql`e.user_code`, departmentCode: sql`e.department_code` });

/** Tables the scope's conditions read besides `employees`: kept answers depend on them too. */
export const REACH_READS = relation.reads;

/** What a caller reaches of the scores: the scope, its condition over `employees e`, its cache key. */
export interface ScoreReach {
  scope: PermissionScope;
  within: SQL | undefined;
  /** Names the reach in cache keys: null for everyone's scores. */
  key: string | null;
}

function reachAt(caller: ScopedCaller, scope: PermissionScope): ScoreReach {
  return {
    scope,
    within: scopeCondition(relation, scope, caller.userCode),
    key: scope === 'all' ? null : `${scope}:${caller.userCode}`,
  };
}

/** Whose scores the caller may read (VIEW_PERFORMANCES; the route has checked it is held). */
export const viewReach = (caller: ScopedCaller) =>
  reachAt(caller, heldScope(caller, 'VIEW_PERFORMANCES') ?? 'own');

/** Whose scores the caller may save: a save creates and changes, so the narrower of the two. */
export const saveReach = (caller: ScopedCaller) =>
  reachAt(
    caller,
    narrowerScope(
      heldScope(caller, 'CREATE_PERFORMANCE') ?? 'own',
      heldScope(caller, 'UPDATE_PERFORMANCE') ?? 'own',
    ),
  );

/** Those of these employees that exist and are within reach. */
export async function reachedEmployees(db: Executor, codes: readonly string[], within: SQL | undefined) {
  if (codes.length === 0) return new Set<string>();
  const rows = await rowsOf<{ code: string }>(
    db,
    sql`select e.employee_code as code from employees e
        where e.employee_code in (${textSet(codes)}) and ${within ?? sql`true`}`,
  );
  return new Set(rows.map((r) => r.code));
}

/** Why a save is refused for an employee beyond the caller's reach (or unknown to them). */
export const OUTSIDE_REACH_MESSAGE =
  'You cannot save scores of employees outside the records your role reaches';

/**
 * Refuses a whole batch naming an employee beyond the caller's reach. It names nobody, and an
 * unknown employee is refused alike, so it tells nothing about those the caller cannot see.
 */
export async function assertSaveWithinReach(tx: Executor, codes: readonly string[], reach: ScoreReach) {
  if (!reach.within) return;
  const unique = [...new Set(codes)];
  const reached = await reachedEmployees(tx, unique, reach.within);
  if (unique.some((c) => !reached.has(c))) {
    throw new ApiError(403, OUTSIDE_REACH_MESSAGE);
  }
}
