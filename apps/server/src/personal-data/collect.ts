import { type ExportPersonalDataBody, employeeResource, userResource } from '@wfc/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { escapeLike } from '../db/like.ts';
import { firstRow, rowsOf } from '../db/rows.ts';
import { PERSONAL_TABLES, type PersonalTable } from './catalogue.ts';

/** A person as the stored rows name them: their user (if any) and the records tied to it. */
export interface Person {
  userCode: string | null;
  /** As stored; sign-in throttle keys hold it in lower case. */
  username: string | null;
  employeeCodes: readonly string[];
  profileCodes: readonly string[];
}

type Row = Record<string, unknown>;

/** Every code that names one of the person's records: their user, employee records and profile. */
export const personCodes = (person: Person): string[] => [
  ...(person.userCode ? [person.userCode] : []),
  ...person.employeeCodes,
  ...person.profileCodes,
];

/** What an audit entry about the person names: their user, or their employee record without one. */
export const personRecord = (person: Person) =>
  person.userCode
    ? { collection: userResource.listSegment, recordCode: person.userCode }
    : { collection: employeeResource.listSegment, recordCode: person.employeeCodes[0] };

const codesOf = async (db: Executor, query: SQL) =>
  (await rowsOf<{ code: string }>(db, query)).map((r) => r.code);

/**
 * Whom a request names: a user (named by themselves, their profile or an employee record) with
 * their employee records and profile, or an employee alone when no user is linked to it; undefined
 * when the record named does not exist.
 */
export async function findPerson(db: Executor, body: ExportPersonalDataBody): Promise<Person | undefined> {
  let userCode = body.userCode ?? null;
  if (body.profileCode) {
    const profile = await firstRow<{ userCode: string }>(
      db,
      sql`select user_code as "userCode" from profiles where profile_code = ${body.profileCode}`,
    );
    if (!profile) return undefined;
    userCode = profile.userCode;
  }
  if (body.employeeCode) {
    const employee = await firstRow<{ userCode: string | null }>(
      db,
      sql`select user_code as "userCode" from employees where employee_code = ${body.employeeCode}`,
    );
    if (!employee) return undefined;
    if (!employee.userCode) {
      return { userCode: null, username: null, employeeCodes: [body.employeeCode], profileCodes: [] };
    }
    userCode = employee.userCode;
  }
  const user = await firstRow<{ username: string }>(
    db,
    sql`select username from users where user_code = ${userCode}`,
  );
  if (!user || !userCode) return undefined;
  return {
    userCode,
    username: user.username,
    employeeCodes: await codesOf(
      db,
      sql`select employee_code as code from employees where user_code = ${userCode}`,
    ),
    profileCodes: await codesOf(
      db,
      sql`select profile_code as code from profiles where user_code = ${userCode}`,
    ),
  };
}

const anyOf = (column: SQL, codes: readonly string[]): SQL =>
  codes.length
    ? sql`${column} in (${sql.join(
        codes.map((c) => sql`${c}`),
        sql`, `,
      )})`
    : sql`false`;

/** Pure: which rows of a catalogued table are about `person`, as a condition on its columns. */
export function aboutCondition(entry: PersonalTable, person: Person): SQL {
  const link = Object.entries(entry.columns).find(([, kind]) => kind === 'link')?.[0];
  if (!link) throw new Error('A personal table names the column that links it to its person');
  const column = sql.identifier(link);
  const userCodes = person.userCode ? [person.userCode] : [];
  const linked: Record<PersonalTable['about'], () => SQL> = {
    user: () => anyOf(sql`${column}`, userCodes),
    employee: () => anyOf(sql`${column}`, person.employeeCodes),
    'employee row': () =>
      sql`${column} in (select id from employees where ${anyOf(sql`employee_code`, person.employeeCodes)})`,
    profile: () => anyOf(sql`${column}`, person.profileCodes),
    performance: () =>
      sql`${column} in (select performance_code from performances where ${anyOf(sql`employee_code`, person.employeeCodes)})`,
    account: () => {
      if (!person.username) return sql`false`;
      const account = person.username.trim().toLowerCase();
      // The keys of docs/security.md: `user:{name}` and `ip+user:["{address}","{name}"]`.
      const atAddress = `ip+user:[%,${escapeLike(JSON.stringify(account))}]`;
      return sql`(${column} = ${`user:${account}`} or ${column} like ${atAddress})`;
    },
  };
  const condition = linked[entry.about]();
  if (!entry.records) return condition;
  return sql`(${condition} or ${anyOf(sql`${sql.identifier(entry.records)}`, personCodes(person))})`;
}

/** Every catalogued table's rows about the person, with its secret columns left out. */
export async function collectPersonalRows(
  db: Executor,
  person: Person,
  catalogue: Readonly<Record<string, PersonalTable>> = PERSONAL_TABLES,
): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const [table, entry] of Object.entries(catalogue)) {
    const shown = Object.entries(entry.columns)
      .filter(([, kind]) => kind !== 'secret')
      .map(([name]) => sql.identifier(name));
    out[table] = await rowsOf<Row>(
      db,
      sql`select ${sql.join(shown, sql`, `)} from ${sql.identifier(table)} where ${aboutCondition(entry, person)}`,
    );
  }
  return out;
}
