import { newCode, schema } from '@wfc/server/testing';
import type { Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import type { E2E } from './support/e2e';

/** Seeding and browser steps shared by the Performance Snapshot end-to-end files. */

const { departments, employees, skills: skillTable } = schema;

/** Codes by name: skill titles and employee names to the codes the seeding gave them. */
export interface StaffCodes {
  skillCode: Record<string, string>;
  employeeCode: Record<string, string>;
}

/**
 * Before the file's tests: one department (Operations), these skills, and these people in it with
 * employee ids counting up from EMP-{firstId}. The codes are filled in once seeded.
 */
export function seedStaff(
  /** Read in the hook: the shared fixture's database exists only once started. */
  e2e: Pick<E2E, 'db'>,
  skills: readonly string[],
  people: readonly string[],
  firstId: number,
): StaffCodes {
  const codes: StaffCodes = { skillCode: {}, employeeCode: {} };
  beforeAll(async () => {
    const { skillCode, employeeCode } = codes;
    const departmentCode = newCode('DEPT-');
    await e2e.db.insert(departments).values({ departmentCode, name: 'Operations' });
    for (const title of skills) skillCode[title] = newCode('SKILL-');
    await e2e.db.insert(skillTable).values(skills.map((title) => ({ skillCode: skillCode[title]!, title })));
    for (const name of people) employeeCode[name] = newCode('EMP-');
    await e2e.db.insert(employees).values(
      people.map((name, i) => ({
        employeeCode: employeeCode[name]!,
        employeeId: `EMP-${String(firstId + i)}`,
        name,
        departmentCode,
        joinDate: '2021-06-01',
      })),
    );
  });
  return codes;
}

export const toast = (page: Page, text: string) => page.locator('.Toastify__toast', { hasText: text });

/** The score input of one skill in one person's row. */
export const cell = (page: Page, skill: string, person: string) =>
  page.getByRole('textbox', { name: `${skill} score for ${person}`, exact: true });

/** Puts `value` into a score cell as typing would leave it. */
export async function fillCell(page: Page, skill: string, person: string, value: string) {
  await cell(page, skill, person).fill(value);
}
