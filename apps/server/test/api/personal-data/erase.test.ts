import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ERASED, WEBHOOK_EVENT_TYPES } from '@wfc/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/db/rows.ts';
import { audits } from '../../../src/db/schema/index.ts';
import { DEMO_PASSWORD } from '../../../src/seed/catalogue.ts';
import { seedDemo } from '../../../src/seed/demo.ts';
import { ADMIN_PASSWORD, createTestApp, sharedTestApp, type TestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';

/**
 * Erasing a demo employee: afterwards no row of any table holds their values (a dump of the
 * database is searched for each), the audit log keeps every event with '[erased]' in their place,
 * and the employee record and scores stay for the team's averages, or go, by the setting.
 */

const t = sharedTestApp();
let admin: string;

interface Someone {
  userCode: string;
  username: string;
  employeeCode: string;
  profileCode: string;
  departmentCode: string;
}

/** Values only this person has, planted where the screens would put them and the log records them. */
const PLANTED = {
  email: 'zenobia.quillfeather@example.com',
  name: 'Zenobia Quillfeather',
  employeeId: 'EMP-ZQ-4711',
  phone: '+47 999 47 110',
  street: 'Quillfeather Lane 17',
};

async function demoPerson(app: TestApp, skip = 0): Promise<Someone> {
  const [row] = await rowsOf<Someone>(
    app.handle.db,
    sql`select u.user_code as "userCode", u.username, e.employee_code as "employeeCode",
          p.profile_code as "profileCode", e.department_code as "departmentCode"
        from users u join employees e on e.user_code = u.user_code join profiles p on p.user_code = u.user_code
        order by u.username offset ${skip} limit 1`,
  );
  if (!row) throw new Error('no demo person');
  return row;
}

/** Every row of every table as text: what a dump of the data holds, on either database. */
async function everyRow(app: TestApp): Promise<string> {
  const tables = await rowsOf<{ name: string }>(
    app.handle.db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await rowsOf<{ row: string }>(
      app.handle.db,
      sql`select t::text as row from ${sql.identifier(name)} t`,
    );
    parts.push(...rows.map((r) => r.row));
  }
  return parts.join('\n');
}

const count = async (app: TestApp, query: ReturnType<typeof sql>) =>
  Number((await rowsOf<{ n: number }>(app.handle.db, query))[0]?.n);

/** Leaves a trail: a refused and a successful sign-in, the planted values saved, a department managed. */
async function plant(app: TestApp, cookie: string, p: Someone) {
  expect((await app.post('login', { username: p.username, password: 'wrong-password-1' })).statusCode).toBe(
    401,
  );
  await app.login(p.username, DEMO_PASSWORD);
  const user = expectOk(
    await app.post('GetUserById', { userCode: p.userCode }, cookie),
    'User fetched successfully',
  ).data;
  expectOk(
    await app.post(
      'UpdateUser',
      {
        userCode: p.userCode,
        username: user.username,
        email: PLANTED.email,
        roleCode: user.role.roleCode,
        version: user.version,
      },
      cookie,
    ),
    'User updated successfully',
  );
  const employee = expectOk(
    await app.post('GetEmployeeByCode', { employeeCode: p.employeeCode }, cookie),
    'Employee fetched successfully',
  ).data;
  expectOk(
    await app.post(
      'UpdateEmployee',
      {
        employeeCode: p.employeeCode,
        employeeId: PLANTED.employeeId,
        name: PLANTED.name,
        departmentCode: p.departmentCode,
        joinDate: employee.joinDate,
        userCode: p.userCode,
        version: employee.version,
      },
      cookie,
    ),
    'Employee updated successfully',
  );
  const department = expectOk(
    await app.post('GetDepartmentByCode', { departmentCode: p.departmentCode }, cookie),
    'Department fetched successfully',
  ).data;
  expectOk(
    await app.post(
      'UpdateDepartment',
      {
        departmentCode: p.departmentCode,
        name: department.name,
        managerCodes: [p.employeeCode],
        version: department.version,
      },
      cookie,
    ),
    'Department updated successfully',
  );
  await app.handle.db.execute(
    sql`update profiles set phone_number = ${PLANTED.phone}, address_line_one = ${PLANTED.street}
        where profile_code = ${p.profileCode}`,
  );
  await app.settle();
}

let person: Someone;
let scoresBefore: number;
let departmentDaysBefore: string;

const departmentDays = (app: TestApp, code: string) =>
  rowsOf<Record<string, unknown>>(
    app.handle.db,
    sql`select * from performance_department_days where department_code = ${code} order by date`,
  ).then((rows) => JSON.stringify(rows));

beforeAll(async () => {
  await seedDemo(t.handle.db, { people: 6, days: 12, cityCountries: ['NZ'] });
  await t.settle();
  admin = await t.login();
  person = await demoPerson(t);
  // A subscription to every event: the outbox keeps what the planting changes, the person's values too.
  await t.handle.db.execute(sql`insert into webhooks (webhook_code, url, events, secret)
    values ('WEBHOOK-ERASURE', 'https://hooks.example.com/console', ${JSON.stringify(WEBHOOK_EVENT_TYPES)}::jsonb, 'sealed')`);
  await plant(t, admin, person);
  scoresBefore = await count(
    t,
    sql`select count(*)::int as n from performance_scores s join performances p using (performance_code)
        where p.employee_code = ${person.employeeCode}`,
  );
  departmentDaysBefore = await departmentDays(t, person.departmentCode);
}, 180_000);

describe('ErasePersonalData', () => {
  it('is refused without a session, without the permission, with a wrong password and for a bad body', async () => {
    const body = { userCode: person.userCode, currentPassword: ADMIN_PASSWORD };
    expectError(await t.post('ErasePersonalData', body), 401, 'Not signed in');
    const exporter = await t.userWith(['EXPORT_PERSONAL_DATA', 'VIEW_USERS']);
    expectError(
      await t.post('ErasePersonalData', body, exporter.cookie),
      403,
      'You do not have permission to do this',
    );
    const wrong = expectError(
      await t.post('ErasePersonalData', { ...body, currentPassword: 'not-the-password-1' }, admin),
      400,
      'Invalid input',
    );
    expect(wrong.errors).toEqual([{ field: 'currentPassword', message: 'Current password is incorrect' }]);
    const missing = expectError(
      await t.post('ErasePersonalData', { userCode: person.userCode }, admin),
      400,
      'Invalid input',
    );
    expect(missing.errors?.map((e: { field: string }) => e.field)).toEqual(['currentPassword']);
    expectError(
      await t.post('ErasePersonalData', { ...body, employeeCode: person.employeeCode }, admin),
      400,
      'Invalid input',
    );
    expectError(
      await t.post('ErasePersonalData', { userCode: 'USER-NOPE', currentPassword: ADMIN_PASSWORD }, admin),
      404,
      'User not found',
    );
    // Nothing went.
    expect(
      await count(t, sql`select count(*)::int as n from users where user_code = ${person.userCode}`),
    ).toBe(1);
  });

  it('refuses the only user who can manage roles, and the caller themselves', async () => {
    const eraser = await t.userWith(['ERASE_PERSONAL_DATA']);
    const [adminUser] = await rowsOf<{ code: string }>(
      t.handle.db,
      sql`select user_code as code from users where username = 'admin'`,
    );
    expectError(
      await t.post(
        'ErasePersonalData',
        { userCode: adminUser?.code, currentPassword: eraser.password },
        eraser.cookie,
      ),
      409,
      'This person is the only user who can manage roles: give that to someone else first',
    );
    expectError(
      await t.post(
        'ErasePersonalData',
        { userCode: adminUser?.code, currentPassword: ADMIN_PASSWORD },
        admin,
      ),
      409,
      'You cannot erase your own personal data: ask another administrator',
    );
    expect(await count(t, sql`select count(*)::int as n from users where username = 'admin'`)).toBe(1);
  });

  it('leaves none of their values in any table, keeps every audit event, and keeps the employee for the averages', async () => {
    const auditsBefore = await count(t, sql`select count(*)::int as n from audits`);
    const dumpBefore = await everyRow(t);
    for (const value of [...Object.values(PLANTED), person.username]) expect(dumpBefore).toContain(value);

    expectOk(
      await t.post(
        'ErasePersonalData',
        { employeeCode: person.employeeCode, currentPassword: ADMIN_PASSWORD },
        admin,
      ),
      'Personal data erased',
    );
    await t.settle();

    const dump = await everyRow(t);
    for (const value of [...Object.values(PLANTED), person.username])
      expect(dump, value).not.toContain(value);

    // The outbox had events about them: those about their records go, the others keep nothing of them.
    expect(
      await count(
        t,
        sql`select count(*)::int as n from webhook_events
            where record_code in (${person.userCode}, ${person.employeeCode}, ${person.profileCode})`,
      ),
    ).toBe(0);
    expect(
      await count(
        t,
        sql`select count(*)::int as n from webhook_events where record_code = ${person.departmentCode}`,
      ),
    ).toBeGreaterThan(0);

    // Every event stays, with its values erased, and one more says who erased whom.
    expect(await count(t, sql`select count(*)::int as n from audits`)).toBe(auditsBefore + 1);
    const trail = await rowsOf<{ action: string; collection: string; after: Record<string, unknown> | null }>(
      t.handle.db,
      sql`select action, collection, after from audits where record_code = ${person.employeeCode} order by id`,
    );
    expect(trail.find((e) => e.action === 'UPDATE')?.after).toMatchObject({
      name: ERASED,
      employeeId: ERASED,
    });
    const managed = await rowsOf<{ after: { managers?: { name: string }[] } }>(
      t.handle.db,
      sql`select after from audits where collection = 'departments' and record_code = ${person.departmentCode}
          and action = 'UPDATE'`,
    );
    expect(managed.at(-1)?.after.managers).toEqual([{ employeeCode: person.employeeCode, name: ERASED }]);
    const [erasure] = await t.handle.db.select().from(audits).where(eq(audits.action, 'ERASURE'));
    expect(erasure).toMatchObject({ collection: 'users', recordCode: person.userCode, username: 'admin' });
    expect(erasure?.after).toMatchObject({
      employees: 'anonymise',
      rows: { users: 1, profiles: 1, employees: 1, department_managers: 1 },
    });

    // The record stays, nameless and without a user, with its scores: the averages do not move.
    const [kept] = await rowsOf<{ id: number; name: string; employeeId: string; userCode: string | null }>(
      t.handle.db,
      sql`select id, name, employee_id as "employeeId", user_code as "userCode" from employees
          where employee_code = ${person.employeeCode}`,
    );
    expect(kept).toEqual({
      id: kept?.id,
      name: `Erased employee ${kept?.id}`,
      employeeId: `ERASED-${kept?.id}`,
      userCode: null,
    });
    expect(
      await count(
        t,
        sql`select count(*)::int as n from performance_scores s join performances p using (performance_code)
            where p.employee_code = ${person.employeeCode}`,
      ),
    ).toBe(scoresBefore);
    expect(await departmentDays(t, person.departmentCode)).toBe(departmentDaysBefore);
    for (const table of ['users', 'profiles', 'sessions']) {
      expect(
        await count(
          t,
          sql`select count(*)::int as n from ${sql.identifier(table)} where user_code = ${person.userCode}`,
        ),
        table,
      ).toBe(0);
    }
    expect(
      await count(
        t,
        sql`select count(*)::int as n from profile_pictures where profile_code = ${person.profileCode}`,
      ),
    ).toBe(0);
  });

  it('leaves none of their values in a pg_dump of the PostgreSQL database', async () => {
    if (!t.handle.url) return;
    const { stdout } = await promisify(execFile)('pg_dump', ['--data-only', t.handle.url], {
      maxBuffer: 512 * 1024 * 1024,
    });
    expect(stdout).toContain('Erased employee');
    for (const value of [...Object.values(PLANTED), person.username])
      expect(stdout, value).not.toContain(value);
  });
});

describe('ErasePersonalData with ERASURE_EMPLOYEES=delete', () => {
  let app: TestApp;
  afterAll(() => app?.close());

  it('deletes the employee records and their scores, and the averages follow', async () => {
    app = await createTestApp({ ERASURE_EMPLOYEES: 'delete' });
    await seedDemo(app.handle.db, { people: 4, days: 6, cityCountries: ['NZ'], pictures: false });
    await app.settle();
    const cookie = await app.login();
    const someone = await demoPerson(app);
    const before = await departmentDays(app, someone.departmentCode);
    expectOk(
      await app.post(
        'ErasePersonalData',
        { userCode: someone.userCode, currentPassword: ADMIN_PASSWORD },
        cookie,
      ),
      'Personal data erased',
    );
    expect(
      await count(
        app,
        sql`select count(*)::int as n from employees where employee_code = ${someone.employeeCode}`,
      ),
    ).toBe(0);
    expect(
      await count(
        app,
        sql`select count(*)::int as n from performances where employee_code = ${someone.employeeCode}`,
      ),
    ).toBe(0);
    expect(await departmentDays(app, someone.departmentCode)).not.toBe(before);
    const [erasure] = await app.handle.db.select().from(audits).where(eq(audits.action, 'ERASURE'));
    expect(erasure?.after).toMatchObject({ employees: 'delete', rows: { employees: 1, users: 1 } });
  }, 180_000);
});
