import { ERASED, ERASURE_MESSAGES, erasedEmployeeName, RESOURCES } from '@wfc/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { AuditActor } from '../audit/recorder.ts';
import { recordAudit } from '../audit/recorder.ts';
import type { Executor } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { ApiError } from '../http/envelope.ts';
import { assertSomeoneManagesRoles } from '../resources/definitions/access.ts';
import { forgetInBin } from '../resources/recycle-bin/erasure.ts';
import { PERSONAL_TABLES } from './catalogue.ts';
import { aboutCondition, collectPersonalRows, type Person, personCodes, personRecord } from './collect.ts';

export type EmployeeErasure = 'anonymise' | 'delete';

/**
 * Pure: the person's values an erasure takes out of the audit log: every text stored in a
 * `personal` column about them (names, email, phone, address, dates as text, addresses and
 * browsers of their sessions). Numbers and flags are left: on their own they name nobody.
 */
export function personalValues(tables: Readonly<Record<string, Record<string, unknown>[]>>): Set<string> {
  const values = new Set<string>();
  for (const [table, rows] of Object.entries(tables)) {
    const columns = PERSONAL_TABLES[table]?.columns ?? {};
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (columns[column] !== 'personal') continue;
        if (typeof value === 'string' && value.trim() !== '') values.add(value);
        if (value instanceof Date) values.add(value.toISOString());
      }
    }
  }
  return values;
}

/** Pure: `json` with every text equal to one of `values` read as ERASED; keys and other values kept. */
export function redactValues(json: unknown, values: ReadonlySet<string>): unknown {
  if (typeof json === 'string') return values.has(json) ? ERASED : json;
  if (Array.isArray(json)) return json.map((v) => redactValues(v, values));
  if (json && typeof json === 'object') {
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, redactValues(v, values)]));
  }
  return json;
}

/**
 * The personal fields (names and details) of each module's records, by the collection its audit
 * entries name: an entry about one of the person's records has them erased whatever they held then.
 */
const PERSONAL_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  RESOURCES.flatMap((def) =>
    def.personal
      ? [
          [
            def.listSegment,
            new Set(
              Object.entries(def.personal.fields)
                .filter(([, kind]) => kind)
                .map(([field]) => field),
            ),
          ] as const,
        ]
      : [],
  ),
);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Pure: every text found under `fields` in `json` (at its top level), however deep below them. */
export function fieldTexts(
  json: unknown,
  fields: ReadonlySet<string>,
  into = new Set<string>(),
): Set<string> {
  const texts = (v: unknown): void => {
    if (typeof v === 'string' && v.trim() !== '') into.add(v);
    else if (Array.isArray(v)) v.forEach(texts);
    else if (isObject(v)) Object.values(v).forEach(texts);
  };
  if (isObject(json)) for (const [k, v] of Object.entries(json)) if (fields.has(k)) texts(v);
  return into;
}

/** Pure: `json` with the values under `fields` (at its top level) read as ERASED, nulls kept. */
export function redactFields(json: unknown, fields: ReadonlySet<string>): unknown {
  if (!isObject(json)) return json;
  return Object.fromEntries(
    Object.entries(json).map(([k, v]) => [k, fields.has(k) && v !== null ? ERASED : v]),
  );
}

interface AuditRow {
  id: number;
  collection: string;
  recordCode: string | null;
  before: unknown;
  after: unknown;
  changes: unknown;
  username: string | null;
}

/**
 * The audit entries that may hold the person's values: those by them (their user, or their name
 * tried at sign-in), those about their records, and those naming one of their codes (a department
 * whose managers listed them). Each keeps its event; their values read as ERASED.
 */
async function redactAudits(tx: Executor, person: Person, values: ReadonlySet<string>): Promise<number> {
  const codes = personCodes(person);
  const named: SQL[] = codes.map(
    (c) =>
      sql`position(${c} in coalesce(before::text, '') || coalesce(after::text, '') || coalesce(changes::text, '')) > 0`,
  );
  if (person.username) named.push(sql`lower(username) = lower(${person.username})`);
  const where = sql`(${aboutCondition(PERSONAL_TABLES.audits!, person)}${named.length ? sql` or ${sql.join(named, sql` or `)}` : sql``})`;
  const rows = await rowsOf<AuditRow>(
    tx,
    sql`select id, collection, record_code as "recordCode", before, after, changes, username
        from audits where ${where}`,
  );
  // An entry about one of their records: its personal fields go whatever they held then, and what
  // they held (an old name, a former email) is looked for in the other entries too.
  const ownFields = (row: AuditRow) =>
    row.recordCode && codes.includes(row.recordCode) ? PERSONAL_FIELDS.get(row.collection) : undefined;
  const known = new Set(values);
  for (const row of rows) {
    const fields = ownFields(row);
    if (fields) for (const part of [row.before, row.after, row.changes]) fieldTexts(part, fields, known);
  }
  const erase = (row: AuditRow, part: unknown) => {
    const fields = ownFields(row);
    return JSON.stringify(redactValues(fields ? redactFields(part, fields) : part, known));
  };
  for (const row of rows) {
    const username = row.username !== null && known.has(row.username) ? ERASED : row.username;
    await tx.execute(sql`update audits set
      before = ${erase(row, row.before)}::jsonb,
      after = ${erase(row, row.after)}::jsonb,
      changes = ${erase(row, row.changes)}::jsonb,
      username = ${username}
      where id = ${row.id}`);
  }
  return rows.length;
}

/**
 * The webhooks' outbox (webhooks/events.ts): events about the person's records go, with their
 * deliveries, sent or not; the others that name them (an edit they made, a department they
 * managed) keep their event with the person's values read as ERASED.
 */
async function forgetInOutbox(tx: Executor, person: Person, values: ReadonlySet<string>): Promise<number> {
  const codes = personCodes(person);
  if (!codes.length) return 0;
  const gone = await rowsOf(
    tx,
    sql`delete from webhook_events where record_code in (${inList(codes)}) returning 1`,
  );
  const known = new Set(values);
  for (const code of codes) known.add(code);
  if (person.username) known.add(person.username);
  const named = [...known].map((v) => sql`position(${v} in payload::text) > 0`);
  const rows = await rowsOf<{ id: number; payload: unknown }>(
    tx,
    sql`select id, payload from webhook_events where ${sql.join(named, sql` or `)}`,
  );
  for (const row of rows) {
    await tx.execute(sql`update webhook_events set payload = ${JSON.stringify(redactValues(row.payload, known))}::jsonb
      where id = ${row.id}`);
  }
  return gone.length;
}

const inList = (codes: readonly string[]) =>
  sql.join(
    codes.map((c) => sql`${c}`),
    sql`, `,
  );

/**
 * Erases a person (docs/privacy.md), in the caller's transaction: the audit log's values first,
 * while the rows that say which values are theirs still exist; then the rows themselves, children
 * before the user that the employee and profile refer to. Answers how many rows of each kind went.
 */
export async function erasePerson(
  tx: Executor,
  person: Person,
  employees: EmployeeErasure,
  actor: AuditActor,
): Promise<Record<string, number>> {
  if (person.userCode) {
    try {
      await assertSomeoneManagesRoles(tx, person.userCode);
    } catch (err) {
      if (err instanceof ApiError && err.statusCode === 409) {
        throw new ApiError(409, ERASURE_MESSAGES.onlyAdministrator);
      }
      throw err;
    }
  }
  const values = personalValues(await collectPersonalRows(tx, person));
  const counts: Record<string, number> = { audits: await redactAudits(tx, person, values) };
  const count = async (table: string, statement: SQL) => {
    counts[table] = (await rowsOf(tx, sql`${statement} returning 1`)).length;
  };
  // The bin bypassed: their own deleted records go for good, and others' keep nothing of them.
  await count(
    'deleted_records',
    sql`delete from deleted_records where ${aboutCondition(PERSONAL_TABLES.deleted_records!, person)}`,
  );
  await forgetInBin(tx, personCodes(person), (json) => redactValues(json, values));
  counts.webhook_events = await forgetInOutbox(tx, person, values);
  const employeeCodes = person.employeeCodes;
  if (employeeCodes.length) {
    await count(
      'department_managers',
      sql`delete from department_managers where employee_code in (${inList(employeeCodes)})`,
    );
    if (employees === 'delete') {
      await count('employees', sql`delete from employees where employee_code in (${inList(employeeCodes)})`);
    } else {
      // The row id names the record without naming the person; department and join date stay,
      // which the averages read.
      const kept = await rowsOf<{ id: number }>(
        tx,
        sql`select id from employees where employee_code in (${inList(employeeCodes)})`,
      );
      for (const { id } of kept) {
        await tx.execute(sql`update employees set name = ${erasedEmployeeName(Number(id))},
          employee_id = ${`ERASED-${id}`}, user_code = null, version = version + 1, updated_at = now()
          where id = ${id}`);
      }
      counts.employees = kept.length;
    }
  }
  await count(
    'login_throttle',
    sql`delete from login_throttle where ${aboutCondition(PERSONAL_TABLES.login_throttle!, person)}`,
  );
  if (person.userCode) {
    // The picture goes with its profile; sessions, two-factor and single sign-on with the user.
    await count('profiles', sql`delete from profiles where user_code = ${person.userCode}`);
    await count('users', sql`delete from users where user_code = ${person.userCode}`);
  }
  await recordAudit(tx, {
    action: 'ERASURE',
    ...personRecord(person),
    after: { employees, rows: counts },
    actor,
  });
  return counts;
}
