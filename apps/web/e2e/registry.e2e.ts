import { readFile } from 'node:fs/promises';
import { RESOURCE_BY_KEY, type ResourceDef, type ResourceKey } from '@wfc/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiPost,
  bodyRows,
  columnTexts,
  expectButtons,
  fieldValue,
  filterBy,
  heading,
  pathOf,
  pick,
  readValue,
  selectRow,
  submitForm,
  toast,
  waitForNoLoad,
  waitForRange,
} from './registry-ui';
import { sharedE2E, watchConsole } from './support/e2e';

/**
 * The administrator drives every module with a create permission through the shared screens:
 * create, list, filter, sort, page, view, edit and delete. Eleven seeded records per module
 * (names starting 'Seed') give the lists a second page.
 */

const e2e = sharedE2E();
let page: Page;
let consoleErrors: string[];
const SEEDED = 11;
const deps = {} as Record<'country' | 'state' | 'department' | 'role', string>;

const nn = (i: number) => String(i + 1).padStart(2, '0');
const letter = (i: number) => String.fromCharCode(65 + i);

interface ModuleCase {
  key: ResourceKey;
  /** Label of the form field holding the record's name, and the list column showing it. */
  nameLabel: string;
  nameColumn: string;
  /** A seeded record's name; seeds sort by it in the order they were made. */
  seedName(i: number): string;
  seedBody(i: number): Record<string, string>;
  uiName: string;
  editedName: string;
  /** Fills everything but the name on the create form. */
  fillRest(page: Page): Promise<void>;
}

const CASES: ModuleCase[] = [
  {
    key: 'gender',
    nameLabel: 'Gender Name',
    nameColumn: 'Gender Name',
    seedName: (i) => `Seed gender ${nn(i)}`,
    seedBody: (i) => ({ genderName: `Seed gender ${nn(i)}` }),
    uiName: 'E2E gender',
    editedName: 'E2E gender edited',
    fillRest: async () => undefined,
  },
  {
    key: 'department',
    nameLabel: 'Name',
    nameColumn: 'Name',
    seedName: (i) => `Seed department ${nn(i)}`,
    seedBody: (i) => ({ name: `Seed department ${nn(i)}` }),
    uiName: 'E2E department',
    editedName: 'E2E department edited',
    fillRest: async () => undefined,
  },
  {
    key: 'skill',
    nameLabel: 'Title',
    nameColumn: 'Title',
    seedName: (i) => `Seed skill ${nn(i)}`,
    seedBody: (i) => ({ title: `Seed skill ${nn(i)}`, description: 'Seeded for paging' }),
    uiName: 'E2E skill',
    editedName: 'E2E skill edited',
    fillRest: (p) => p.getByLabel('Description', { exact: true }).fill('Made through the form'),
  },
  {
    key: 'country',
    nameLabel: 'Name',
    nameColumn: 'Name',
    seedName: (i) => `Seed country ${nn(i)}`,
    seedBody: (i) => ({ name: `Seed country ${nn(i)}`, iso2: `Q${letter(i)}`, iso3: `QQ${letter(i)}` }),
    uiName: 'E2E country',
    editedName: 'E2E country edited',
    fillRest: async (p) => {
      await p.getByLabel('ISO2', { exact: true }).fill('zz');
      await p.getByLabel('ISO3', { exact: true }).fill('zzz');
    },
  },
  {
    key: 'state',
    nameLabel: 'Name',
    nameColumn: 'Name',
    seedName: (i) => `Seed state ${nn(i)}`,
    seedBody: (i) => ({ name: `Seed state ${nn(i)}`, iso: `S${nn(i)}`, countryCode: deps.country }),
    uiName: 'E2E state',
    editedName: 'E2E state edited',
    fillRest: async (p) => {
      await p.getByLabel('ISO', { exact: true }).fill('E2E');
      await pick(p, 'Country', 'Dep country');
    },
  },
  {
    key: 'city',
    nameLabel: 'Name',
    nameColumn: 'Name',
    seedName: (i) => `Seed city ${nn(i)}`,
    seedBody: (i) => ({ name: `Seed city ${nn(i)}`, countryCode: deps.country, stateCode: deps.state }),
    uiName: 'E2E city',
    editedName: 'E2E city edited',
    fillRest: async (p) => {
      await pick(p, 'Country', 'Dep country');
      await pick(p, 'State', 'Dep state');
    },
  },
  {
    key: 'role',
    nameLabel: 'Role Name',
    nameColumn: 'Name',
    seedName: (i) => `Seed role ${nn(i)}`,
    seedBody: (i) => ({ roleName: `Seed role ${nn(i)}`, roleDescription: 'Seeded for paging' }),
    uiName: 'E2E role',
    editedName: 'E2E role edited',
    fillRest: async (p) => {
      await p.getByLabel('Role Description', { exact: true }).fill('Reads genders');
      await pick(p, 'Permissions', 'VIEW_GENDERS');
      await pick(p, 'Permissions', 'VIEW_SKILLS');
    },
  },
  {
    key: 'user',
    nameLabel: 'Username',
    nameColumn: 'Username',
    seedName: (i) => `seed_user_${nn(i)}`,
    seedBody: (i) => ({
      username: `seed_user_${nn(i)}`,
      email: `seed_user_${nn(i)}@example.com`,
      password: 'seed-password-1',
      roleCode: deps.role,
    }),
    uiName: 'e2e_user_ui',
    editedName: 'e2e_user_ui_edited',
    fillRest: async (p) => {
      await p.getByLabel('Email', { exact: true }).fill('e2e_user_ui@example.com');
      await p.getByLabel('Password', { exact: true }).fill('e2e-password-1');
      await pick(p, 'Role', 'Dep role');
    },
  },
  {
    key: 'employee',
    nameLabel: 'Name',
    nameColumn: 'Name',
    seedName: (i) => `Seed employee ${nn(i)}`,
    seedBody: (i) => ({
      employeeId: `S-${nn(i)}`,
      name: `Seed employee ${nn(i)}`,
      departmentCode: deps.department,
      joinDate: `2024-01-${nn(i)}`,
      userCode: '',
    }),
    uiName: 'E2E employee',
    editedName: 'E2E employee edited',
    fillRest: async (p) => {
      await p.getByLabel('Employee Id', { exact: true }).fill('E2E-1');
      await pick(p, 'Department', 'Dep department');
      await p.getByLabel('Join Date', { exact: true }).fill('2024-03-01');
      await pick(p, 'User', 'dep_user');
    },
  },
];

beforeAll(async () => {
  page = await e2e.newPage();
  consoleErrors = watchConsole(page).errors;
  await e2e.login(page);
  const country = await apiPost(page, 'CreateCountry', { name: 'Dep country', iso2: 'DC', iso3: 'DCY' });
  deps.country = String(country.countryCode);
  const state = await apiPost(page, 'CreateState', {
    name: 'Dep state',
    iso: 'DS',
    countryCode: deps.country,
  });
  deps.state = String(state.stateCode);
  deps.department = String(
    (await apiPost(page, 'CreateDepartment', { name: 'Dep department' })).departmentCode,
  );
  deps.role = String((await apiPost(page, 'CreateRole', { roleName: 'Dep role' })).roleCode);
  await apiPost(page, 'register', {
    username: 'dep_user',
    email: 'dep_user@example.com',
    password: 'dep-password-1',
    roleCode: deps.role,
  });
  for (const c of CASES) {
    const def = RESOURCE_BY_KEY[c.key];
    for (let i = 0; i < SEEDED; i++) await apiPost(page, def.endpoints.create!, c.seedBody(i));
  }
});

async function openList(def: ResourceDef) {
  await page.goto(`/registry/${def.listSegment}`);
  await heading(page, def.plural).waitFor();
}

async function listFilterSortPage(c: ModuleCase, def: ResourceDef) {
  // A retry starts from the default rows per page, not the 15 the first try left remembered.
  await page.evaluate(
    (list) => window.localStorage.removeItem(`wfc.rowsPerPage.${list}`),
    def.endpoints.list,
  );
  await openList(def);
  await filterBy(page, 'seed');
  await waitForRange(page, `1 - 10 of ${SEEDED}`);
  const column = def.columns.findIndex((col) => col.label === c.nameColumn) + 1;

  const header = page.getByRole('columnheader', { name: c.nameColumn, exact: true });
  await header.getByRole('button').click();
  await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
  await waitForRange(page, `1 - 10 of ${SEEDED}`);
  expect((await columnTexts(page, column))[0]).toBe(c.seedName(0));
  await header.getByRole('button').click();
  await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
  await expect.poll(async () => (await columnTexts(page, column))[0]).toBe(c.seedName(SEEDED - 1));

  await page.getByRole('button', { name: 'Go to next page' }).click();
  await waitForRange(page, `11 - 11 of ${SEEDED}`);
  expect(await columnTexts(page, column)).toEqual([c.seedName(0)]);
  expect(await page.getByRole('button', { name: 'Go to next page' }).isDisabled()).toBe(true);
  expect(await page.getByRole('button', { name: 'Go to last page' }).isDisabled()).toBe(true);

  await page.getByRole('combobox', { name: /Rows per page/ }).click();
  await page.getByRole('option', { name: '15', exact: true }).click();
  await waitForRange(page, `1 - ${SEEDED} of ${SEEDED}`);
  expect(new URL(page.url()).searchParams.get('page')).toBeNull();
  expect(await bodyRows(page).count()).toBe(SEEDED);
}

async function createViewEditDelete(c: ModuleCase, def: ResourceDef) {
  await openList(def);
  await page.getByRole('button', { name: `Add ${def.label}`, exact: true }).click();
  await heading(page, `Create ${def.label}`).waitFor();
  await page.getByLabel(c.nameLabel, { exact: true }).fill(c.uiName);
  await c.fillRest(page);
  await submitForm(page);
  await toast(page, `${def.label} created successfully`).waitFor();
  await page.waitForURL((url) => url.pathname === `/registry/${def.listSegment}`);

  await filterBy(page, c.uiName);
  await waitForRange(page, '1 - 1 of 1');
  await selectRow(page, c.uiName);
  await expectButtons(page.getByRole('toolbar', { name: 'Selected row actions' }).getByRole('button'), [
    'View',
    'Edit',
    'Delete',
    'Clear selection',
  ]);
  await page.getByRole('button', { name: 'View', exact: true }).click();
  await heading(page, `View ${def.label}`).waitFor();
  expect(await readValue(page, c.nameLabel)).toBe(c.uiName);
  // Read, not typed into: a view has no text inputs.
  expect(await page.getByRole('main').getByRole('textbox').count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Submit' }).count()).toBe(0);
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await waitForRange(page, '1 - 1 of 1');
  expect(new URL(page.url()).searchParams.get('keyword')).toBe(c.uiName);

  await selectRow(page, c.uiName);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await heading(page, `Update ${def.label}`).waitFor();
  expect(await fieldValue(page, c.nameLabel)).toBe(c.uiName);
  await page.getByLabel(c.nameLabel, { exact: true }).fill(c.editedName);
  await submitForm(page);
  await toast(page, `${def.label} updated successfully`).waitFor();
  await waitForRange(page, '1 - 1 of 1');
  await page.getByRole('cell', { name: c.editedName, exact: true }).waitFor();

  await selectRow(page, c.editedName);
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${def.label.toLowerCase()}?` });
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await toast(page, `${def.label} deleted successfully`).waitFor();
  await page.getByText(def.messages.empty, { exact: true }).waitFor();
}

describe('administrator', () => {
  for (const c of CASES) {
    const def = RESOURCE_BY_KEY[c.key];
    it(`${def.plural}: list, filter, sort and page`, async () => {
      await listFilterSortPage(c, def);
    });
    it(`${def.plural}: create, view, edit and delete through the forms`, async () => {
      await createViewEditDelete(c, def);
    });
  }

  it('Permissions: list, filter and view, Back to the list', async () => {
    await openList(RESOURCE_BY_KEY.permission);
    await filterBy(page, 'VIEW_GENDERS');
    await waitForRange(page, '1 - 1 of 1');
    await selectRow(page, 'VIEW_GENDERS');
    await expectButtons(page.getByRole('toolbar', { name: 'Selected row actions' }).getByRole('button'), [
      'View',
      'Clear selection',
    ]);
    expect(await page.getByRole('button', { name: /^Add/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'View', exact: true }).click();
    await heading(page, 'View Permission').waitFor();
    expect(await readValue(page, 'Name')).toBe('VIEW_GENDERS');
    expect(await readValue(page, 'Description')).toBe('View genders');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/registry/permissions');
  });

  it('Audit logs: list, filter and view the before and after of an update', async () => {
    await openList(RESOURCE_BY_KEY.audit);
    await filterBy(page, 'UPDATE');
    // The rows of the unfiltered list stay on screen while the filtered ones load: a row picked
    // before they arrive is replaced, and its selection with it.
    await expect.poll(async () => (await columnTexts(page, 1))[0]).toBe('Updated');
    await waitForNoLoad(page);
    await page.getByRole('radio').first().check();
    await expectButtons(page.getByRole('toolbar', { name: 'Selected row actions' }).getByRole('button'), [
      'View',
      'Clear selection',
    ]);
    await page.getByRole('button', { name: 'View', exact: true }).click();
    await heading(page, 'View Audit Log').waitFor();
    const action = page.locator('dt', { hasText: /^Action$/ }).locator('xpath=following-sibling::dd[1]');
    expect(await action.innerText()).toBe('Updated');
    // The change side by side: a changed field is marked, and its two sides differ.
    const changed = page.getByRole('table', { name: 'Changes' }).locator('tr[data-changed]');
    expect(await changed.count()).toBeGreaterThan(0);
    const [before, after] = await changed
      .first()
      .locator('td')
      .evaluateAll((cells) => cells.slice(1).map((c) => c.textContent));
    expect(before).not.toBe(after);
    // The record's history: the audit log filtered to it, this entry among them.
    const code = await page
      .locator('dt', { hasText: /^Record code$/ })
      .locator('xpath=following-sibling::dd[1]')
      .innerText();
    await page.getByRole('button', { name: 'History of this record' }).click();
    await page.waitForURL((url) => url.searchParams.get('recordCode') === code);
    await heading(page, 'Audit Logs').waitFor();
    await expect.poll(async () => new Set(await columnTexts(page, 1))).toContain('Updated');
  });

  it('Audit logs: user, module, action and date filters narrow the list as the API does', async () => {
    await openList(RESOURCE_BY_KEY.audit);
    const filters = page.getByRole('search', { name: 'Filters' });
    const today = new Date().toISOString().slice(0, 10);
    await filters.getByLabel('Module').click();
    await page.getByRole('option', { name: 'Genders', exact: true }).click();
    await filters.getByLabel('Action').click();
    await page.getByRole('option', { name: 'Created', exact: true }).click();
    await filters.getByLabel('From').fill(today);
    await filters.getByLabel('User').fill('ADM');
    await filters.getByLabel('User').press('Enter');
    await page.waitForURL((url) => url.searchParams.get('username') === 'ADM');
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({
      collection: 'genders',
      action: 'CREATE',
      from: today,
      username: 'ADM',
    });

    const res = await page.request.get(`/api/GetAudits?${url.searchParams}`);
    const answer = (await res.json()) as { total: number; data: unknown[] };
    expect(answer.total).toBeGreaterThan(0);
    await waitForRange(page, `1 - ${Math.min(10, answer.total)} of ${answer.total}`);
    expect(new Set(await columnTexts(page, 1))).toEqual(new Set(['Created']));
    expect(new Set(await columnTexts(page, 2))).toEqual(new Set(['Genders']));
    // The record each entry is about, by its module's label and its name.
    for (const record of await columnTexts(page, 3)) expect(record).toMatch(/^Gender /);
    expect(new Set(await columnTexts(page, 4))).toEqual(new Set(['admin']));

    // The export holds every matching entry, not only the page on screen.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-logs-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      '\ufeff"Created At","Action","Module","Record Code","User","Audit Code","Changes","Before","After"',
    );
    expect(lines).toHaveLength(answer.total + 1);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL((u) => u.search === '');
    await expect.poll(() => filters.getByLabel('From').inputValue()).toBe('');
  });

  it('Sub-lists: a role’s permissions, a country’s states and cities, a state’s cities', async () => {
    await page.goto(`/registry/country/${deps.country}`);
    await heading(page, 'View Country').waitFor();
    await page.getByRole('button', { name: 'View States', exact: true }).click();
    await heading(page, 'Country States').waitFor();
    await page.getByText('Country: Dep country').waitFor();
    await waitForRange(page, `1 - 10 of ${SEEDED + 1}`);
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await heading(page, 'View Country').waitFor();
    await page.getByRole('button', { name: 'View Cities', exact: true }).click();
    await heading(page, 'Country Cities').waitFor();
    await waitForRange(page, `1 - 10 of ${SEEDED}`);
    await page.goto(`/registry/state/${deps.state}/cities`);
    await heading(page, 'State Cities').waitFor();
    await filterBy(page, 'Seed city 03');
    await waitForRange(page, '1 - 1 of 1');
    await selectRow(page, 'Seed city 03');
    await page.getByRole('button', { name: 'View', exact: true }).click();
    await heading(page, 'View City').waitFor();
    expect(await readValue(page, 'Name')).toBe('Seed city 03');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await heading(page, 'State Cities').waitFor();
    expect(pathOf(page)).toBe(`/registry/state/${deps.state}/cities`);

    await page.goto(`/registry/role/${deps.role}`);
    await heading(page, 'View Role').waitFor();
    expect(await readValue(page, 'Role Name')).toBe('Dep role');
    await page.getByRole('button', { name: 'View Permissions', exact: true }).click();
    await heading(page, 'Role Permissions').waitFor();
    await page.getByText('No permission added yet (or) No permission matching the current filter').waitFor();
  });

  it('logged no console errors on the way', () => {
    expect(consoleErrors).toEqual([]);
  });
});
