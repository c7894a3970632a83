import { setImmediate as nextTurn } from 'node:timers/promises';

/** Rows worked on between two turns of the event loop: a few milliseconds of work. */
const ROWS_PER_TURN = 500;

/**
 * Runs `each` over a file's rows, giving other requests (a health check) a turn every few hundred:
 * a step over 50,000 rows is otherwise one stretch of a few hundred milliseconds.
 */
export async function eachRow<T>(rows: readonly T[], each: (row: T, index: number) => void): Promise<void> {
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % ROWS_PER_TURN === 0) await nextTurn();
    each(rows[i] as T, i);
  }
}
