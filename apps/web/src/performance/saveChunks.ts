import type { SubmissionRow } from './grid';

/*
 * A whole day's changes can be thousands of rows, and the API client sends them form-encoded:
 * the server reads at most 50,000 fields in a form body (`MAX_PARAMETERS` in the server's
 * http/body.ts), about 780 rows of 20 skills. So a save is sent in chunks that stay well inside
 * it, one after the other. Each chunk is one transaction on the server, all or nothing; a chunk
 * refused leaves the chunks before it saved and those after it unsent.
 */

/** Fields of the form body a chunk may fill: room under the server's 50,000 for the few others. */
export const CHUNK_FIELDS = 40_000;

/** The form fields one row takes: its code, employee, date and version, and three per cell. */
const fieldsOf = (row: SubmissionRow) => 4 + 3 * row.performancePerSkill.length;

/** The rows in order, cut into chunks of at most `maxFields` form fields (at least a row each). */
export function saveChunks(rows: readonly SubmissionRow[], maxFields = CHUNK_FIELDS): SubmissionRow[][] {
  const chunks: SubmissionRow[][] = [];
  let current: SubmissionRow[] = [];
  let fields = 0;
  for (const row of rows) {
    const size = fieldsOf(row);
    if (current.length > 0 && fields + size > maxFields) {
      chunks.push(current);
      current = [];
      fields = 0;
    }
    current.push(row);
    fields += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** A chunk was refused: why, the rows saved before it, and the chunk itself (its errors' places). */
export class ChunkRefused extends Error {
  constructor(
    readonly reason: unknown,
    readonly saved: readonly SubmissionRow[],
    readonly chunk: readonly SubmissionRow[],
  ) {
    super('A chunk of the save was refused');
  }
}
