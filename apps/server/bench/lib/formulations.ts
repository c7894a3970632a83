/**
 * The candidate formulations of a keyword's total, for `npm run bench -- --only formulations`:
 * the keyword's OR with each reference written as the previous formulation's init-plan array, as
 * a hashed semi-join and as a correlated EXISTS, and as a UNION of one branch per alternative with
 * either array or semi-join. What the engine sends (the codes looked up first, then the UNION of
 * their values) is measured beside them, from its captured statements.
 */
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { escapeLike } from '../../src/db/like.ts';
import { type ReferencePath, referencePath, shapeColumn } from '../../src/resources/list-query.ts';
import type { ServerResource } from '../../src/resources/server-resource.ts';
import { inline } from './capture.ts';

type ReferenceForm = 'array' | 'in' | 'exists';

function referenceCondition(ref: ReferencePath, pattern: string, form: ReferenceForm) {
  const names = sql`select ${ref.code} from ${ref.code.table} where ${ref.name} ilike ${pattern}`;
  if (form === 'array') return sql`${ref.own} = any(array(${names}))`;
  if (form === 'in') return sql`${ref.own} in (${names})`;
  return sql`exists (select 1 from ${ref.code.table} where ${ref.code} = ${ref.own} and ${ref.name} ilike ${pattern})`;
}

/** The keyword's alternatives over the resource's search paths, references written in `form`. */
function alternatives(res: ServerResource, keyword: string, form: ReferenceForm): SQL[] {
  const pattern = `%${escapeLike(keyword)}%`;
  return res.search.map((path) => {
    const ref = referencePath(res, path);
    if (ref) return referenceCondition(ref, pattern, form);
    return sql`${shapeColumn(res.shape, path)} ilike ${pattern}`;
  });
}

const dialect = new PgDialect();
const text = (q: SQL) => inline(dialect.sqlToQuery(q));

/** Each candidate's statements (one count), by name, for one keyword of one list. */
export function countFormulations(res: ServerResource, keyword: string): Record<string, string[]> {
  const or = (form: ReferenceForm) =>
    text(
      sql`select count(*) from ${res.table} where ${sql.join(alternatives(res, keyword, form), sql` or `)}`,
    );
  const union = (form: ReferenceForm) =>
    text(
      sql`select count(*) from (${sql.join(
        alternatives(res, keyword, form).map((a) => sql`select ${res.idColumn} from ${res.table} where ${a}`),
        sql` union `,
      )}) m`,
    );
  return {
    'OR, init-plan array (before)': [or('array')],
    'OR, hashed semi-join (in)': [or('in')],
    'OR, exists': [or('exists')],
    'UNION, init-plan arrays': [union('array')],
    'UNION, semi-joins': [union('in')],
  };
}
