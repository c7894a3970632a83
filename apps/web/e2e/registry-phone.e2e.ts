import { RESOURCE_BY_KEY } from '@wfc/contract';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiPost,
  expectButtons,
  filterBy,
  heading,
  pathOf,
  readValue,
  toast,
  waitForRange,
} from './registry-ui';
import { DESKTOP, describeViolations, PHONE, sharedE2E, watchConsole } from './support/e2e';

/**
 * Lists on a phone are cards with the same selection, actions, paging and sort as the table; on
 * a desktop the selected row's actions come right after its radio in the tab order.
 */

const e2e = sharedE2E();
const SEEDED = 12;
const nn = (i: number) => String(i + 1).padStart(2, '0');
const letter = (i: number) => String.fromCharCode(65 + i);
/** The last seeded name is long: it must wrap between words, never cut or split. */
const countryName = (i: number) =>
  i === SEEDED - 1
    ? `Phone country ${nn(i)} of the Northern Highlands and Islands`
    : `Phone country ${nn(i)}`;
const LONG_EMAIL = 'a.really.long.mailbox.name.for.cards@phone-example-company.example';

let admin: Page;

beforeAll(async () => {
  admin = await e2e.newPage();
  await e2e.login(admin);
  for (let i = 0; i < SEEDED; i++) {
    await apiPost(admin, 'CreateCountry', {
      name: countryName(i),
      iso2: `Q${letter(i)}`,
      iso3: `QP${letter(i)}`,
    });
  }
  const role = await apiPost(admin, 'CreateRole', { roleName: 'Phone role' });
  await apiPost(admin, 'register', {
    username: 'phone_user',
    email: LONG_EMAIL,
    password: 'phone-password-1',
    roleCode: String(role.roleCode),
  });
  const department = await apiPost(admin, 'CreateDepartment', { name: 'Phone department' });
  await apiPost(admin, 'CreateEmployee', {
    employeeId: 'PH-1',
    name: 'Phone employee',
    departmentCode: String(department.departmentCode),
    joinDate: '2024-02-01',
    userCode: '',
  });
});

const cards = (page: Page, name: string) => page.getByRole('list', { name }).getByRole('listitem');
const card = (page: Page, list: string, title: string) =>
  cards(page, list).filter({ has: page.getByRole('radio', { name: `Select ${title}`, exact: true }) });
/** Each card's title: the first line of its text. */
const titles = (page: Page, list: string) =>
  cards(page, list).evaluateAll((items) => items.map((li) => li.querySelector('p')?.textContent ?? ''));
/** A card's secondary fields as label: value. */
const fields = (item: Locator) =>
  item
    .locator('dl')
    .evaluate((dl) =>
      [...dl.querySelectorAll('dt')].map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent}`),
    );
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
const rowActions = (scope: Locator) => scope.getByRole('toolbar', { name: 'Selected row actions' });

async function pickOption(page: Page, menu: string, option: string) {
  await page.getByRole('combobox', { name: menu }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('a list on a phone', () => {
  it('shows cards that sort, page, select and act like the table', async () => {
    const page = await e2e.newPage({ viewport: PHONE, bypassCSP: true });
    const { errors } = watchConsole(page);
    await e2e.login(page);
    await page.goto('/registry/countries');
    await heading(page, 'Countries').waitFor();
    await filterBy(page, 'Phone country');
    await waitForRange(page, `1 - 10 of ${SEEDED}`);
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await cards(page, 'Countries').count()).toBe(10);
    // Newest first, as the table: the last made is on top.
    expect((await titles(page, 'Countries'))[0]).toBe(countryName(SEEDED - 1));
    expect(await fields(card(page, 'Countries', 'Phone country 11'))).toEqual([
      'ISO2: QK',
      'ISO3: QPK',
      expect.stringMatching(/^Created At: \w/),
    ]);

    await pickOption(page, 'Sort by', 'Name');
    await page.waitForURL((url) => url.searchParams.get('sortField') === 'name');
    expect(new URL(page.url()).searchParams.get('sortValue')).toBe('asc');
    await expect.poll(async () => (await titles(page, 'Countries'))[0]).toBe('Phone country 01');
    await pickOption(page, 'Order', 'Descending');
    await page.waitForURL((url) => url.searchParams.get('sortValue') === null);
    await expect.poll(async () => (await titles(page, 'Countries'))[0]).toBe(countryName(SEEDED - 1));

    await page.getByRole('button', { name: 'Go to next page' }).click();
    await waitForRange(page, `11 - 12 of ${SEEDED}`);
    expect(await titles(page, 'Countries')).toEqual(['Phone country 02', 'Phone country 01']);
    expect(await page.getByText('Select a row to view, edit or delete it').isVisible()).toBe(true);

    const second = card(page, 'Countries', 'Phone country 02');
    await second.getByRole('radio').check();
    await expectButtons(rowActions(second).getByRole('button'), [
      'View',
      'Edit',
      'Delete',
      'Clear selection',
    ]);
    expect(await page.getByRole('toolbar').count()).toBe(1);
    expect(await page.getByText('Select a row to view, edit or delete it').count()).toBe(0);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await e2e.screenshot(page, 'registry-phone-countries');

    await rowActions(second).getByRole('button', { name: 'View' }).click();
    await heading(page, 'View Country').waitFor();
    expect(await readValue(page, 'Name')).toBe('Phone country 02');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await waitForRange(page, `11 - 12 of ${SEEDED}`);

    // A double-click opens a card as it opens a row.
    await card(page, 'Countries', 'Phone country 02').locator('dl').dblclick();
    await heading(page, 'View Country').waitFor();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await waitForRange(page, `11 - 12 of ${SEEDED}`);

    const first = card(page, 'Countries', 'Phone country 01');
    await first.getByRole('radio').check();
    await rowActions(first).getByRole('button', { name: 'Edit' }).click();
    await heading(page, 'Update Country').waitFor();
    expect(pathOf(page)).toMatch(/^\/registry\/country\/edit\//);
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await waitForRange(page, `11 - 12 of ${SEEDED}`);

    // A country of its own to delete, so that a second try finds the seeded ones unchanged.
    await apiPost(page, 'CreateCountry', { name: 'Phone deletable', iso2: 'QZ', iso3: 'QPZ' });
    await filterBy(page, 'Phone deletable');
    await waitForRange(page, '1 - 1 of 1');
    const doomed = card(page, 'Countries', 'Phone deletable');
    await doomed.getByRole('radio').check();
    await rowActions(doomed).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete country?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await toast(page, 'Country deleted successfully').waitFor();
    await page.getByText(RESOURCE_BY_KEY.country.messages.empty, { exact: true }).waitFor();
    expect(await page.getByRole('list', { name: 'Countries' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('fits users, employees and audit logs to the width, long values wrapping between words', async () => {
    const page = await e2e.newPage({ viewport: PHONE, bypassCSP: true });
    await e2e.login(page);

    await page.goto('/registry/users');
    await filterBy(page, 'phone_user');
    await waitForRange(page, '1 - 1 of 1');
    const user = card(page, 'Users', 'phone_user');
    expect((await fields(user)).slice(0, 2)).toEqual([`Email: ${LONG_EMAIL}`, 'Role: Phone role']);
    // Too long for the line and with no space to wrap at: cut with an ellipsis, in full on hover.
    const email = user.locator('dd').first();
    expect(await email.getAttribute('title')).toBe(LONG_EMAIL);
    expect(await email.evaluate((dd) => dd.scrollWidth > dd.clientWidth)).toBe(true);
    await user.getByRole('radio').check();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await e2e.screenshot(page, 'registry-phone-users');

    await page.goto('/registry/employees');
    await waitForRange(page, '1 - 1 of 1');
    expect(await fields(card(page, 'Employees', 'Phone employee'))).toEqual([
      'Employee Id: PH-1',
      'Department: Phone department',
      expect.stringMatching(/^Join Date: .*2024/),
    ]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await e2e.screenshot(page, 'registry-phone-employees');

    await page.goto('/registry/audit-logs');
    await filterBy(page, 'employees');
    await waitForRange(page, '1 - 1 of 1');
    expect(await titles(page, 'Audit Logs')).toEqual(['Created']);
    expect((await fields(cards(page, 'Audit Logs'))).slice(0, 3)).toEqual([
      'Module: Employees',
      expect.stringMatching(/^Record: Employee /),
      'User: admin',
    ]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await e2e.screenshot(page, 'registry-phone-audit');

    // The long title wraps whole words onto a second line.
    await page.goto('/registry/countries?sortField=name');
    await filterBy(page, 'Northern');
    await waitForRange(page, '1 - 1 of 1');
    const title = card(page, 'Countries', countryName(SEEDED - 1))
      .locator('p')
      .first();
    const lines = await title.evaluate((p) => {
      const range = document.createRange();
      range.selectNodeContents(p);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lines).toBeGreaterThan(1);
    expect(await title.evaluate((p) => getComputedStyle(p).overflowWrap)).toBe('break-word');
    await page.context().close();
  });
});

describe('a list on a desktop', () => {
  it('puts the selected row’s actions one Tab after its radio, and Clear returns there', async () => {
    const page = await e2e.newPage({ viewport: DESKTOP, bypassCSP: true });
    await e2e.login(page);
    await page.goto('/registry/countries?sortField=name');
    await filterBy(page, 'Phone country');
    await waitForRange(page, `1 - 10 of ${SEEDED}`);
    const active = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return el?.getAttribute('aria-label') ?? el?.textContent ?? '';
      });

    await page.getByRole('button', { name: 'Updated At' }).focus();
    // The first row's check box (bulk actions) comes first, then its radio.
    await page.keyboard.press('Tab');
    expect(await active()).toBe(`Choose ${countryName(SEEDED - 1)}`);
    await page.keyboard.press('Tab');
    expect(await active()).toBe(`Select ${countryName(SEEDED - 1)}`);
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await active()).toBe('View');

    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowDown');
    expect(await active()).toBe('Select Phone country 11');
    await page.keyboard.press('Tab');
    expect(await active()).toBe('View');
    // The toolbar sits in the row right under the selection.
    const under = await page
      .getByRole('toolbar', { name: 'Selected row actions' })
      .evaluate((bar) =>
        bar
          .closest('tr')
          ?.previousElementSibling?.querySelector('input[type="radio"]')
          ?.getAttribute('aria-label'),
      );
    expect(under).toBe('Select Phone country 11');
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await e2e.screenshot(page, 'registry-desktop-selected');

    await page.getByRole('button', { name: 'Clear selection' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('toolbar').count()).toBe(0);
    expect(await active()).toBe('Select Phone country 11');
    await page.context().close();
  });
});
