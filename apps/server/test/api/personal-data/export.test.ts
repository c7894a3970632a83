import { PERSONAL_DATA_FILES } from '@wfc/contract';
import { and, eq, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/db/rows.ts';
import { audits } from '../../../src/db/schema/index.ts';
import { PERSONAL_TABLES } from '../../../src/personal-data/catalogue.ts';
import { DEMO_PASSWORD } from '../../../src/seed/catalogue.ts';
import { seedDemo } from '../../../src/seed/demo.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';

/**
 * A person's access request: the ZIP of a demo employee holds each kind of record the console
 * keeps about them, as stored, and nothing about anyone else or any credential.
 */

const t = sharedTestApp();
let admin: string;

interface Someone {
  userCode: string;
  username: string;
  email: string;
  employeeCode: string;
  profileCode: string;
}
let person: Someone;
let other: Someone;
let personCookie: string;

type Row = Record<string, unknown>;
interface Exported {
  exportedAt: string;
  person: {
    userCode: string | null;
    username: string | null;
    employeeCodes: string[];
    profileCodes: string[];
  };
  tables: Record<string, Row[]>;
}

/** Two demo people with a user, a profile and an employee record each. */
async function demoPeople(): Promise<Someone[]> {
  return rowsOf<Someone>(
    t.handle.db,
    sql`select u.user_code as "userCode", u.username, u.email, e.employee_code as "employeeCode",
          p.profile_code as "profileCode"
        from users u join employees e on e.user_code = u.user_code join profiles p on p.user_code = u.user_code
        order by u.username limit 2`,
  );
}

beforeAll(async () => {
  await seedDemo(t.handle.db, { people: 6, days: 12, cityCountries: ['NZ'] });
  await t.settle();
  admin = await t.login();
  [person, other] = (await demoPeople()) as [Someone, Someone];
  // What a person leaves behind: a refused and a successful sign-in, and a change to their record.
  expect(
    (await t.post('login', { username: person.username, password: 'wrong-password-1' })).statusCode,
  ).toBe(401);
  personCookie = await t.login(person.username, DEMO_PASSWORD);
  const employee = expectOk(
    await t.post('GetEmployeeByCode', { employeeCode: person.employeeCode }, admin),
    'Employee fetched successfully',
  ).data;
  expectOk(
    await t.post(
      'UpdateEmployee',
      {
        employeeCode: person.employeeCode,
        employeeId: employee.employeeId,
        name: employee.name,
        departmentCode: employee.department.departmentCode,
        joinDate: '2020-02-02',
        userCode: person.userCode,
        version: employee.version,
      },
      admin,
    ),
    'Employee updated successfully',
  );
}, 180_000);

function unzip(body: Buffer) {
  const files = unzipSync(new Uint8Array(body));
  const json = files[PERSONAL_DATA_FILES.data];
  const html = files[PERSONAL_DATA_FILES.summary];
  if (!json || !html) throw new Error(`missing files: ${Object.keys(files).join(', ')}`);
  return {
    files,
    data: JSON.parse(strFromU8(json)) as Exported,
    html: strFromU8(html),
    text: strFromU8(json),
  };
}

const count = async (query: ReturnType<typeof sql>) =>
  Number((await rowsOf<{ n: number }>(t.handle.db, query))[0]?.n);

describe('ExportPersonalData', () => {
  it('answers a ZIP of every kind of record held about a demo employee, with their pictures, and audits it', async () => {
    const res = await t.post('ExportPersonalData', { userCode: person.userCode }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="personal-data-${person.userCode}-\\d{4}-\\d{2}-\\d{2}\\.zip"$`),
    );
    const { files, data, html, text } = unzip(res.rawPayload);
    expect(data.person).toEqual({
      userCode: person.userCode,
      username: person.username,
      employeeCodes: [person.employeeCode],
      profileCodes: [person.profileCode],
    });
    expect(Object.keys(data.tables).sort()).toEqual(Object.keys(PERSONAL_TABLES).sort());

    // Each kind, against the database read here on its own terms.
    const tables = data.tables;
    expect(tables.users).toEqual([
      expect.objectContaining({ user_code: person.userCode, email: person.email }),
    ]);
    expect(tables.profiles?.map((r) => r.profile_code)).toEqual([person.profileCode]);
    expect(tables.employees).toEqual([
      expect.objectContaining({ employee_code: person.employeeCode, join_date: '2020-02-02' }),
    ]);
    const days = await count(
      sql`select count(*)::int as n from performances where employee_code = ${person.employeeCode}`,
    );
    expect(days).toBeGreaterThan(0);
    expect(tables.performances).toHaveLength(days);
    expect(tables.performance_scores).toHaveLength(
      await count(sql`select count(*)::int as n from performance_scores s join performances p using (performance_code)
        where p.employee_code = ${person.employeeCode}`),
    );
    expect(tables.performance_months?.length).toBeGreaterThan(0);
    expect(tables.performance_month_days?.length).toBeGreaterThan(0);
    expect(tables.sessions).toEqual([
      expect.objectContaining({ user_code: person.userCode, ip: '127.0.0.1' }),
    ]);
    expect(tables.login_throttle?.map((r) => r.key).sort()).toEqual(
      [
        `ip+user:${JSON.stringify(['127.0.0.1', person.username.toLowerCase()])}`,
        `user:${person.username.toLowerCase()}`,
      ].sort(),
    );
    const actions = tables.audits?.map((r) => `${r.action} ${r.collection}`) ?? [];
    expect(actions).toEqual(expect.arrayContaining(['LOGIN_FAILED auth', 'LOGIN auth', 'UPDATE employees']));

    // The picture and its thumbnail, as files the JSON points to.
    const [picture] = tables.profile_pictures ?? [];
    const refs = [picture?.original, picture?.thumbnail] as { file: string }[];
    for (const ref of refs) {
      const bytes = files[ref.file];
      expect(bytes, ref.file).toBeDefined();
      const meta = await sharp(Buffer.from(bytes ?? [])).metadata();
      expect(meta.width).toBeGreaterThan(0);
    }

    // No credential, and nobody else.
    expect(text).not.toMatch(/password_hash|id_hash|code_hash|"secret"/);
    expect(tables.sessions?.[0]).not.toHaveProperty('id_hash');
    expect(text).not.toContain(other.username);
    expect(text).not.toContain(other.email);

    expect(html).toContain(`<title>Personal data of ${person.username}</title>`);
    expect(html).toContain('<h2>Profile (1)</h2>');
    expect(html).toMatch(/<img src="pictures\/profile_pictures-1-thumbnail\.\w+"/);

    const [entry] = await t.handle.db
      .select()
      .from(audits)
      .where(and(eq(audits.action, 'PERSONAL_DATA_EXPORTED'), eq(audits.recordCode, person.userCode)));
    expect(entry).toMatchObject({ collection: 'users', username: 'admin' });
    expect(entry?.after).toMatchObject({ rows: { users: 1, profiles: 1, employees: 1 } });
    expect(JSON.stringify(entry)).not.toContain(person.email);
  });

  it('finds the same person by their employee or profile code, and an employee without a user alone', async () => {
    const byEmployee = unzip(
      (await t.post('ExportPersonalData', { employeeCode: person.employeeCode }, admin)).rawPayload,
    );
    expect(byEmployee.data.person.userCode).toBe(person.userCode);
    const byProfile = unzip(
      (await t.post('ExportPersonalData', { profileCode: person.profileCode }, admin)).rawPayload,
    );
    expect(byProfile.data.person.userCode).toBe(person.userCode);
    expectError(
      await t.post('ExportPersonalData', { profileCode: 'PROFILE-NOPE' }, admin),
      404,
      'Profile not found',
    );

    const departmentCode = (
      await rowsOf<{ code: string }>(
        t.handle.db,
        sql`select department_code as code from departments limit 1`,
      )
    )[0]?.code;
    const unlinked = {
      code: expectOk(
        await t.post(
          'CreateEmployee',
          { employeeId: 'EMP-UNLINKED', name: 'Una Linked', departmentCode, joinDate: '2022-05-01' },
          admin,
        ),
        'Employee created successfully',
      ).data.employeeCode as string,
    };
    const alone = unzip(
      (await t.post('ExportPersonalData', { employeeCode: unlinked.code }, admin)).rawPayload,
    );
    expect(alone.data.person).toEqual({
      userCode: null,
      username: null,
      employeeCodes: [unlinked.code],
      profileCodes: [],
    });
    expect(alone.data.tables.users).toEqual([]);
    expect(alone.data.tables.employees?.map((r) => r.employee_code)).toEqual([unlinked.code]);
  });

  it('is refused without a session (401), without the permission (403) and for a bad or unknown person', async () => {
    expectError(await t.post('ExportPersonalData', { userCode: person.userCode }), 401, 'Not signed in');
    expectError(
      await t.post('ExportPersonalData', { userCode: person.userCode }, personCookie),
      403,
      'You do not have permission to do this',
    );
    const viewer = await t.userWith(['VIEW_USERS', 'VIEW_EMPLOYEES', 'VIEW_PROFILES']);
    expectError(
      await t.post('ExportPersonalData', { userCode: person.userCode }, viewer.cookie),
      403,
      'You do not have permission to do this',
    );
    const both = expectError(
      await t.post(
        'ExportPersonalData',
        { userCode: person.userCode, employeeCode: person.employeeCode },
        admin,
      ),
      400,
      'Invalid input',
    );
    expect(both.errors).toEqual([
      { field: '_', message: 'Give one of userCode, profileCode or employeeCode' },
    ]);
    expectError(await t.post('ExportPersonalData', {}, admin), 400, 'Invalid input');
    expectError(
      await t.post('ExportPersonalData', { userCode: 'x'.repeat(65) }, admin),
      400,
      'Invalid input',
    );
    expectError(await t.post('ExportPersonalData', { userCode: 'USER-NOPE' }, admin), 404, 'User not found');
    expectError(
      await t.post('ExportPersonalData', { employeeCode: 'EMP-NOPE' }, admin),
      404,
      'Employee not found',
    );
  });
});

describe('ExportMyPersonalData', () => {
  it("answers the signed-in person's own ZIP, whatever their role holds", async () => {
    const res = await t.post('ExportMyPersonalData', {}, personCookie);
    expect(res.statusCode, res.body).toBe(200);
    const { data } = unzip(res.rawPayload);
    expect(data.person.userCode).toBe(person.userCode);
    expect(data.tables.profiles?.map((r) => r.first_name)).toHaveLength(1);
    expectError(await t.post('ExportMyPersonalData', {}), 401, 'Not signed in');
  });
});
