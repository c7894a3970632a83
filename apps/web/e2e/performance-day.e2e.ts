import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cell, fillCell, seedStaff, toast } from './performance-ui';
import { sharedE2E } from './support/e2e';

/** Editing a whole day of 301 employees: one session, rows drawn as they scroll into view, one Save. */

const e2e = sharedE2E();
const DATE = '2024-04-10';
const LONG = 'Documentation and record keeping';
const SKILLS = [
  'Accuracy',
  LONG,
  ...Array.from({ length: 18 }, (_, i) => `Skill ${String.fromCharCode(65 + i)}`),
];
/** Named so that the keyword `Roster` lists them alone, in this order. */
const PEOPLE = Array.from({ length: 301 }, (_, i) => `Roster ${String(i + 1).padStart(3, '0')}`);
const FIRST = PEOPLE[0] ?? '';
const LAST = PEOPLE[300] ?? '';
const { employeeCode } = seedStaff(e2e, SKILLS, PEOPLE, 5001);

const GRID = `/performance-snapshot?date=${DATE}&keyword=Roster`;

async function startEditing(page: Page) {
  await e2e.login(page);
  await page.goto(GRID);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await cell(page, 'Accuracy', FIRST).waitFor();
}

/** The saved scores of these people on the date, by name, as the API reads them. */
async function savedScores(page: Page, people: readonly string[]) {
  const res = await page.request.post('/api/GetPerformancesByDateAndEmployeeCodes', {
    data: { date: DATE, employeeCodes: people.map((p) => employeeCode[p]) },
  });
  expect(res.status()).toBe(200);
  const rows: { employeeName: string; skills: { title: string; score: number | null }[] }[] = (
    await res.json()
  ).data;
  return Object.fromEntries(
    rows.map((r) => [r.employeeName, Object.fromEntries(r.skills.map((s) => [s.title, s.score]))]),
  );
}

const scrollBox = (page: Page) => page.locator('.MuiTableContainer-root');

describe('the whole day in edit mode', () => {
  it('scores the first and the last of 301 employees and saves them in one go', async () => {
    const page = await e2e.newPage();
    await startEditing(page);
    // Only the rows in view are drawn: the last one is not, yet.
    expect(await page.getByRole('rowheader', { name: LAST }).count()).toBe(0);
    expect(await page.getByText('Every employee of the day (301)').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Go to next page' }).count()).toBe(0);
    await fillCell(page, 'Accuracy', FIRST, '7');
    await scrollBox(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await cell(page, LONG, LAST).waitFor();
    // The focused cell's row stays drawn while out of view, and keeps the focus.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      `Accuracy score for ${FIRST}`,
    );
    await fillCell(page, LONG, LAST, '9');
    // Back to the top: the first row's change was kept while it was not drawn.
    await scrollBox(page).evaluate((el) => el.scrollTo({ top: 0 }));
    expect(await cell(page, 'Accuracy', FIRST).inputValue()).toBe('7');
    await page.getByText('2 rows changed').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Performances saved successfully').waitFor();
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    const saved = await savedScores(page, [FIRST, LAST]);
    expect(saved[FIRST]?.Accuracy).toBe(7);
    expect(saved[FIRST]?.[LONG]).toBeNull();
    expect(saved[LAST]?.[LONG]).toBe(9);
    expect(saved[LAST]?.Accuracy).toBeNull();
    await page.context().close();
  });

  it('pastes a column into rows beyond the ones in view, moves with Tab and Ctrl+Enter, and ellipsises a long title', async () => {
    const page = await e2e.newPage();
    await startEditing(page);
    const target = PEOPLE[59] ?? '';
    expect(await page.getByRole('rowheader', { name: target }).count()).toBe(0);
    // 60 lines from a spreadsheet, pasted into Skill B of the first row.
    const block = `${Array.from({ length: 60 }, (_, i) => String(i % 11)).join('\n')}\n`;
    await cell(page, 'Skill B', FIRST).focus();
    await cell(page, 'Skill B', FIRST).evaluate((el, data) => {
      const transfer = new DataTransfer();
      transfer.setData('text/plain', data);
      el.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    }, block);
    await page.getByText('60 rows changed').waitFor();

    // Ctrl+Enter: from the first row's last cell to the next empty one, the second row's first.
    await cell(page, 'Skill R', FIRST).fill('5');
    await cell(page, 'Skill R', FIRST).press('Control+Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      `Accuracy score for ${PEOPLE[1]}`,
    );
    // Tab from a row's last cell to fill goes to the next row's first empty cell.
    await cell(page, 'Skill R', PEOPLE[1] ?? '').fill('4');
    await cell(page, 'Skill R', PEOPLE[1] ?? '').press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      `Accuracy score for ${PEOPLE[2]}`,
    );

    const header = page.getByRole('columnheader', { name: LONG });
    expect(await header.getAttribute('title')).toBe(LONG);
    const clipped = await header.evaluate((el) => ({
      ellipsis: getComputedStyle(el).textOverflow,
      overflows: el.scrollWidth > el.clientWidth,
      width: el.getBoundingClientRect().width,
    }));
    expect(clipped.ellipsis).toBe('ellipsis');
    expect(clipped.overflows).toBe(true);
    expect(clipped.width).toBeGreaterThanOrEqual(160);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Performances saved successfully').waitFor();
    const saved = await savedScores(page, [target]);
    expect(saved[target]?.['Skill B']).toBe(59 % 11);
    await page.context().close();
  });
});
