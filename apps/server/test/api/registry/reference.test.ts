import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { newCode } from '../../../src/db/codes.ts';
import {
  departments,
  employees,
  performanceScores,
  performances,
  skills,
} from '../../../src/db/schema/index.ts';
import { sharedTestApp } from '../../support/app.ts';
import { expectError, expectOk } from '../../support/envelope.ts';
import { type Json, lastAudit, names } from './support.ts';

const t = sharedTestApp();
let admin: string;

beforeAll(async () => {
  admin = await t.login();
});

describe('departments', () => {
  it('creates, reads, updates and deletes, auditing each change', async () => {
    const created = expectOk(
      await t.post('CreateDepartment', { name: ' Finance ' }, admin),
      'Department created successfully',
    ).data;
    expect(created).toEqual({
      departmentCode: expect.stringMatching(/^DEPT-[0-9A-Z]{16}$/),
      name: 'Finance',
      managers: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    expect(await lastAudit(t, 'departments')).toMatchObject({
      action: 'CREATE',
      before: null,
      after: created,
      changes: {
        name: { old: null, new: 'Finance' },
        departmentCode: { old: null, new: created.departmentCode },
      },
    });
    const fetched = expectOk(
      await t.post('GetDepartmentByCode', { departmentCode: created.departmentCode }, admin),
      'Department fetched successfully',
    );
    expect(fetched.data).toEqual(created);
    const updated = expectOk(
      await t.post('UpdateDepartment', { departmentCode: created.departmentCode, name: 'Treasury' }, admin),
      'Department updated successfully',
    ).data;
    expect(updated).toMatchObject({
      departmentCode: created.departmentCode,
      name: 'Treasury',
      createdAt: created.createdAt,
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    const audit = await lastAudit(t, 'departments');
    expect(audit).toMatchObject({ action: 'UPDATE', before: created, after: updated });
    expect(audit.changes).toEqual({ name: { old: 'Finance', new: 'Treasury' } });

    expectOk(
      await t.post('DeleteDepartment', { departmentCode: created.departmentCode }, admin),
      'Department deleted successfully',
    );
    expect(await lastAudit(t, 'departments')).toMatchObject({
      action: 'DELETE',
      before: updated,
      after: null,
    });
    expect(
      await t.handle.db
        .select()
        .from(departments)
        .where(eq(departments.departmentCode, created.departmentCode)),
    ).toEqual([]);
    expectError(
      await t.post('GetDepartmentByCode', { departmentCode: created.departmentCode }, admin),
      404,
      'Department not found',
    );
    expectError(
      await t.post('UpdateDepartment', { departmentCode: created.departmentCode, name: 'X' }, admin),
      404,
      'Department not found',
    );
    expectError(
      await t.post('DeleteDepartment', { departmentCode: created.departmentCode }, admin),
      404,
      'Department not found',
    );
  });

  it('refuses bad input, duplicates, strangers and deletes while employees remain', async () => {
    const missing = expectError(
      await t.post('CreateDepartment', { name: '   ' }, admin),
      400,
      'Invalid input',
    );
    expect(missing.errors).toEqual([{ field: 'name', message: 'Name is required' }]);
    const noCode = expectError(await t.post('UpdateDepartment', { name: 'X' }, admin), 400, 'Invalid input');
    expect(noCode.errors).toEqual([{ field: 'departmentCode', message: 'Department code is required' }]);
    const dept = expectOk(
      await t.post('CreateDepartment', { name: 'Legal' }, admin),
      'Department created successfully',
    ).data;
    const dup = expectError(
      await t.post('CreateDepartment', { name: 'LEGAL' }, admin),
      409,
      'A department with this name already exists',
    );
    expect(dup.errors).toEqual([{ field: 'name', message: 'A department with this name already exists' }]);
    const other = expectOk(
      await t.post('CreateDepartment', { name: 'Audit' }, admin),
      'Department created successfully',
    ).data;
    expectError(
      await t.post('UpdateDepartment', { departmentCode: other.departmentCode, name: 'legal' }, admin),
      409,
      'A department with this name already exists',
    );

    expectError(await t.get('GetDepartments'), 401, 'Not signed in');
    const viewer = await t.userWith(['VIEW_DEPARTMENTS']);
    expectOk(await t.get('GetDepartments', viewer.cookie), 'Departments fetched successfully');
    for (const [path, body] of [
      ['CreateDepartment', { name: 'Nope' }],
      ['UpdateDepartment', { departmentCode: dept.departmentCode, name: 'Nope' }],
      ['DeleteDepartment', { departmentCode: dept.departmentCode }],
    ] as const) {
      expectError(await t.post(path, body, viewer.cookie), 403, 'You do not have permission to do this');
    }

    for (const id of ['L-1', 'L-2']) {
      await t.handle.db.insert(employees).values({
        employeeCode: newCode('EMP-'),
        employeeId: id,
        name: `Lawyer ${id}`,
        departmentCode: dept.departmentCode,
        joinDate: '2023-05-01',
      });
    }
    expectError(
      await t.post('DeleteDepartment', { departmentCode: dept.departmentCode }, admin),
      409,
      'Cannot delete this department: it is still used by 2 employees',
    );
    expect(
      await t.handle.db.select().from(departments).where(eq(departments.departmentCode, dept.departmentCode)),
    ).toHaveLength(1);
    expect(
      await t.handle.db.select().from(employees).where(eq(employees.departmentCode, dept.departmentCode)),
    ).toHaveLength(2);
  });

  it('clamps limit to 100, pages past the end, and matches % and _ literally', async () => {
    await t.handle.db.insert(departments).values(
      Array.from({ length: 105 }, (_, i) => ({
        departmentCode: newCode('DEPT-'),
        name: `Bulk ${String(i).padStart(3, '0')}`,
      })),
    );
    const clamped = expectOk(
      await t.get('GetDepartments', admin, { keyword: 'bulk', limit: 1000 }),
      'Departments fetched successfully',
    );
    expect(clamped.total).toBe(105);
    expect(clamped.data).toHaveLength(100);
    const last = (await t.get('GetDepartments', admin, { keyword: 'bulk', limit: 100, page: 2 })).json();
    expect(last.data).toHaveLength(5);
    const defaults = (
      await t.get('GetDepartments', admin, { keyword: 'bulk', limit: 0, page: -3, sortValue: 'DESC' })
    ).json();
    expect(defaults.data).toHaveLength(10);
    expect(defaults.data[0].name).toBe('Bulk 104');
    const asc = (
      await t.get('GetDepartments', admin, { keyword: 'bulk', sortField: 'name', sortValue: 'asc', limit: 3 })
    ).json();
    expect(names(asc.data)).toEqual(['Bulk 000', 'Bulk 001', 'Bulk 002']);

    await t.post('CreateDepartment', { name: '100% Sales' }, admin);
    await t.post('CreateDepartment', { name: '1000 Sales' }, admin);
    await t.post('CreateDepartment', { name: 'R_D' }, admin);
    await t.post('CreateDepartment', { name: 'RAD' }, admin);
    await t.post('CreateDepartment', { name: 'Back\\slash' }, admin);
    expect(names((await t.get('GetDepartments', admin, { keyword: '100%' })).json().data)).toEqual([
      '100% Sales',
    ]);
    expect(names((await t.get('GetDepartments', admin, { keyword: 'r_d' })).json().data)).toEqual(['R_D']);
    expect(names((await t.get('GetDepartments', admin, { keyword: 'k\\s' })).json().data)).toEqual([
      'Back\\slash',
    ]);
    expect((await t.get('GetDepartments', admin, { keyword: '%' })).json().total).toBe(1);
  });
});

describe('skills', () => {
  it('creates with a SKILL- code and an optional description, and refuses duplicate titles', async () => {
    const created = expectOk(
      await t.post('CreateSkill', { title: 'Welding', description: '' }, admin),
      'Skill created successfully',
    ).data;
    expect(created).toEqual({
      skillCode: expect.stringMatching(/^SKILL-[0-9A-Z]{16}$/),
      title: 'Welding',
      description: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    expect(await lastAudit(t, 'skills')).toMatchObject({ action: 'CREATE', before: null, after: created });
    const dup = expectError(
      await t.post('CreateSkill', { title: 'welding' }, admin),
      409,
      'A skill with this title already exists',
    );
    expect(dup.errors).toEqual([{ field: 'title', message: 'A skill with this title already exists' }]);
    const bad = expectError(
      await t.post('CreateSkill', { description: 'd'.repeat(501) }, admin),
      400,
      'Invalid input',
    );
    expect(bad.errors).toEqual([
      { field: 'title', message: 'Title is required' },
      { field: 'description', message: 'Description must be at most 500 characters' },
    ]);
    const updated = expectOk(
      await t.post(
        'UpdateSkill',
        { skillCode: created.skillCode, title: 'Welding', description: 'MIG and TIG' },
        admin,
      ),
      'Skill updated successfully',
    ).data;
    expect((await lastAudit(t, 'skills')).changes).toEqual({
      description: { old: null, new: 'MIG and TIG' },
    });
    const search = (await t.get('GetSkills', admin, { keyword: 'tig' })).json();
    expect(search.data).toEqual([updated]);
    const sorted = (await t.get('GetSkills', admin, { sortField: 'description', sortValue: 'asc' })).json();
    expect(sorted.data[0].skillCode).toBe(created.skillCode);
    expectError(await t.get('GetSkills', admin, { sortField: 'skillCode' }), 400, 'Invalid input');
    expect(await lastAudit(t, 'skills')).toMatchObject({ action: 'UPDATE', before: created, after: updated });

    expect(
      expectOk(
        await t.post('GetSkillByCode', { skillCode: created.skillCode }, admin),
        'Skill fetched successfully',
      ).data,
    ).toEqual(updated);
    expectOk(
      await t.post('DeleteSkill', { skillCode: created.skillCode }, admin),
      'Skill deleted successfully',
    );
    expect(await lastAudit(t, 'skills')).toMatchObject({ action: 'DELETE', before: updated, after: null });
    expect(await t.handle.db.select().from(skills).where(eq(skills.skillCode, created.skillCode))).toEqual(
      [],
    );
    expectError(
      await t.post('GetSkillByCode', { skillCode: created.skillCode }, admin),
      404,
      'Skill not found',
    );
    const viewer = await t.userWith(['VIEW_SKILLS']);
    expectError(
      await t.post('DeleteSkill', { skillCode: created.skillCode }, viewer.cookie),
      403,
      'You do not have permission to do this',
    );
  });

  it('refuses to delete a skill that has scores, and deletes nothing', async () => {
    const skill = expectOk(
      await t.post('CreateSkill', { title: 'Forklift' }, admin),
      'Skill created successfully',
    ).data;
    const dept = expectOk(
      await t.post('CreateDepartment', { name: 'Warehouse' }, admin),
      'Department created successfully',
    ).data;
    const employeeCode = newCode('EMP-');
    await t.handle.db.insert(employees).values({
      employeeCode,
      employeeId: 'W-1',
      name: 'Driver',
      departmentCode: dept.departmentCode,
      joinDate: '2022-01-01',
    });
    const performanceCode = newCode('PERF-');
    await t.handle.db.insert(performances).values({ performanceCode, employeeCode, date: '2024-03-01' });
    await t.handle.db
      .insert(performanceScores)
      .values({ performanceCode, skillCode: skill.skillCode, points: 7 });
    expectError(
      await t.post('DeleteSkill', { skillCode: skill.skillCode }, admin),
      409,
      'Cannot delete this skill: it is still used by 1 performance score',
    );
    expect(await t.handle.db.select().from(skills).where(eq(skills.skillCode, skill.skillCode))).toHaveLength(
      1,
    );
    expect(
      await t.handle.db
        .select()
        .from(performanceScores)
        .where(eq(performanceScores.skillCode, skill.skillCode)),
    ).toHaveLength(1);
    expectError(
      await t.post('DeleteEmployee', { employeeCode }, admin),
      409,
      'Cannot delete this employee: it is still used by 1 performance record',
    );
  });
});

describe('genders', () => {
  it('lists newest first by default and gives codes and names to the profile form only', async () => {
    for (const g of ['Alpha', 'Beta', 'Gamma']) await t.post('CreateGender', { genderName: g }, admin);
    const list = expectOk(await t.get('GetGenders', admin), 'Genders fetched successfully');
    expect(names(list.data as Json[], 'genderName')).toEqual(['Gamma', 'Beta', 'Alpha']);
    const oldest = (await t.get('GetGenders', admin, { sortValue: 'asc' })).json();
    expect(names(oldest.data as Json[], 'genderName')).toEqual(['Alpha', 'Beta', 'Gamma']);
    const form = await t.userWith(['UPDATE_PROFILE']);
    const lookup = expectOk(
      await t.get('GetGenders', form.cookie, { sortField: 'genderName', sortValue: 'desc' }),
      'Genders fetched successfully',
    );
    expect(lookup.data[0]).toEqual({ genderCode: expect.any(String), genderName: 'Gamma' });
    expect(Object.keys(lookup.data[0])).toEqual(['genderCode', 'genderName']);
    expectError(await t.get('GetGenders', form.cookie, { sortField: 'createdAt' }), 400, 'Invalid input');
    const other = await t.userWith(['UPDATE_SKILL']);
    expectError(await t.get('GetGenders', other.cookie), 403, 'You do not have permission to do this');
  });
});
