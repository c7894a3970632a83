import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../../src/app.ts';
import { audits, roles, users } from '../../../src/db/schema/index.ts';
import { ADMIN_PASSWORD, sharedTestApp } from '../../support/app.ts';

const t = sharedTestApp();

const authAudits = () =>
  t.handle.db.select().from(audits).where(eq(audits.collection, 'auth')).orderBy(asc(audits.id));

describe('audit of sign-in, failed sign-in and sign-out', () => {
  it('records each with its user and time, and never the password', async () => {
    const [admin] = await t.handle.db.select().from(users).where(eq(users.username, 'admin'));
    const started = Date.now();

    expect((await t.post('login', { username: 'admin', password: 'wrong-password-1' })).statusCode).toBe(401);
    expect((await t.post('login', { username: 'ghost', password: 'ghost-password-1' })).statusCode).toBe(401);
    const cookie = await t.login();
    expect((await t.get('logout', cookie)).statusCode).toBe(200);

    const rows = await authAudits();
    expect(rows.map((r) => [r.action, r.userCode, r.username])).toEqual([
      ['LOGIN_FAILED', admin!.userCode, 'admin'],
      ['LOGIN_FAILED', null, null],
      ['LOGIN', admin!.userCode, 'admin'],
      ['LOGOUT', admin!.userCode, 'admin'],
    ]);
    expect(rows[1]!.after).toMatchObject({ username: 'ghost' });
    for (const r of rows) {
      expect(r.auditCode).toMatch(/^AUDIT-/);
      expect(r.createdAt.getTime()).toBeGreaterThanOrEqual(started - 5000);
    }
    const text = JSON.stringify(rows);
    for (const secret of ['wrong-password-1', 'ghost-password-1', ADMIN_PASSWORD, '$argon2']) {
      expect(text).not.toContain(secret);
    }
  });

  it('keeps passwords and hashes out of the records of user changes', async () => {
    const admin = await t.login();
    const [role] = await t.handle.db.select().from(roles);
    const created = await t.post(
      'register',
      {
        username: 'audited',
        email: 'audited@example.com',
        password: 'first-password-1',
        roleCode: role!.roleCode,
      },
      admin,
    );
    expect(created.statusCode).toBe(200);
    const userCode = created.json().data.userCode as string;
    const updated = await t.post(
      'UpdateUser',
      {
        userCode,
        username: 'audited',
        email: 'audited@example.com',
        password: 'second-password-2',
        roleCode: role!.roleCode,
      },
      admin,
    );
    expect(updated.statusCode).toBe(200);
    const rows = await t.handle.db.select().from(audits).where(eq(audits.collection, 'users'));
    expect(rows.map((r) => r.action)).toEqual(['CREATE', 'UPDATE']);
    const text = JSON.stringify(rows);
    for (const secret of ['first-password-1', 'second-password-2', '$argon2', 'passwordHash']) {
      expect(text).not.toContain(secret);
    }
    // That the password changed is recorded; the password itself never is.
    expect(text.match(/password\w*/gi)?.every((w) => w === 'passwordChanged')).toBe(true);
    expect(rows[1]?.changes).toMatchObject({ passwordChanged: { new: true } });
  });

  it('writes nothing when the change itself fails, since both share one transaction', async () => {
    const admin = await t.login();
    await t.post('CreateSkill', { title: 'Welding' }, admin);
    const before = await t.handle.db.$count(audits, sql`${audits.collection} <> 'auth'`);
    expect((await t.post('CreateSkill', { title: 'WELDING' }, admin)).statusCode).toBe(409);
    expect(await t.handle.db.$count(audits, sql`${audits.collection} <> 'auth'`)).toBe(before);
  });

  it('cannot be changed or deleted through the API: only the three read calls exist', async () => {
    const auditRoutes = allRoutes().filter((r) => /Audit/i.test(r.path));
    expect(auditRoutes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET ExportAudits',
      'GET GetAudits',
      'POST GetAuditByCode',
    ]);
    const admin = await t.login();
    for (const path of ['UpdateAudit', 'DeleteAudit', 'CreateAudit']) {
      expect((await t.post(path, { auditCode: 'AUDIT-X' }, admin)).statusCode).toBe(404);
    }
  });
});

describe('refused requests are security events', () => {
  const securityAudits = () =>
    t.handle.db.select().from(audits).where(eq(audits.collection, 'security')).orderBy(asc(audits.id));

  it('records a missing permission (403) with the user, route, reason and address', async () => {
    const viewer = await t.userWith(['VIEW_GENDERS'], { username: 'refused_viewer' });
    const before = (await securityAudits()).length;
    expect((await t.post('CreateGender', { genderName: 'Nope' }, viewer.cookie)).statusCode).toBe(403);
    const rows = (await securityAudits()).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'ACCESS_DENIED',
      userCode: viewer.userCode,
      username: 'refused_viewer',
      after: {
        status: 403,
        reason: 'You do not have permission to do this',
        method: 'POST',
        route: '/api/CreateGender',
        ip: '127.0.0.1',
      },
    });
  });

  it('records a call without a session (401) and a cross-site write, but not the app asking who is signed in', async () => {
    const before = (await securityAudits()).length;
    expect((await t.get('GetSession')).statusCode).toBe(401);
    expect((await t.get('GetRoles')).statusCode).toBe(401);
    const admin = await t.login();
    const forged = await t.app.inject({
      method: 'POST',
      url: '/%61pi/CreateRole',
      payload: 'roleName=Forged',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: admin,
        origin: 'https://evil.example',
      },
      remoteAddress: '192.0.2.7',
    });
    expect(forged.statusCode).toBe(403);
    const rows = (await securityAudits()).slice(before);
    expect(rows.map((r) => [r.action, (r.after as { route: string }).route])).toEqual([
      ['UNAUTHENTICATED', '/api/GetRoles'],
      ['ACCESS_DENIED', '/api/CreateRole'],
    ]);
    expect(rows[1]?.after).toMatchObject({ reason: 'Cross-site request refused', ip: '192.0.2.7' });
  });

  it('keeps a flood of refusals from filling the table', async () => {
    const before = (await securityAudits()).length;
    // The same refusal 300 times, then 300 different ones (each from its own address).
    for (let i = 0; i < 300; i++) await t.get('GetUsers');
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        t.app.inject({
          method: 'GET',
          url: '/api/GetUsers',
          remoteAddress: `198.51.100.${i % 250}`,
          headers: { 'x-i': String(i) },
        }),
      ),
    );
    const added = (await securityAudits()).length - before;
    expect(added).toBeGreaterThanOrEqual(1);
    expect(added).toBeLessThanOrEqual(60);
  });
});
