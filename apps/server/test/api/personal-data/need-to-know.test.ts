import {
  detailFields,
  isDetailPath,
  ownerOf,
  RESOURCES,
  type ResourceDef,
  VIEW_PERSONAL_DATA,
} from '@wfc/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../../src/db/rows.ts';
import { DEMO_PASSWORD } from '../../../src/seed/catalogue.ts';
import { seedDemo } from '../../../src/seed/demo.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';

/**
 * Need-to-know fields: every answer about a person leaves out what their definitions mark
 * `detail` for a caller without VIEW_PERSONAL_DATA, except on the caller's own records. The
 * fields checked come from the definitions, never from a list written here.
 */

const t = sharedTestApp();
type Row = Record<string, unknown>;

/** The modules whose records have detail fields: users, profiles and employees. */
const PERSONAL = RESOURCES.filter((def) => detailFields(def).length > 0);
const READS = [
  'VIEW_USERS',
  'VIEW_PROFILES',
  'VIEW_EMPLOYEES',
  'VIEW_AUDITS',
  'UPDATE_USER',
  'UPDATE_PROFILE',
];

interface Person {
  userCode: string;
  username: string;
  phone: string;
  profileCode: string;
}
let me: Person;
let other: Person;
/** Signed in as `me`, whose role holds READS but not VIEW_PERSONAL_DATA. */
let mine: string;
/** A user holding READS and VIEW_PERSONAL_DATA. */
let full: string;

const fieldsOf = (def: ResourceDef, r: Row) => detailFields(def).filter((k) => k in r);

async function listOf(def: ResourceDef, cookie: string, query: Record<string, string | number> = {}) {
  const res = await t.get(def.endpoints.list, cookie, { limit: 100, ...query });
  return expectOk(res, def.messages.listed) as { data: Row[]; total: number };
}

beforeAll(async () => {
  await seedDemo(t.handle.db, { people: 6, days: 3, cityCountries: ['NZ'] });
  await t.settle();
  [me, other] = (await rowsOf<Person>(
    t.handle.db,
    sql`select u.user_code as "userCode", u.username, p.phone_number as phone, p.profile_code as "profileCode"
        from users u join employees e on e.user_code = u.user_code join profiles p on p.user_code = u.user_code
        where p.phone_number is not null
        order by u.username limit 2`,
  )) as [Person, Person];
  const role = await t.userWith(READS);
  await t.handle.db.execute(
    sql`update users set role_code = ${role.roleCode} where user_code = ${me.userCode}`,
  );
  await t.settle();
  mine = await t.login(me.username, DEMO_PASSWORD);
  full = (await t.userWith([...READS, VIEW_PERSONAL_DATA])).cookie;
  // Both have a session whose address and browser a user manager might look at.
  await t.login(other.username, DEMO_PASSWORD);
});

describe('without VIEW_PERSONAL_DATA', () => {
  it('lists every personal module without the detail fields, but for one’s own records', async () => {
    for (const def of PERSONAL) {
      const { data } = await listOf(def, mine);
      const own = data.filter((r) => ownerOf(def, r) === me.userCode);
      const others = data.filter((r) => ownerOf(def, r) !== me.userCode);
      expect(own.length, def.key).toBe(1);
      expect(others.length, def.key).toBeGreaterThan(1);
      for (const r of own) expect(fieldsOf(def, r), def.key).toEqual(detailFields(def));
      for (const r of others) expect(fieldsOf(def, r), def.key).toEqual([]);
      const all = await listOf(def, full);
      for (const r of all.data) expect(fieldsOf(def, r), def.key).toEqual(detailFields(def));
    }
  });

  it('views another person’s records without them, and one’s own with them', async () => {
    for (const def of PERSONAL) {
      const { data } = await listOf(def, full);
      const theirs = data.find((r) => ownerOf(def, r) === other.userCode) as Row;
      const own = data.find((r) => ownerOf(def, r) === me.userCode) as Row;
      const get = async (r: Row, cookie: string) =>
        expectOk(await t.post(def.endpoints.get, { [def.code]: r[def.code] }, cookie), def.messages.fetched)
          .data as Row;
      expect(fieldsOf(def, await get(theirs, mine)), def.key).toEqual([]);
      expect(fieldsOf(def, await get(own, mine)), def.key).toEqual(detailFields(def));
      expect(fieldsOf(def, await get(theirs, full)), def.key).toEqual(detailFields(def));
    }
  });

  it('exports without the hidden columns', async () => {
    for (const def of PERSONAL) {
      const hidden = def.exportColumns.filter((c) => isDetailPath(def, c.path)).map((c) => c.label);
      const header = async (cookie: string) => {
        const res = await t.get(def.endpoints.export, cookie);
        expect(res.statusCode, def.key).toBe(200);
        const first = res.body.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
        return first.split(',').map((label) => label.replace(/^"|"$/g, ''));
      };
      const partial = await header(mine);
      const whole = await header(full);
      for (const label of hidden) {
        expect(partial, def.key).not.toContain(label);
        expect(whole, def.key).toContain(label);
      }
      expect(partial.length, def.key).toBe(whole.length - hidden.length);
    }
  });

  it('neither sorts, filters nor searches by what it hides', async () => {
    const [profile, employee] = ['profile', 'employee'].map(
      (k) => PERSONAL.find((d) => d.key === k) as ResourceDef,
    ) as [ResourceDef, ResourceDef];
    expectError(
      await t.get(profile.endpoints.list, mine, { sortField: 'phoneNumber' }),
      400,
      'Invalid input',
    );
    expectOk(
      await t.get(profile.endpoints.list, full, { sortField: 'phoneNumber' }),
      profile.messages.listed,
    );
    const filter = employee.filters.find((f) => isDetailPath(employee, f.path));
    expect(filter).toBeDefined();
    const byDate = { [filter?.param ?? '']: '2000-01-01' };
    expectError(await t.get(employee.endpoints.list, mine, byDate), 400, 'Invalid input');
    expectOk(await t.get(employee.endpoints.list, full, byDate), employee.messages.listed);
    expect((await listOf(profile, mine, { keyword: other.phone })).total).toBe(0);
    expect((await listOf(profile, full, { keyword: other.phone })).total).toBeGreaterThan(0);
  });

  it('keeps the hidden fields as stored when it edits a record', async () => {
    const stored = async () =>
      (
        await rowsOf<Row>(
          t.handle.db,
          sql`select first_name, dob::text, gender_code, phone_number, address_line_one, country_code, city_code,
                linkedin, notify_email
              from profiles where profile_code = ${other.profileCode}`,
        )
      )[0] as Row;
    const before = await stored();
    const seen = expectOk(
      await t.post('GetProfileByCode', { profileCode: other.profileCode }, mine),
      'Profile fetched successfully',
    ).data as Row;
    const res = await t.postJson(
      'UpdateProfile',
      {
        profileCode: other.profileCode,
        firstName: 'Renamed',
        lastName: seen.lastName,
        // Sent for a field it cannot see: the stored value stays.
        phoneNumber: '+1 555 0100',
        version: seen.version,
      },
      mine,
    );
    const after = expectOk(res, 'Profile updated successfully').data as Row;
    expect(fieldsOf(PERSONAL.find((d) => d.key === 'profile') as ResourceDef, after)).toEqual([]);
    expect(await stored()).toEqual({ ...before, first_name: 'Renamed' });
  });

  it('reads audit entries about others without their detail fields', async () => {
    const profile = PERSONAL.find((d) => d.key === 'profile') as ResourceDef;
    const entries = async (cookie: string, userCode: string) => {
      const { data } = await listOf(RESOURCES.find((d) => d.key === 'audit') as ResourceDef, cookie, {
        collection: profile.listSegment,
      });
      return data.filter((e) => ownerOf(profile, e.after ?? e.before) === userCode);
    };
    // An entry about one's own profile: its details stay in sight.
    const own = expectOk(
      await t.post('GetProfileByCode', { profileCode: me.profileCode }, mine),
      'Profile fetched successfully',
    ).data as Row & { gender: { genderCode: string } };
    const body = {
      profileCode: me.profileCode,
      firstName: own.firstName,
      lastName: own.lastName,
      dob: own.dob,
      genderCode: own.gender.genderCode,
      phoneNumber: '+64 21 000 111',
      version: own.version,
    };
    expectOk(await t.postJson('UpdateProfile', body, mine), 'Profile updated successfully');
    const theirs = await entries(mine, other.userCode);
    expect(theirs.length).toBeGreaterThan(0);
    for (const e of theirs) {
      for (const part of [e.before, e.after]) if (part) expect(fieldsOf(profile, part as Row)).toEqual([]);
      for (const path of Object.keys((e.changes as Row | null) ?? {}))
        expect(isDetailPath(profile, path)).toBe(false);
      expect((e.after ?? e.before) as Row).toHaveProperty('firstName');
    }
    for (const e of await entries(mine, me.userCode)) {
      expect(fieldsOf(profile, (e.after ?? e.before) as Row)).toEqual(detailFields(profile));
    }
    for (const e of await entries(full, other.userCode)) {
      expect(fieldsOf(profile, (e.after ?? e.before) as Row)).toEqual(detailFields(profile));
    }
  });

  it('lists another user’s sessions without their addresses and browsers', async () => {
    // A user within both callers' reach (delegation), signed in once.
    const target = await t.userWith([]);
    const sessions = async (cookie: string) =>
      expectOk(
        await t.post('GetSessionsByUserCode', { userCode: target.userCode }, cookie),
        'Sessions fetched successfully',
      ).data as Row[];
    const partial = await sessions(mine);
    expect(partial.length).toBeGreaterThan(0);
    for (const s of partial) {
      expect(s).not.toHaveProperty('ipAddress');
      expect(s).not.toHaveProperty('userAgent');
    }
    for (const s of await sessions(full)) expect(s).toHaveProperty('ipAddress');
  });
});
