import { USER_ACTIVE_MESSAGES } from '@wfc/contract';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rolePermissions, roles, users } from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { loginCookie } from '../../support/requests.ts';
import type { SignedInUser } from '../../support/users.ts';
import { permissionCodes } from '../registry/support.ts';
import { csvOf, startImport } from './support.ts';

/*
 * Delegation holds for imported users and roles as it does for the forms (docs/security.md,
 * "Delegation"): a row that gives what its importer does not hold is an error of that row, at its
 * column, in the words the form's API uses; a commit writes none of the file unless told to skip
 * such rows, and then writes only the others.
 */

const t = sharedTestApp();
let admin: string;
/** A user manager who may also make roles, holding little else. */
let manager: SignedInUser;
let readersRole: string;

const HELD = [
  'CREATE_USER',
  'UPDATE_USER',
  'VIEW_USERS',
  'CREATE_ROLE',
  'UPDATE_ROLE',
  'VIEW_ROLES',
  'VIEW_SKILLS',
];
const PASSWORD = 'Imported-pass-4821';
const ASSIGN = 'You cannot assign a role with permissions you do not hold';
const GRANT = 'You cannot grant permissions you do not hold';
const OWN_ROLE = 'You cannot change your own role';

async function roleWith(roleName: string, permissionNames: string[]) {
  const rolePermissionCodes = await permissionCodes(t, ...permissionNames);
  return expectOk(
    await t.postJson('CreateRole', { roleName, rolePermissions: rolePermissionCodes }, admin),
    'Role created successfully',
  ).data.roleCode as string;
}

/** Every user and role with its permissions: what a refused commit must leave as it was. */
async function state() {
  const db = t.handle.db;
  return {
    users: await db.select().from(users).orderBy(asc(users.id)),
    roles: await db.select().from(roles).orderBy(asc(roles.id)),
    links: await db
      .select()
      .from(rolePermissions)
      .orderBy(asc(rolePermissions.roleCode), asc(rolePermissions.permissionCode)),
  };
}

const usersFile = (rows: string[][]) => csvOf([['Username', 'Email', 'Password', 'Role', 'Active'], ...rows]);

async function preview(cookie: string, module: string, data: Buffer) {
  const res = await startImport(t, cookie, { module, mode: 'upsert' }, { name: `${module}.csv`, data });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

beforeAll(async () => {
  admin = await t.login();
  manager = await t.userWith(HELD);
  readersRole = await roleWith('Skill readers', ['VIEW_SKILLS']);
  await roleWith('Auditors', ['VIEW_AUDITS', 'VIEW_USERS']);
});

describe('importing users within delegation', () => {
  it('refuses a role the importer may not give at the Role column, in the form’s words', async () => {
    // The form's API, for the same row.
    const form = await t.post(
      'register',
      {
        username: 'form-try',
        email: 'form-try@example.com',
        password: PASSWORD,
        roleCode: await auditorsCode(),
      },
      manager.cookie,
    );
    expectError(form, 403, ASSIGN);

    const file = usersFile([
      ['ines', 'ines@example.com', PASSWORD, 'Skill readers', ''],
      ['jon', 'jon@example.com', PASSWORD, 'Auditors', ''],
      ['kai', 'kai@example.com', PASSWORD, 'skill readers', 'true'],
    ]);
    const checked = await preview(manager.cookie, 'user', file);
    expect(checked.mapping).toEqual(['username', 'email', 'password', 'roleCode', 'active']);
    expect(checked.counts).toMatchObject({ rows: 3, create: 2, errors: 1 });
    expect(checked.errors).toEqual([{ row: 3, column: 'Role', message: ASSIGN }]);
    expect(checked.sample[1]).toMatchObject({ row: 3, action: 'error' });

    const before = await state();
    const refused = await t.post('CommitImport', { importCode: checked.importCode }, manager.cookie);
    expect(refused.statusCode).toBe(400);
    expect(await state()).toEqual(before);

    const skipped = await t.post(
      'CommitImport',
      { importCode: checked.importCode, skipErrors: true },
      manager.cookie,
    );
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(skipped.json().data).toMatchObject({ status: 'committed', counts: { create: 2, skipped: 1 } });
    const written = await t.handle.db
      .select({ username: users.username, roleCode: users.roleCode, active: users.active })
      .from(users)
      .where(eq(users.roleCode, readersRole))
      .orderBy(users.username);
    expect(written).toEqual([
      { username: 'ines', roleCode: readersRole, active: true },
      { username: 'kai', roleCode: readersRole, active: true },
    ]);
    expect(await t.handle.db.select().from(users).where(eq(users.username, 'jon'))).toHaveLength(0);
  });

  it('hashes an imported password: the user signs in with it', async () => {
    const checked = await preview(
      manager.cookie,
      'user',
      usersFile([['lena', 'lena@example.com', PASSWORD, 'Skill readers', '']]),
    );
    expect(checked.counts).toMatchObject({ create: 1, errors: 0 });
    // The preview never shows it.
    expect(checked.sample[0].values.password).toBe('••••••');
    expectOk(
      await t.post('CommitImport', { importCode: checked.importCode }, manager.cookie),
      'Import committed',
    );
    const [stored] = await t.handle.db.select().from(users).where(eq(users.username, 'lena'));
    expect(stored?.passwordHash).toMatch(/^\$argon2/);
    expect(stored?.passwordHash).not.toContain(PASSWORD);
    // Signing in answers 200 with a session cookie, or throws.
    expect(await loginCookie(t.app, 'lena', PASSWORD)).toMatch(/sid=/);
  });

  it('lets nobody change their own role or disable themselves', async () => {
    const own = (await t.handle.db.select().from(users).where(eq(users.userCode, manager.userCode)))[0];
    const ownRole = (
      await t.handle.db
        .select()
        .from(roles)
        .where(eq(roles.roleCode, own?.roleCode ?? ''))
    )[0];
    const roleChange = await preview(
      manager.cookie,
      'user',
      usersFile([[manager.username, `${manager.username}@example.com`, '', 'Skill readers', '']]),
    );
    expect(roleChange.errors).toEqual([{ row: 2, column: 'Role', message: OWN_ROLE }]);

    const disable = await preview(
      manager.cookie,
      'user',
      usersFile([
        [manager.username, `${manager.username}@example.com`, '', ownRole?.roleName ?? '', 'false'],
      ]),
    );
    expect(disable.errors).toEqual([{ row: 2, column: 'Active', message: USER_ACTIVE_MESSAGES.self }]);

    // The Administrator neither disables themselves.
    const adminDisable = await preview(
      admin,
      'user',
      csvOf([
        ['Username', 'Active'],
        ['admin', 'No'],
      ]),
    );
    expect(adminDisable.errors).toEqual([{ row: 2, column: 'Active', message: USER_ACTIVE_MESSAGES.self }]);

    const before = await state();
    for (const checked of [roleChange, disable]) {
      expect(
        (await t.post('CommitImport', { importCode: checked.importCode }, manager.cookie)).statusCode,
      ).toBe(400);
    }
    expect((await t.post('CommitImport', { importCode: adminDisable.importCode }, admin)).statusCode).toBe(
      400,
    );
    expect(await state()).toEqual(before);
  });

  it('answers 403 to an importer without CREATE_USER', async () => {
    const roleMaker = await t.userWith(['CREATE_ROLE', 'UPDATE_USER', 'VIEW_USERS']);
    const file = usersFile([['mira', 'mira@example.com', PASSWORD, 'Skill readers', '']]);
    for (const mode of ['create', 'upsert', 'update']) {
      const res = await startImport(
        t,
        roleMaker.cookie,
        { module: 'user', mode },
        { name: 'u.csv', data: file },
      );
      expect(res.statusCode).toBe(403);
    }
    expect(await t.handle.db.select().from(users).where(eq(users.username, 'mira'))).toHaveLength(0);
  });
});

describe('importing roles within delegation', () => {
  it('refuses a permission the importer does not hold at the Permissions column', async () => {
    const [auditsCode] = await permissionCodes(t, 'VIEW_AUDITS');
    const form = await t.postJson(
      'CreateRole',
      { roleName: 'Form auditors', rolePermissions: [auditsCode] },
      manager.cookie,
    );
    expectError(form, 403, GRANT);

    const file = csvOf([
      ['Role Name', 'Role Description', 'Permissions'],
      ['Skill and user readers', 'Reads skills and users', 'VIEW_SKILLS; VIEW_USERS'],
      ['Log readers', 'Reads the audit log', 'VIEW_SKILLS; VIEW_AUDITS'],
      // Widening a role the importer could not have made is refused too.
      ['Skill readers', '', 'VIEW_SKILLS; VIEW_AUDITS'],
    ]);
    const checked = await preview(manager.cookie, 'role', file);
    expect(checked.counts).toMatchObject({ rows: 3, create: 1, update: 0, errors: 2 });
    expect(checked.errors).toEqual([
      { row: 3, column: 'Permissions', message: GRANT },
      { row: 4, column: 'Permissions', message: GRANT },
    ]);

    const before = await state();
    expect(
      (await t.post('CommitImport', { importCode: checked.importCode }, manager.cookie)).statusCode,
    ).toBe(400);
    expect(await state()).toEqual(before);

    const skipped = await t.post(
      'CommitImport',
      { importCode: checked.importCode, skipErrors: true },
      manager.cookie,
    );
    expect(skipped.json().data).toMatchObject({ status: 'committed', counts: { create: 1, skipped: 2 } });
    const names = (await t.handle.db.select({ name: roles.roleName }).from(roles)).map((r) => r.name);
    expect(names).toContain('Skill and user readers');
    expect(names).not.toContain('Log readers');
    const readers = await t.handle.db
      .select()
      .from(rolePermissions)
      .where(eq(rolePermissions.roleCode, readersRole));
    expect(readers).toHaveLength(1);
  });
});

async function auditorsCode() {
  const [row] = await t.handle.db.select().from(roles).where(eq(roles.roleName, 'Auditors'));
  return row?.roleCode ?? '';
}
