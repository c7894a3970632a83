import { RESOURCES } from '@wfc/contract';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { audits, genders, roles } from '../../../src/db/schema/index.ts';
import { sharedDemoApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';

/*
 * Optimistic concurrency, once in the engine for every entity: a write that names the version it
 * read is refused with 409 when the record has moved on, and changes nothing; a write that names
 * none behaves as it always did.
 */

const t = sharedDemoApp();

async function auditCount(collection: string, code: string) {
  const [r] = await t.handle.db
    .select({ n: count() })
    .from(audits)
    .where(and(eq(audits.collection, collection), eq(audits.recordCode, code)));
  return Number(r?.n ?? 0);
}

const STALE =
  /^This gender was changed by admin at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC since you opened it$/;

describe('a record version', () => {
  it('starts at 1, grows by one with every update, and is answered by lists, views and writes', async () => {
    const created = expectOk(
      await t.post('CreateGender', { genderName: 'Agender' }, t.admin),
      'Gender created successfully',
    );
    expect(created.data.version).toBe(1);
    const code: string = created.data.genderCode;
    const updated = expectOk(
      await t.post('UpdateGender', { genderCode: code, genderName: 'Agender 2', version: 1 }, t.admin),
      'Gender updated successfully',
    );
    expect(updated.data.version).toBe(2);
    const view = (await t.post('GetGenderByCode', { genderCode: code }, t.admin)).json();
    expect(view.data.version).toBe(2);
    const list = (await t.get('GetGenders', t.admin, { keyword: 'Agender' })).json();
    expect(list.data.map((g: { version: number }) => g.version)).toEqual([2]);
    const [row] = await t.handle.db
      .select({ version: genders.version })
      .from(genders)
      .where(eq(genders.genderCode, code));
    expect(row?.version).toBe(2);
  });

  it('refuses a stale update with 409, the current record and nothing changed', async () => {
    const { data } = (await t.post('CreateGender', { genderName: 'Bigender' }, t.admin)).json();
    const code: string = data.genderCode;
    expectOk(
      await t.post('UpdateGender', { genderCode: code, genderName: 'Theirs', version: 1 }, t.admin),
      'Gender updated successfully',
    );
    const auditsBefore = await auditCount('genders', code);

    const stale = await t.post('UpdateGender', { genderCode: code, genderName: 'Mine', version: 1 }, t.admin);
    const body = expectError(stale, 409, stale.json().message);
    expect(body.message).toMatch(STALE);
    expect(body.data).toMatchObject({ genderCode: code, genderName: 'Theirs', version: 2 });

    const [row] = await t.handle.db.select().from(genders).where(eq(genders.genderCode, code));
    expect(row).toMatchObject({ genderName: 'Theirs', version: 2 });
    expect(await auditCount('genders', code)).toBe(auditsBefore);
  });

  it('keeps working without a version: the last write wins, as before', async () => {
    const { data } = (await t.post('CreateGender', { genderName: 'Demigender' }, t.admin)).json();
    await t.post('UpdateGender', { genderCode: data.genderCode, genderName: 'First' }, t.admin);
    const second = expectOk(
      await t.post('UpdateGender', { genderCode: data.genderCode, genderName: 'Second' }, t.admin),
      'Gender updated successfully',
    );
    expect(second.data).toMatchObject({ genderName: 'Second', version: 3 });
  });

  it('refuses a stale delete with 409 and keeps the record; a current one deletes', async () => {
    const { data } = (await t.post('CreateGender', { genderName: 'Neutrois' }, t.admin)).json();
    const code: string = data.genderCode;
    await t.post('UpdateGender', { genderCode: code, genderName: 'Neutrois 2', version: 1 }, t.admin);
    const stale = await t.post('DeleteGender', { genderCode: code, version: 1 }, t.admin);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(STALE);
    expect(stale.json().data).toMatchObject({ genderCode: code, version: 2 });
    expect(await t.handle.db.select().from(genders).where(eq(genders.genderCode, code))).toHaveLength(1);

    expectOk(
      await t.post('DeleteGender', { genderCode: code, version: 2 }, t.admin),
      'Gender deleted successfully',
    );
    expect(await t.handle.db.select().from(genders).where(eq(genders.genderCode, code))).toHaveLength(0);
  });

  it('tells a writer whose record was deleted meanwhile, with no record; without a version it is a 404', async () => {
    const { data } = (await t.post('CreateGender', { genderName: 'Pangender' }, t.admin)).json();
    const code: string = data.genderCode;
    await t.post('DeleteGender', { genderCode: code }, t.admin);
    const update = await t.post(
      'UpdateGender',
      { genderCode: code, genderName: 'Mine', version: 1 },
      t.admin,
    );
    expect(update.statusCode).toBe(409);
    expect(update.json().message).toMatch(
      /^This gender was deleted by admin at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC since you opened it$/,
    );
    expect(update.json().data).toBeNull();
    expect('data' in update.json()).toBe(true);
    const del = await t.post('DeleteGender', { genderCode: code, version: 1 }, t.admin);
    expect(del.statusCode).toBe(409);
    expectError(
      await t.post('UpdateGender', { genderCode: code, genderName: 'Mine' }, t.admin),
      404,
      'Gender not found',
    );
  });

  it('names the other user who changed it', async () => {
    const manager = await t.userWith(['UPDATE_ROLE', 'VIEW_ROLES', 'VIEW_PERMISSIONS']);
    const { data } = (await t.post('CreateRole', { roleName: 'Shift leads' }, t.admin)).json();
    const code: string = data.roleCode;
    expectOk(
      await t.post(
        'UpdateRole',
        { roleCode: code, roleName: 'Shift leads', roleDescription: 'Theirs', version: 1 },
        manager.cookie,
      ),
      'Role updated successfully',
    );
    const stale = await t.post('UpdateRole', { roleCode: code, roleName: 'Mine', version: 1 }, t.admin);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(
      new RegExp(
        `^This role was changed by ${manager.username.replace('.', '\\.')} at .+ UTC since you opened it$`,
      ),
    );
    expect(stale.json().data).toMatchObject({ roleDescription: 'Theirs', version: 2 });
    const [row] = await t.handle.db.select().from(roles).where(eq(roles.roleCode, code));
    expect(row).toMatchObject({ roleName: 'Shift leads', version: 2 });
  });

  it("counts a change of related rows only (a role's permissions) as a new version", async () => {
    const { data } = (await t.post('CreateRole', { roleName: 'Auditors' }, t.admin)).json();
    const perms = (await t.get('GetPermissions', t.admin, { limit: 2 })).json().data;
    const updated = expectOk(
      await t.post(
        'UpdateRole',
        {
          roleCode: data.roleCode,
          roleName: 'Auditors',
          rolePermissions: [perms[0].permissionCode],
          version: 1,
        },
        t.admin,
      ),
      'Role updated successfully',
    );
    expect(updated.data.version).toBe(2);
  });

  it('refuses a version that is not a whole number of at least 1 with 400 on version', async () => {
    const { data } = (await t.post('CreateGender', { genderName: 'Genderfluid' }, t.admin)).json();
    for (const version of ['0', '-1', '1.5', 'two']) {
      const res = await t.post(
        'UpdateGender',
        { genderCode: data.genderCode, genderName: 'X', version },
        t.admin,
      );
      expect(res.statusCode, version).toBe(400);
      expect(res.json().errors).toEqual([
        { field: 'version', message: 'Version must be a whole number of at least 1' },
      ]);
      const del = await t.post('DeleteGender', { genderCode: data.genderCode, version }, t.admin);
      expect(del.statusCode, version).toBe(400);
    }
  });
});

describe.each(RESOURCES.filter((def) => def.endpoints.delete).map((def) => [def.label, def] as const))(
  '%s',
  (_label, def) => {
    it('refuses a stale delete with 409 and the current record, deleting nothing', async () => {
      const [record] = (await t.get(def.endpoints.list, t.admin, { limit: 1 })).json().data;
      const code: string = record[def.code];
      const endpoint = def.endpoints.delete ?? '';
      const res = await t.post(endpoint, { [def.code]: code, version: record.version + 1 }, t.admin);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toMatch(new RegExp(`^This ${def.label.toLowerCase()} was changed by `));
      expect(res.json().data).toMatchObject({ [def.code]: code, version: record.version });
      const after = (await t.post(def.endpoints.get, { [def.code]: code }, t.admin)).json();
      expect(after.statusCode).toBe(200);
    });
  },
);
