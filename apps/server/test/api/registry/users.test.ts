import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { newCode } from '../../../src/db/codes.ts';
import { audits, employees, sessions, users } from '../../../src/db/schema/index.ts';
import { ADMIN_PASSWORD, sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { USER_PASSWORD } from '../../support/users.ts';
import { auditsOf, expectNoSecrets, type Json, lastAudit, names } from './support.ts';

const t = sharedTestApp();
let admin: string;
let adminRoleCode: string;
let plainRoleCode: string;

const GOOD_PASSWORD = 'correct-horse-42';

beforeAll(async () => {
  admin = await t.login();
  const [row] = await t.handle.db.select().from(users).where(eq(users.username, 'admin'));
  adminRoleCode = row!.roleCode;
  plainRoleCode = (await t.post('CreateRole', { roleName: 'Plain' }, admin)).json().data.roleCode;
});

const register = (body: Json, cookie = admin) => t.post('register', body, cookie);

async function registered(username: string, roleCode = plainRoleCode) {
  const res = await register({
    username,
    email: `${username}@example.com`,
    password: GOOD_PASSWORD,
    roleCode,
  });
  return expectOk(res, 'User created successfully').data as Json;
}

const storedUser = async (userCode: string) =>
  (await t.handle.db.select().from(users).where(eq(users.userCode, userCode)))[0];

describe('register', () => {
  it('creates a user, hashes the password, answers without it and audits without it', async () => {
    const res = await register({
      username: ' grace ',
      email: 'Grace@Example.com',
      password: GOOD_PASSWORD,
      roleCode: plainRoleCode,
    });
    const body = expectOk(res, 'User created successfully');
    expect(body.data).toEqual({
      userCode: expect.stringMatching(/^USER-[0-9A-Z]{16}$/),
      username: 'grace',
      email: 'Grace@Example.com',
      role: { roleCode: plainRoleCode, roleName: 'Plain' },
      active: true,
      externalId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    expectNoSecrets(res.body);
    const row = await storedUser(body.data.userCode);
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain(GOOD_PASSWORD);

    const audit = await lastAudit(t, 'users');
    expect(audit).toMatchObject({ action: 'CREATE', before: null, after: body.data, username: 'admin' });
    expect(audit.changes).toMatchObject({
      username: { old: null, new: 'grace' },
      'role.roleName': { old: null, new: 'Plain' },
    });
    expectNoSecrets(audit);

    expect((await t.login('grace', GOOD_PASSWORD)).length).toBeGreaterThan(0);
  });

  it('names every missing field', async () => {
    const res = expectError(await register({}), 400, 'Invalid input');
    expect(res.errors).toEqual([
      { field: 'username', message: 'Username is required' },
      { field: 'email', message: 'Email is required' },
      { field: 'password', message: 'Password is required' },
      { field: 'roleCode', message: 'Role is required' },
    ]);
  });

  it.each([
    ['', 'Username is required'],
    ['   ', 'Username is required'],
    ['ab', 'Username must be at least 3 characters'],
  ])('names an empty username as missing, a short one as short (%j)', async (username, message) => {
    const res = expectError(
      await register({
        username,
        email: 'empty@example.com',
        password: GOOD_PASSWORD,
        roleCode: plainRoleCode,
      }),
      400,
      'Invalid input',
    );
    expect(res.errors).toEqual([{ field: 'username', message }]);
  });

  it.each([
    ['short1', 'Password must be at least 12 characters'],
    ['ALLUPPERCASE123', 'Password must contain a lowercase letter'],
    ['no-digits-at-all', 'Password must contain a number'],
  ])('enforces the password rules (%s)', async (password, message) => {
    const res = expectError(
      await register({ username: 'weak', email: 'weak@example.com', password, roleCode: plainRoleCode }),
      400,
      'Invalid input',
    );
    expect(res.errors).toContainEqual({ field: 'password', message });
    expect(await t.handle.db.select().from(users).where(eq(users.username, 'weak'))).toEqual([]);
  });

  it('refuses a bad email, a bad username and an unknown role', async () => {
    const res = expectError(
      await register({
        username: 'a b',
        email: 'not-an-email',
        password: GOOD_PASSWORD,
        roleCode: 'ROLE-NONE',
      }),
      400,
      'Invalid input',
    );
    expect(res.errors).toEqual([
      { field: 'username', message: 'Username may hold letters, digits, dots, dashes and underscores only' },
      { field: 'email', message: 'Email must be a valid email address' },
    ]);
    const role = expectError(
      await register({
        username: 'norole',
        email: 'norole@example.com',
        password: GOOD_PASSWORD,
        roleCode: 'ROLE-NONE',
      }),
      400,
      'Invalid input',
    );
    expect(role.errors).toEqual([{ field: 'roleCode', message: 'Role not found' }]);
  });

  it('refuses a taken username or email whatever the case (409)', async () => {
    await registered('taken');
    const name = expectError(
      await register({
        username: 'TAKEN',
        email: 'other@example.com',
        password: GOOD_PASSWORD,
        roleCode: plainRoleCode,
      }),
      409,
      'This username is already taken',
    );
    expect(name.errors).toEqual([{ field: 'username', message: 'This username is already taken' }]);
    const email = expectError(
      await register({
        username: 'other',
        email: 'TAKEN@example.com',
        password: GOOD_PASSWORD,
        roleCode: plainRoleCode,
      }),
      409,
      'This email is already in use',
    );
    expect(email.errors).toEqual([{ field: 'email', message: 'This email is already in use' }]);
    expect(await t.handle.db.select().from(users).where(eq(users.username, 'other'))).toEqual([]);
  });

  it('needs a session and CREATE_USER', async () => {
    const body = {
      username: 'creatorsmade',
      email: 'creatorsmade@example.com',
      password: GOOD_PASSWORD,
      roleCode: plainRoleCode,
    };
    expectError(await register(body, ''), 401, 'Not signed in');
    const viewer = await t.userWith(['VIEW_USERS']);
    expectError(await register(body, viewer.cookie), 403, 'You do not have permission to do this');
    const creator = await t.userWith(['CREATE_USER']);
    expectOk(await register(body, creator.cookie), 'User created successfully');
  });
});

describe('GetUsers and GetUserById', () => {
  it('finds users by the role name, sorts by it, pages, and gives codes only with populate=false', async () => {
    const roleA = (await t.post('CreateRole', { roleName: 'Aardvark keepers' }, admin)).json().data.roleCode;
    const roleZ = (await t.post('CreateRole', { roleName: 'Zebra keepers' }, admin)).json().data.roleCode;
    await registered('keeper-z', roleZ);
    await registered('keeper-a', roleA);
    const found = expectOk(
      await t.get('GetUsers', admin, { keyword: 'KEEPERS', sortField: 'role.roleName', sortValue: 'asc' }),
      'Users fetched successfully',
    );
    expect(found.total).toBe(2);
    expect(names(found.data, 'username')).toEqual(['keeper-a', 'keeper-z']);
    const desc = (
      await t.get('GetUsers', admin, { keyword: 'keepers', sortField: 'role.roleName', sortValue: 'desc' })
    ).json();
    expect(names(desc.data, 'username')).toEqual(['keeper-z', 'keeper-a']);
    const byEmail = (await t.get('GetUsers', admin, { keyword: 'keeper-a@EXAMPLE' })).json();
    expect(names(byEmail.data, 'username')).toEqual(['keeper-a']);

    const bare = (await t.get('GetUsers', admin, { keyword: 'keeper-a', populate: 'false' })).json();
    expect(bare.data[0].role).toEqual({ roleCode: roleA });

    const page1 = (
      await t.get('GetUsers', admin, { limit: 2, page: 1, sortField: 'username', sortValue: 'asc' })
    ).json();
    const page2 = (
      await t.get('GetUsers', admin, { limit: 2, page: 2, sortField: 'username', sortValue: 'asc' })
    ).json();
    expect(page1.total).toBe(page2.total);
    expect(page1.data).toHaveLength(2);
    expect(names(page1.data, 'username')).not.toContain(page2.data[0].username);
    const beyond = (await t.get('GetUsers', admin, { limit: 2, page: 999 })).json();
    expect(beyond).toMatchObject({ statusCode: 200, data: [], total: page1.total });

    const bad = expectError(
      await t.get('GetUsers', admin, { sortField: 'passwordHash' }),
      400,
      'Invalid input',
    );
    expect(bad.errors).toEqual([{ field: 'sortField', message: "Cannot sort by 'passwordHash'" }]);
    expectNoSecrets((await t.get('GetUsers', admin, { limit: 100 })).body);
  });

  it('gives a user by code, 404 for an unknown one, 400 without a code', async () => {
    const u = await registered('byid');
    const res = expectOk(
      await t.post('GetUserById', { userCode: u.userCode }, admin),
      'User fetched successfully',
    );
    expect(res.data).toEqual(u);
    expectNoSecrets(res);
    expectError(await t.post('GetUserById', { userCode: 'USER-NOPE' }, admin), 404, 'User not found');
    const missing = expectError(await t.post('GetUserById', {}, admin), 400, 'Invalid input');
    expect(missing.errors).toEqual([{ field: 'userCode', message: 'userCode is required' }]);
    const nobody = await t.userWith([]);
    expectError(
      await t.post('GetUserById', { userCode: u.userCode }, nobody.cookie),
      403,
      'You do not have permission to do this',
    );
  });

  it('lets an employee form list users as codes and names, without emails to search', async () => {
    await registered('selectable');
    const hr = await t.userWith(['CREATE_EMPLOYEE']);
    const res = expectOk(
      await t.get('GetUsers', hr.cookie, { keyword: 'selectable' }),
      'Users fetched successfully',
    );
    expect(res.data).toEqual([{ userCode: expect.any(String), username: 'selectable' }]);
    const byEmail = (await t.get('GetUsers', hr.cookie, { keyword: 'selectable@example.com' })).json();
    expect(byEmail.total).toBe(0);
    expectError(await t.get('GetUsers', hr.cookie, { sortField: 'email' }), 400, 'Invalid input');
  });
});

describe('UpdateUser', () => {
  it('changes fields, keeps the password when it is empty, and audits the diff', async () => {
    const u = await registered('editme');
    const res = await t.post(
      'UpdateUser',
      {
        userCode: u.userCode,
        username: 'edited',
        email: 'edited@example.com',
        password: '',
        roleCode: adminRoleCode,
      },
      admin,
    );
    const body = expectOk(res, 'User updated successfully');
    expect(body.data).toMatchObject({
      userCode: u.userCode,
      username: 'edited',
      email: 'edited@example.com',
      role: { roleCode: adminRoleCode, roleName: 'Administrator' },
    });
    expectNoSecrets(res.body);
    expect((await t.login('edited', GOOD_PASSWORD)).length).toBeGreaterThan(0);

    const audit = await lastAudit(t, 'users');
    expect(audit).toMatchObject({ action: 'UPDATE', before: u, after: body.data });
    expect(audit.changes).toEqual({
      username: { old: 'editme', new: 'edited' },
      email: { old: 'editme@example.com', new: 'edited@example.com' },
      'role.roleCode': { old: plainRoleCode, new: adminRoleCode },
      'role.roleName': { old: 'Plain', new: 'Administrator' },
    });

    const omitted = {
      userCode: u.userCode,
      username: 'edited',
      email: 'edited@example.com',
      roleCode: plainRoleCode,
    };
    expectOk(await t.post('UpdateUser', omitted, admin), 'User updated successfully');
    expect((await t.login('edited', GOOD_PASSWORD)).length).toBeGreaterThan(0);
  });

  it('enforces the password rules on a new password and refuses unknown users', async () => {
    const u = await registered('rules');
    const res = expectError(
      await t.post('UpdateUser', { ...u, roleCode: plainRoleCode, password: 'short' }, admin),
      400,
      'Invalid input',
    );
    expect(res.errors).toContainEqual({
      field: 'password',
      message: 'Password must be at least 12 characters',
    });
    expectError(
      await t.post(
        'UpdateUser',
        { userCode: 'USER-NOPE', username: 'n', email: 'n@example.com', roleCode: plainRoleCode },
        admin,
      ),
      400,
      'Invalid input',
    );
    expectError(
      await t.post(
        'UpdateUser',
        { userCode: 'USER-NOPE', username: 'nobody', email: 'n@example.com', roleCode: plainRoleCode },
        admin,
      ),
      404,
      'User not found',
    );
    const taken = expectError(
      await t.post(
        'UpdateUser',
        { userCode: u.userCode, username: 'ADMIN', email: 'rules@example.com', roleCode: plainRoleCode },
        admin,
      ),
      409,
      'This username is already taken',
    );
    expect(taken.errors).toEqual([{ field: 'username', message: 'This username is already taken' }]);
    expect((await storedUser(u.userCode as string))!.username).toBe('rules');
  });

  it("a new password ends the user's sessions and keeps the editor's; one's own is refused here", async () => {
    const self = await t.userWith(['UPDATE_USER'], { username: 'selfedit' });
    const other = await t.login('selfedit', USER_PASSWORD);
    const roleCode = self.roleCode;
    const res = await t.post(
      'UpdateUser',
      {
        userCode: self.userCode,
        username: 'selfedit',
        email: 'selfedit@example.com',
        password: 'brand-new-pass-7',
        roleCode,
      },
      self.cookie,
    );
    expectError(res, 403, 'Change your own password in My account, which asks for the current one');
    expectOk(await t.get('GetSession', self.cookie), 'Session fetched successfully');
    expectOk(await t.get('GetSession', other), 'Session fetched successfully');
    expect((await t.login('selfedit', USER_PASSWORD)).length).toBeGreaterThan(0);

    const target = await registered('target');
    const c1 = await t.login('target', GOOD_PASSWORD);
    const c2 = await t.login('target', GOOD_PASSWORD);
    await t.post('UpdateUser', { ...target, roleCode: plainRoleCode, password: 'another-pass-99' }, admin);
    expectError(await t.get('GetSession', c1), 401, 'Not signed in');
    expectError(await t.get('GetSession', c2), 401, 'Not signed in');
    expectOk(await t.get('GetSession', admin), 'Session fetched successfully');
    const after = await t.handle.db
      .select()
      .from(sessions)
      .where(eq(sessions.userCode, target.userCode as string));
    expect(after).toEqual([]);
    // The records say that a password changed (passwordChanged), never what it became.
    const audited = JSON.stringify(await auditsOf(t, 'users'));
    for (const secret of ['brand-new-pass-7', 'another-pass-99', USER_PASSWORD, '$argon2', 'passwordHash'])
      expect(audited).not.toContain(secret);
  });

  it('refuses to demote the last user who can manage roles', async () => {
    const adminRow = (await t.handle.db.select().from(users).where(eq(users.username, 'admin')))[0]!;
    const managers = await t.handle.db.select().from(users).where(eq(users.roleCode, adminRoleCode));
    expect(managers.map((m) => m.username)).toEqual(['admin']);
    const res = await t.post(
      'UpdateUser',
      { userCode: adminRow.userCode, username: 'admin', email: adminRow.email, roleCode: plainRoleCode },
      admin,
    );
    expectError(res, 409, 'This change would leave no user who can manage roles');
    expect((await storedUser(adminRow.userCode))!.roleCode).toBe(adminRoleCode);
    const auditCount = (await auditsOf(t, 'users')).length;

    const deputy = await registered('deputy', adminRoleCode);
    expectOk(
      await t.post(
        'UpdateUser',
        { userCode: adminRow.userCode, username: 'admin', email: adminRow.email, roleCode: plainRoleCode },
        admin,
      ),
      'User updated successfully',
    );
    expect((await auditsOf(t, 'users')).length).toBe(auditCount + 2);
    // Put things back for the other tests.
    const deputyCookie = await t.login('deputy', GOOD_PASSWORD);
    expectOk(
      await t.post(
        'UpdateUser',
        { userCode: adminRow.userCode, username: 'admin', email: adminRow.email, roleCode: adminRoleCode },
        deputyCookie,
      ),
      'User updated successfully',
    );
    expectOk(await t.post('DeleteUser', { userCode: deputy.userCode }, admin), 'User deleted successfully');
  });
});

describe('DeleteUser', () => {
  it('deletes the user, ends their sessions and audits the record', async () => {
    const u = await registered('leaver');
    const cookie = await t.login('leaver', GOOD_PASSWORD);
    expectOk(await t.get('GetSession', cookie), 'Session fetched successfully');
    const res = expectOk(
      await t.post('DeleteUser', { userCode: u.userCode }, admin),
      'User deleted successfully',
    );
    expect(res.data).toEqual(u);
    expect(await storedUser(u.userCode as string)).toBeUndefined();
    expect(
      await t.handle.db
        .select()
        .from(sessions)
        .where(eq(sessions.userCode, u.userCode as string)),
    ).toEqual([]);
    expectError(await t.get('GetSession', cookie), 401, 'Not signed in');
    const audit = await lastAudit(t, 'users');
    expect(audit).toMatchObject({ action: 'DELETE', before: u, after: null });
    expect(audit.changes).toMatchObject({ username: { old: 'leaver', new: null } });
    expectError(await t.post('DeleteUser', { userCode: u.userCode }, admin), 404, 'User not found');
  });

  it('refuses while an employee refers to the user, and deletes nothing', async () => {
    const u = await registered('employed');
    const dept = (await t.post('CreateDepartment', { name: 'Ops' }, admin)).json().data.departmentCode;
    await t.handle.db.insert(employees).values({
      employeeCode: newCode('EMP-'),
      employeeId: 'E-1',
      name: 'Employed Person',
      departmentCode: dept,
      joinDate: '2024-01-01',
      userCode: u.userCode as string,
    });
    const audits0 = await t.handle.db.select().from(audits);
    expectError(
      await t.post('DeleteUser', { userCode: u.userCode }, admin),
      409,
      'Cannot delete this user: it is still used by 1 employee',
    );
    expect(await storedUser(u.userCode as string)).toBeDefined();
    expect(await t.handle.db.select().from(audits)).toHaveLength(audits0.length);
  });

  it('refuses to delete oneself, and a user manager to delete the Administrator', async () => {
    const adminRow = (await t.handle.db.select().from(users).where(eq(users.username, 'admin')))[0]!;
    expectError(
      await t.post('DeleteUser', { userCode: adminRow.userCode }, admin),
      409,
      'You cannot delete your own user',
    );
    const remover = await t.userWith(['DELETE_USER']);
    const managers = await t.handle.db.select().from(users).where(eq(users.roleCode, adminRoleCode));
    expect(managers.map((m) => m.username)).toEqual(['admin']);
    // Reaching the last role manager takes holding every permission, which makes one a role
    // manager too: the delegation rule refuses first.
    expectError(
      await t.post('DeleteUser', { userCode: adminRow.userCode }, remover.cookie),
      403,
      'You cannot delete a user whose role has permissions you do not hold',
    );
    expect(await storedUser(adminRow.userCode)).toBeDefined();
    expectOk(await t.get('GetSession', admin), 'Session fetched successfully');
    expect((await t.login('admin', ADMIN_PASSWORD)).length).toBeGreaterThan(0);
  });
});

describe('two managers demoting each other at once', () => {
  it('lets exactly one of the changes through', async () => {
    const a = await t.userWith(['UPDATE_ROLE', 'UPDATE_USER', 'VIEW_USERS'], { username: 'manager-a' });
    const b = await t.userWith(['UPDATE_ROLE', 'UPDATE_USER', 'VIEW_USERS'], { username: 'manager-b' });
    const adminRow = (await t.handle.db.select().from(users).where(eq(users.username, 'admin')))[0]!;
    expectOk(
      await t.post(
        'UpdateUser',
        { userCode: adminRow.userCode, username: 'admin', email: adminRow.email, roleCode: plainRoleCode },
        admin,
      ),
      'User updated successfully',
    );
    const demote = (target: { userCode: string }, username: string, cookie: string) =>
      t.post(
        'UpdateUser',
        { userCode: target.userCode, username, email: `${username}@example.com`, roleCode: plainRoleCode },
        cookie,
      );
    const results = await Promise.all([demote(b, 'manager-b', a.cookie), demote(a, 'manager-a', b.cookie)]);
    // The loser is refused by the check (409) or, when the winner committed before the loser's
    // request was authorised, already lacks the permission (403).
    const [winner, loser] = [...results].sort((x, y) => x.statusCode - y.statusCode);
    expect(winner!.statusCode).toBe(200);
    expect([
      ['This change would leave no user who can manage roles', 409],
      ['You do not have permission to do this', 403],
    ]).toContainEqual([loser!.json().message, loser!.statusCode]);
    const stillManaging = await t.handle.db
      .select()
      .from(users)
      .where(eq(users.roleCode, results[0].statusCode === 200 ? a.roleCode : b.roleCode));
    expect(stillManaging).toHaveLength(1);
  });
});
