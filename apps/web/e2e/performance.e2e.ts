import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cell, fillCell, seedStaff, toast } from './performance-ui';
import { describeViolations, sharedE2E, watchConsole } from './support/e2e';

const e2e = sharedE2E();
const DATE = '2024-03-05';
const SKILLS = ['Communication', 'Punctuality', 'Quality', 'Safety', 'Speed', 'Teamwork'];
const PEOPLE = [
  'Amelia Hart',
  'Bruno Costa',
  'Chen Wei',
  'Dana Okafor',
  'Elif Yilmaz',
  'Farah Haddad',
  'Gustav Lind',
  'Hana Sato',
  'Ivan Petrov',
  'Julia Novak',
  'Kofi Mensah',
  'Lena Fischer',
];
const { skillCode, employeeCode } = seedStaff(e2e, SKILLS, PEOPLE, 101);

const rowOf = (page: Page, person: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: person }) });

/** Saves earlier days through the API, as a previous session of the screen would have. */
async function seedHistory(page: Page) {
  const row = (person: string, date: string, scores: number[]) => ({
    employeeCode: employeeCode[person],
    date,
    performancePerSkill: SKILLS.map((title, i) => ({
      skillCode: skillCode[title],
      pointsEarned: i < scores.length ? String(scores[i]) : '',
      totalPoints: 10,
    })),
  });
  const res = await page.request.post('/api/CreateUpdatePerformances', {
    data: {
      performances: [
        row('Amelia Hart', '2024-03-01', [6, 6, 6, 6, 6, 6]),
        row('Amelia Hart', '2024-02-20', [10, 10]),
        ...PEOPLE.slice(2).map((p, i) => row(p, DATE, [i % 11, (i + 3) % 11, (i + 5) % 11])),
      ],
    },
  });
  expect(res.status()).toBe(200);
}

/** What a spreadsheet puts on the clipboard; dispatched as the browser would on Ctrl+V. */
async function pasteInto(page: Page, skill: string, person: string, text: string) {
  await cell(page, skill, person).focus();
  await cell(page, skill, person).evaluate((el, data) => {
    const transfer = new DataTransfer();
    transfer.setData('text/plain', data);
    el.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, text);
}

describe('the performance snapshot', () => {
  it('edits by typing and pasting, saves, and shows the saved values and averages after a reload', async () => {
    const page = await e2e.newPage();
    const watched = watchConsole(page);
    await e2e.login(page);
    await seedHistory(page);
    await page.goto(`/performance-snapshot?date=${DATE}`);
    await page.getByRole('heading', { level: 1, name: 'Performance Snapshot' }).waitFor();
    await page.getByText(/^Scores for .*2024/).waitFor();
    const headers = await page.getByRole('columnheader').allTextContents();
    expect(headers).toEqual([
      'Employee Id',
      'Employee Name',
      ...SKILLS,
      'Daily Average',
      'Monthly Average',
      'Yearly Average',
    ]);
    const minWidth = await page
      .getByRole('columnheader', { name: 'Quality' })
      .evaluate((el) => getComputedStyle(el).minWidth);
    // Skill columns are at least 10rem (the SPEC), wider for a title that needs it.
    expect(minWidth).toBe('160px');
    await e2e.screenshot(page, 'performance-read');

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    // Typing: a valid score, then keyboard movement to the next cells.
    await cell(page, 'Communication', 'Amelia Hart').click();
    await page.keyboard.type('7');
    await page.keyboard.press('Tab');
    await page.keyboard.type('9');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('1');
    // "12" is not a score: the cell keeps "1".
    await page.keyboard.type('2');
    expect(await cell(page, 'Quality', 'Amelia Hart').inputValue()).toBe('1');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => cell(page, 'Quality', 'Bruno Costa').evaluate((el) => el === document.activeElement))
      .toBe(true);
    await page.keyboard.type('x');
    expect(await cell(page, 'Quality', 'Bruno Costa').inputValue()).toBe('');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Backspace');
    expect(await cell(page, 'Quality', 'Amelia Hart').inputValue()).toBe('');
    await page.keyboard.type('10');

    // Pasting a block copied from a spreadsheet, starting at Bruno's first cell.
    await pasteInto(page, 'Communication', 'Bruno Costa', '4\t5\t6\n8\t\t10\n');
    expect(await cell(page, 'Punctuality', 'Bruno Costa').inputValue()).toBe('5');
    expect(await cell(page, 'Quality', 'Chen Wei').inputValue()).toBe('10');
    expect(await cell(page, 'Punctuality', 'Chen Wei').inputValue()).toBe('');
    await pasteInto(page, 'Safety', 'Bruno Costa', 'abc\t3');
    await toast(page, 'not a score from 0 to 10').waitFor();
    expect(await cell(page, 'Safety', 'Bruno Costa').inputValue()).toBe('');
    expect(await cell(page, 'Speed', 'Bruno Costa').inputValue()).toBe('3');
    await page.getByText('3 rows changed').waitFor();
    await e2e.screenshot(page, 'performance-edit');

    const saved = page.waitForResponse((r) => r.url().includes('/api/CreateUpdatePerformances'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const request = (await saved).request();
    // Only the changed rows go to the server.
    const sentEmployees = [...new URLSearchParams(request.postData() ?? '').entries()]
      .filter(([k]) => /^performances\[\d+\]\[employeeCode\]$/.test(k))
      .map(([, v]) => v);
    expect(sentEmployees.sort()).toEqual(
      [employeeCode['Amelia Hart'], employeeCode['Bruno Costa'], employeeCode['Chen Wei']].sort(),
    );
    await toast(page, 'Performances saved successfully').waitFor();
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();

    await page.reload();
    const amelia = rowOf(page, 'Amelia Hart');
    await amelia.waitFor();
    // Amelia: 7, 9, 10 -> 8.67; month (6 + 8.666...) / 2 = 7.33; year (10 + 6 + 8.666...) / 3 = 8.22.
    expect(await amelia.getByRole('cell').allTextContents()).toEqual([
      'EMP-101',
      '7',
      '9',
      '10',
      '–None',
      '–None',
      '–None',
      '8.67',
      '7.33',
      '8.22',
    ]);
    // Bruno: 4, 5, 6, 3 -> 4.50.
    expect(await rowOf(page, 'Bruno Costa').getByRole('cell').last().textContent()).toBe('4.50');
    expect(watched.errors).toEqual([]);
    await page.context().close();
  });

  it('keeps every keystroke: click-then-type, double-click-then-type, type after Enter and after a paste', async () => {
    const day = '2024-03-12';
    const page = await e2e.newPage();
    await e2e.login(page);
    const scores = (person: string, values: number[]) => ({
      employeeCode: employeeCode[person],
      date: day,
      performancePerSkill: SKILLS.map((title, i) => ({
        skillCode: skillCode[title],
        pointsEarned: i < values.length ? String(values[i]) : '',
        totalPoints: 10,
      })),
    });
    const seeded = await page.request.post('/api/CreateUpdatePerformances', {
      data: { performances: [scores('Amelia Hart', [9, 4, 2]), scores('Bruno Costa', [3, 3, 3])] },
    });
    expect(seeded.status()).toBe(200);
    await page.goto(`/performance-snapshot?date=${day}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const first = cell(page, 'Communication', 'Amelia Hart');
    // The first cell has focus with its value selected; a click on it puts the caret after the 9.
    await expect.poll(() => first.evaluate((el) => el === document.activeElement)).toBe(true);
    await first.click();
    await page.keyboard.type('7');
    expect(await first.inputValue()).toBe('7');
    await cell(page, 'Punctuality', 'Amelia Hart').dblclick();
    await page.keyboard.type('8');
    expect(await cell(page, 'Punctuality', 'Amelia Hart').inputValue()).toBe('8');
    await cell(page, 'Quality', 'Amelia Hart').click();
    await page.keyboard.type('6');
    await page.keyboard.press('Enter');
    await page.keyboard.type('5');
    expect(await cell(page, 'Quality', 'Bruno Costa').inputValue()).toBe('5');
    await pasteInto(page, 'Safety', 'Amelia Hart', '6');
    expect(await cell(page, 'Safety', 'Amelia Hart').inputValue()).toBe('6');
    await page.keyboard.type('1');
    expect(await cell(page, 'Safety', 'Amelia Hart').inputValue()).toBe('1');
    // Once typing has begun, the next digit extends the value: 1 then 0 is 10.
    await page.keyboard.type('0');
    expect(await cell(page, 'Safety', 'Amelia Hart').inputValue()).toBe('10');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Performances saved successfully').waitFor();
    await page.reload();
    const amelia = rowOf(page, 'Amelia Hart');
    await amelia.waitFor();
    expect((await amelia.getByRole('cell').allTextContents()).slice(1, 5)).toEqual(['7', '8', '6', '10']);
    expect((await rowOf(page, 'Bruno Costa').getByRole('cell').allTextContents())[3]).toBe('5');
    await page.context().close();
  });

  it('downloads Performance_Report.csv with every employee, not only the page shown', async () => {
    const page = await e2e.newPage();
    await e2e.login(page);
    await page.goto(`/performance-snapshot?date=${DATE}`);
    await page.getByRole('rowheader', { name: 'Amelia Hart' }).waitFor();
    expect(await page.getByRole('rowheader').count()).toBe(10);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('Performance_Report.csv');
    const bytes = await readFile((await download.path()) ?? '');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(PEOPLE.length + 1);
    expect(lines[0]).toBe(
      `"Employee Id","Employee Name",${SKILLS.map((s) => `"${s}"`).join(',')},"Daily Average","Monthly Average","Yearly Average"`,
    );
    expect(lines[1]).toBe('"EMP-101","Amelia Hart","7","9","10","","","","8.67","7.33","8.22"');
    // Every field quoted, empty ones included.
    for (const line of lines) expect(line).toMatch(/^"[^"]*"(,"[^"]*")*$/);
    await page.context().close();
  });

  it('asks before leaving with unsaved changes, and offers Edit only with both permissions', async () => {
    const page = await e2e.newPage();
    await e2e.login(page);
    await page.goto(`/performance-snapshot?date=${DATE}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await fillCell(page, 'Safety', 'Amelia Hart', '5');
    await page.getByRole('link', { name: 'Registry' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await dialog.waitFor();
    await e2e.screenshot(page, 'performance-leave');
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    expect(new URL(page.url()).pathname).toBe('/performance-snapshot');
    expect(await cell(page, 'Safety', 'Amelia Hart').inputValue()).toBe('5');
    // Another filter is a different set of rows: the same question. (Edit mode has every row of
    // the day on screen, so there is no other page to go to.)
    await page.getByPlaceholder('Filter...').fill('Kofi');
    await page.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByRole('rowheader', { name: 'Kofi Mensah' }).waitFor();
    await page.context().close();

    const viewer = await e2e.userWith(['VIEW_PERFORMANCES', 'CREATE_PERFORMANCE']);

    const viewing = await e2e.newPage();
    await e2e.login(viewing, viewer.username, viewer.password);
    await viewing.goto(`/performance-snapshot?date=${DATE}`);
    await viewing.getByRole('rowheader', { name: 'Amelia Hart' }).waitFor();
    expect(await viewing.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await viewing.getByRole('button', { name: 'Export CSV' }).count()).toBe(1);
    await viewing.context().close();
  });

  it('has no serious accessibility problems, reading or editing', async () => {
    const page = await e2e.newPage({ bypassCSP: true });
    await e2e.login(page);
    await page.goto(`/performance-snapshot?date=${DATE}`);
    await page.getByRole('rowheader', { name: 'Amelia Hart' }).waitFor();
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await fillCell(page, 'Speed', 'Chen Wei', '4');
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await page.context().close();
  });

  it('ends at its footer: no scrolling below it or sideways at 1440 x 900', async () => {
    const page = await e2e.newPage({ viewport: { width: 1440, height: 900 } });
    await e2e.login(page);
    await page.goto(`/performance-snapshot?date=${DATE}`);
    await page.getByRole('rowheader', { name: 'Amelia Hart' }).waitFor();
    const extent = await page.evaluate(() => {
      const footer = document.querySelector('footer');
      const root = document.documentElement;
      return {
        belowFooter: root.scrollHeight - ((footer?.getBoundingClientRect().bottom ?? 0) + window.scrollY),
        sideways: root.scrollWidth - root.clientWidth,
      };
    });
    expect(extent.belowFooter).toBeLessThanOrEqual(1);
    expect(extent.sideways).toBeLessThanOrEqual(0);
    await page.context().close();
  });
});
