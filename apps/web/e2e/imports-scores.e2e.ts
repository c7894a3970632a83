import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, chooseCsv, IMPORT_DESKTOP, shoot, toast } from './imports-ui';
import { seedStaff } from './performance-ui';
import { sharedE2E, watchConsole } from './support/e2e';

/*
 * The import wizard for scores in a browser, against the real server: a wide CSV written here
 * (Employee Id, Date, one column per skill) with a row for an employee who does not exist,
 * uploaded from the Performance Snapshot, previewed, the erroneous row skipped on purpose, and the
 * scores then seen on the Snapshot for that day. Photographed at a desktop's and a phone's width,
 * light and dark.
 */

const e2e = sharedE2E();
const DATE = '2024-04-02';
const SKILLS = ['Accuracy', 'Speed'];
const PEOPLE = ['Nora Blake', 'Omar Reyes'];
seedStaff(e2e, SKILLS, PEOPLE, 501);

let admin: Page;
let consoleErrors: string[];

beforeAll(async () => {
  admin = await e2e.newPage({ viewport: IMPORT_DESKTOP, bypassCSP: true });
  consoleErrors = watchConsole(admin).errors;
  await e2e.login(admin);
});

afterAll(() => {
  expect(consoleErrors).toEqual([]);
});

const rowOf = (page: Page, person: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: person }) });

describe('importing scores', () => {
  it('uploads a wide file from the Snapshot, skips the unknown employee and shows the scores', async () => {
    await admin.goto(`/performance-snapshot?date=${DATE}`);
    await admin.getByRole('heading', { level: 1, name: 'Performance Snapshot' }).waitFor();
    await admin.getByRole('link', { name: 'Import', exact: true }).click();
    await admin.getByRole('heading', { level: 1, name: 'Import Performance scores' }).waitFor();
    // Both layouts have their templates.
    for (const name of ['wide CSV', 'wide XLSX', 'long CSV', 'long XLSX']) {
      expect(await admin.getByRole('button', { name: `Download the ${name} template` }).count()).toBe(1);
    }
    await chooseCsv(admin, 'april-scores.csv', [
      ['Employee Id', 'Date', 'Accuracy', 'Speed'],
      ['EMP-501', DATE, '8', '9'],
      ['EMP-502', DATE, '7', ''],
      ['EMP-999', DATE, '5', '5'],
    ]);
    await shoot(admin, 'imports-scores-1-upload');
    await admin.getByRole('button', { name: 'Upload and check' }).click();

    await admin.getByRole('table', { name: 'Column mapping' }).waitFor();
    expect(await admin.getByRole('combobox', { name: 'Field for Accuracy' }).textContent()).toBe('Accuracy');
    expect(await admin.getByRole('combobox', { name: 'Field for Employee Id' }).textContent()).toBe(
      'Employee Id *',
    );
    await shoot(admin, 'imports-scores-2-mapping');
    await admin.getByRole('button', { name: 'Continue to preview' }).click();

    const errors = admin.getByRole('table', { name: 'Errors' });
    await errors.waitFor();
    const cells = await errors.locator('tbody tr').first().getByRole('cell').allTextContents();
    expect(cells.slice(0, 2)).toEqual(['4', 'Employee Id']);
    expect(await accessibilityProblems(e2e, admin)).toBe('');
    await shoot(admin, 'imports-scores-3-preview');

    const commit = admin.getByRole('button', { name: /^Import \d+ rows?$/ });
    expect(await commit.isDisabled()).toBe(true);
    await admin.getByRole('checkbox', { name: /Skip the 1 row with errors/ }).check();
    await commit.click();
    await admin
      .getByText(/april-scores\.csv was imported into performance scores, leaving out 1 row/)
      .waitFor();
    await toast(admin, 'Import committed').waitFor();
    await shoot(admin, 'imports-scores-4-result');

    await admin.getByRole('link', { name: 'Open the Performance Snapshot' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Performance Snapshot' }).waitFor();
    await admin.goto(`/performance-snapshot?date=${DATE}`);
    await admin.getByText(/^Scores for .*2024/).waitFor();
    const nora = (await rowOf(admin, 'Nora Blake').getByRole('cell').allTextContents()).slice(1, 3);
    const omar = (await rowOf(admin, 'Omar Reyes').getByRole('cell').allTextContents()).slice(1, 3);
    expect(nora.map((t) => t.trim())).toEqual(['8', '9']);
    expect(omar[0]?.trim()).toBe('7');
    await shoot(admin, 'imports-scores-5-snapshot');
  });
});
