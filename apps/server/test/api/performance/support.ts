import type { PerformanceRow } from '@wfc/contract';
import { expect } from 'vitest';
import type { TestApp } from '../../support/app.ts';

/** Records made through the API, as a user would make them. */
export async function makeDepartment(t: TestApp, cookie: string, name = 'Operations') {
  const res = await t.post('CreateDepartment', { name }, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.departmentCode as string;
}

export async function makeSkill(t: TestApp, cookie: string, title: string) {
  const res = await t.post('CreateSkill', { title, description: '' }, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.skillCode as string;
}

export async function makeEmployee(
  t: TestApp,
  cookie: string,
  departmentCode: string,
  employeeId: string,
  name: string,
) {
  const res = await t.post(
    'CreateEmployee',
    { employeeId, name, departmentCode, joinDate: '2020-01-01' },
    cookie,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.employeeCode as string;
}

export type Cells = Record<string, number | '' | null>;

/** One submission row, as the grid sends it: every cell with its text and the fixed 10 points. */
export const submission = (employeeCode: string, date: string, cells: Cells, performanceCode?: string) => ({
  ...(performanceCode ? { performanceCode } : {}),
  employeeCode,
  date,
  performancePerSkill: Object.entries(cells).map(([skillCode, v]) => ({
    skillCode,
    pointsEarned: v === null ? '' : String(v),
    totalPoints: 10,
  })),
});

export async function save(t: TestApp, cookie: string, rows: ReturnType<typeof submission>[]) {
  const res = await t.postJson('CreateUpdatePerformances', { performances: rows }, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function grid(
  t: TestApp,
  cookie: string,
  query: Record<string, string | number>,
): Promise<{ data: PerformanceRow[]; total: number }> {
  const res = await t.get('GetPerformances', cookie, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The row of one employee in a date's grid. */
export async function rowOf(t: TestApp, cookie: string, employeeCode: string, date: string) {
  const res = await t.postJson(
    'GetPerformancesByDateAndEmployeeCodes',
    { date, employeeCodes: [employeeCode] },
    cookie,
  );
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as PerformanceRow[])[0]!;
}

export async function totalsOf(t: TestApp, cookie: string, employeeCode: string, date: string) {
  return (await rowOf(t, cookie, employeeCode, date)).total;
}
