import { departmentResource, genderResource, skillResource } from '@wfc/contract';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  departmentManagers,
  departments,
  employees,
  genders,
  performanceScores,
  profiles,
  skills,
} from '../../db/schema/index.ts';
import { badRequest } from '../../http/envelope.ts';
import { defineServerResource, textAt } from '../server-resource.ts';

export const genders$ = defineServerResource({
  def: genderResource,
  table: genders,
  search: ['genderName'],
  unique: [
    {
      constraint: 'genders_name_unique',
      field: 'genderName',
      message: 'A gender with this name already exists',
    },
  ],
  dependents: [{ column: profiles.genderCode, one: 'profile', many: 'profiles' }],
});

/** The managers of these departments, by department, each as `{ employeeCode, name }`. */
async function managersOf(db: Executor, departmentCodes: readonly string[]) {
  const rows = departmentCodes.length
    ? await db
        .select({
          departmentCode: departmentManagers.departmentCode,
          employeeCode: employees.employeeCode,
          name: employees.name,
        })
        .from(departmentManagers)
        .innerJoin(employees, eq(employees.employeeCode, departmentManagers.employeeCode))
        .where(inArray(departmentManagers.departmentCode, [...departmentCodes]))
        .orderBy(asc(employees.name), asc(employees.id))
    : [];
  const byDepartment = new Map<string, { employeeCode: string; name: string }[]>();
  for (const { departmentCode, ...manager } of rows) {
    byDepartment.set(departmentCode, [...(byDepartment.get(departmentCode) ?? []), manager]);
  }
  return byDepartment;
}

export const departments$ = defineServerResource({
  def: departmentResource,
  table: departments,
  search: ['name'],
  reads: [departmentManagers, employees],
  async validate(input, { tx }) {
    const wanted = [...new Set(input.managerCodes)];
    if (wanted.length === 0) return;
    const found = await tx
      .select({ code: employees.employeeCode })
      .from(employees)
      .where(inArray(employees.employeeCode, wanted));
    const known = new Set(found.map((f) => f.code));
    const unknown = wanted.filter((c) => !known.has(c));
    if (unknown.length) {
      throw badRequest('Invalid input', [
        { field: 'managerCodes', message: `Employee not found: ${unknown.slice(0, 5).join(', ')}` },
      ]);
    }
  },
  async afterWrite(code, input, { tx }) {
    const wanted = [...new Set(input.managerCodes)];
    await tx.delete(departmentManagers).where(eq(departmentManagers.departmentCode, code));
    if (wanted.length) {
      await tx
        .insert(departmentManagers)
        .values(wanted.map((employeeCode) => ({ departmentCode: code, employeeCode })));
    }
  },
  async attach(db, records) {
    const managers = await managersOf(
      db,
      records.flatMap((r) => textAt(r, 'departmentCode') ?? []),
    );
    for (const r of records) r.managers = managers.get(textAt(r, 'departmentCode') ?? '') ?? [];
  },
  unique: [
    {
      constraint: 'departments_name_unique',
      field: 'name',
      message: 'A department with this name already exists',
    },
  ],
  dependents: [{ column: employees.departmentCode, one: 'employee', many: 'employees' }],
});

export const skills$ = defineServerResource({
  def: skillResource,
  table: skills,
  search: ['title', 'description'],
  unique: [
    { constraint: 'skills_title_unique', field: 'title', message: 'A skill with this title already exists' },
  ],
  dependents: [{ column: performanceScores.skillCode, one: 'performance score', many: 'performance scores' }],
});
