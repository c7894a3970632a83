import { schema } from '@wfc/server/testing';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cell, fillCell, seedStaff, toast } from './performance-ui';
import { DESKTOP, describeViolations, PHONE, sharedE2E, watchConsole } from './support/e2e';

/*
 * Two people edit the same date of the Performance Snapshot, each in a browser of their own: the
 * second save is refused as stale, merged cell by cell, settled by its user and saved again.
 */

const { performanceScores, performances } = schema;
const e2e = sharedE2E();
const DATE = '2024-09-10';
const SKILLS = ['Accuracy', 'Quality', 'Safety', 'Speed'];
const PEOPLE = ['Amelia Hart', 'Bruno Costa', 'Chen Wei'];
const EDITOR = ['VIEW_PERFORMANCES', 'CREATE_PERFORMANCE', 'UPDATE_PERFORMANCE'];
const { skillCode, employeeCode } = seedStaff(e2e, SKILLS, PEOPLE, 201);

async function openForEditing(page: Page) {
  await page.goto(`/performance-snapshot?date=${DATE}`);
  await page.getByRole('rowheader', { name: 'Amelia Hart' }).waitFor();
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await cell(page, 'Accuracy', 'Amelia Hart').waitFor();
}

/** A row's saved version and scores by skill title, straight from the database. */
async function savedRow(person: string) {
  const [row] = await e2e.db
    .select({ code: performances.performanceCode, version: performances.version })
    .from(performances)
    .where(and(eq(performances.employeeCode, employeeCode[person]!), eq(performances.date, DATE)));
  if (!row) return undefined;
  const cells = await e2e.db
    .select({ skill: performanceScores.skillCode, points: performanceScores.points })
    .from(performanceScores)
    .where(eq(performanceScores.performanceCode, row.code));
  const scores = Object.fromEntries(
    SKILLS.map((title) => [title, cells.find((c) => c.skill === skillCode[title])?.points ?? null]),
  );
  return { version: row.version, scores };
}

describe('two people editing the same date', () => {
  it('refuses the later save, merges it cell by cell, and saves it once its user has chosen', async () => {
    const ann = await e2e.userWith(EDITOR);
    const first = await e2e.newPage();
    // The second user's page runs the accessibility check in the conflict state.
    const second = await e2e.newPage({ bypassCSP: true });
    const watched = [watchConsole(first), watchConsole(second)];
    await e2e.login(first, ann.username, ann.password);
    await e2e.login(second);

    // Amelia and Bruno were scored earlier: 5 and 6 everywhere, version 1.
    const seeded = await second.request.post('/api/CreateUpdatePerformances', {
      data: {
        performances: (
          [
            ['Amelia Hart', 5],
            ['Bruno Costa', 6],
          ] as const
        ).map(([person, score]) => ({
          employeeCode: employeeCode[person],
          date: DATE,
          performancePerSkill: SKILLS.map((title) => ({
            skillCode: skillCode[title],
            pointsEarned: String(score),
            totalPoints: 10,
          })),
        })),
      },
    });
    expect(seeded.status()).toBe(200);

    // Both open the date and edit it.
    await openForEditing(first);
    await openForEditing(second);
    await fillCell(first, 'Accuracy', 'Amelia Hart', '8');
    await fillCell(first, 'Quality', 'Amelia Hart', '9');
    await fillCell(first, 'Safety', 'Amelia Hart', '3');
    await fillCell(first, 'Speed', 'Bruno Costa', '1');
    await fillCell(second, 'Quality', 'Amelia Hart', '1');
    await fillCell(second, 'Safety', 'Amelia Hart', '7');
    await fillCell(second, 'Speed', 'Amelia Hart', '2');
    await fillCell(second, 'Accuracy', 'Chen Wei', '4');

    // The first save goes through.
    await first.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(first, 'Performances saved successfully').waitFor();
    expect(await savedRow('Amelia Hart')).toEqual({
      version: 2,
      scores: { Accuracy: 8, Quality: 9, Safety: 3, Speed: 5 },
    });

    // The second is refused as a whole, and says why.
    const refused = second.waitForResponse((r) => r.url().includes('/api/CreateUpdatePerformances'));
    await second.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await refused).status()).toBe(409);
    const alert = second.getByRole('alert').filter({ hasText: 'since you opened this date' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(
      new RegExp(
        `Scores of Amelia Hart were changed by ${ann.username} at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC since you opened this date`,
      ),
    );
    expect(await alert.textContent()).toContain('2 cells you both changed are highlighted');
    expect(await savedRow('Chen Wei')).toBeUndefined();

    // Merged: the other person's cell taken, this user's own kept, another row untouched.
    expect(await cell(second, 'Accuracy', 'Amelia Hart').inputValue()).toBe('8');
    expect(await cell(second, 'Speed', 'Amelia Hart').inputValue()).toBe('2');
    expect(await cell(second, 'Accuracy', 'Chen Wei').inputValue()).toBe('4');
    expect(await cell(second, 'Speed', 'Bruno Costa').inputValue()).toBe('6');
    // Both changed Quality and Safety: this user's values stay, highlighted and described.
    const quality = cell(second, 'Quality', 'Amelia Hart');
    expect(await quality.inputValue()).toBe('1');
    const description = await quality.evaluate(
      (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent,
    );
    expect(description).toBe('Changed by someone else to 9; yours is 1.');
    expect(await cell(second, 'Safety', 'Amelia Hart').getAttribute('aria-describedby')).toBeTruthy();
    expect(await cell(second, 'Accuracy', 'Amelia Hart').getAttribute('aria-describedby')).toBeNull();
    await e2e.screenshot(second, 'performance-conflict');
    expect(describeViolations(await e2e.checkA11y(second))).toBe('');
    // On a phone the grid scrolls sideways: the alert leads to the first highlighted cell.
    await second.setViewportSize(PHONE);
    await second.getByRole('button', { name: 'Go to the first highlighted cell' }).click();
    await expect.poll(() => quality.evaluate((el) => el === document.activeElement)).toBe(true);
    // A full-page picture draws the sticky app bar where the window is scrolled to.
    await second.evaluate(() => window.scrollTo(0, 0));
    await e2e.screenshot(second, 'performance-conflict-cell');

    // Nothing is saved over a cell still in conflict.
    await second.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(
      second,
      'Choose their value or yours in each of the 2 highlighted cells before saving.',
    ).waitFor();

    await second.getByRole('button', { name: 'Theirs: 9, for Quality score for Amelia Hart' }).click();
    await second.getByRole('button', { name: 'Mine: 7, for Safety score for Amelia Hart' }).click();
    expect(await quality.inputValue()).toBe('9');
    expect(await cell(second, 'Safety', 'Amelia Hart').inputValue()).toBe('7');
    await alert.getByText('Check the scores and save again.').waitFor();
    await second.evaluate(() => window.scrollTo(0, 0));
    await e2e.screenshot(second, 'performance-conflict-resolved');
    await second.setViewportSize(DESKTOP);

    const saved = second.waitForResponse((r) => r.url().includes('/api/CreateUpdatePerformances'));
    await second.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await saved).status()).toBe(200);
    await toast(second, 'Performances saved successfully').waitFor();
    await second.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    expect(await alert.count()).toBe(0);

    expect(await savedRow('Amelia Hart')).toEqual({
      version: 3,
      scores: { Accuracy: 8, Quality: 9, Safety: 7, Speed: 2 },
    });
    expect(await savedRow('Bruno Costa')).toEqual({
      version: 2,
      scores: { Accuracy: 6, Quality: 6, Safety: 6, Speed: 1 },
    });
    expect(await savedRow('Chen Wei')).toEqual({
      version: 1,
      scores: { Accuracy: 4, Quality: null, Safety: null, Speed: null },
    });
    // The grid shows what was saved.
    expect(
      await second.getByRole('row').filter({ hasText: 'Amelia Hart' }).getByRole('cell').allTextContents(),
    ).toEqual(['EMP-201', '8', '9', '7', '2', '6.50', '6.50', '6.50']);
    // The browser logs the refused save itself (status 409); nothing else may go wrong.
    for (const w of watched) expect(w.errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
    await first.context().close();
    await second.context().close();
  });
});
