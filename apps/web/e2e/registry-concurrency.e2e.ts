import { schema } from '@wfc/server/testing';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiPost,
  fieldValue,
  heading,
  pathOf,
  pick,
  selectedText,
  selectRow,
  submitForm,
  toast,
  waitForRange,
} from './registry-ui';
import { sharedE2E, watchConsole } from './support/e2e';

/*
 * Two people at work on the same records (each page is its own browser context, so its own
 * user): optimistic concurrency in the forms and the delete dialog, checked in the database; the
 * leave guard of a form with edits; fast typing and Enter in the selectors; Back at three levels.
 */

const e2e = sharedE2E();
let alice: Page;
let consoleErrors: string[];
const codes = {} as Record<'country' | 'state' | 'city' | 'department' | 'role' | 'wesley', string>;

const { countries, states, genders, employees } = schema;

const editor = () =>
  e2e.userWith([
    'VIEW_COUNTRIES',
    'UPDATE_COUNTRY',
    'VIEW_STATES',
    'UPDATE_STATE',
    'VIEW_GENDERS',
    'UPDATE_GENDER',
  ]);

beforeAll(async () => {
  alice = await e2e.newPage();
  consoleErrors = watchConsole(alice).errors;
  await e2e.login(alice);
  for (const genderName of ['Agender', 'Female', 'Male', 'Other'])
    await apiPost(alice, 'CreateGender', { genderName });
  codes.country = String(
    (await apiPost(alice, 'CreateCountry', { name: 'Concordia', iso2: 'CQ', iso3: 'CQD' })).countryCode,
  );
  codes.state = String(
    (await apiPost(alice, 'CreateState', { name: 'North March', iso: 'NM', countryCode: codes.country }))
      .stateCode,
  );
  await apiPost(alice, 'CreateState', { name: 'South March', iso: 'SM', countryCode: codes.country });
  codes.city = String(
    (
      await apiPost(alice, 'CreateCity', {
        name: 'Harbourtown',
        stateCode: codes.state,
        countryCode: codes.country,
      })
    ).cityCode,
  );
  codes.department = String((await apiPost(alice, 'CreateDepartment', { name: 'Logistics' })).departmentCode);
  codes.role = String((await apiPost(alice, 'CreateRole', { roleName: 'Crew' })).roleCode);
  // Usernames that sort before wesley.grant, and one it is a prefix of.
  for (const username of ['aaron.abbot', 'bella.brook', 'wesley.grant', 'wesley.grantham', 'zoe.young']) {
    const user = await apiPost(alice, 'register', {
      username,
      email: `${username}@example.com`,
      password: `${username}-password-1`,
      roleCode: codes.role,
    });
    if (username === 'wesley.grant') codes.wesley = String(user.userCode);
  }
});

const countryRow = async () =>
  (await e2e.db.select().from(countries).where(eq(countries.countryCode, codes.country)))[0]!;
const stateRow = async () =>
  (await e2e.db.select().from(states).where(eq(states.stateCode, codes.state)))[0]!;

const conflictPanel = (page: Page) =>
  page.getByRole('alert', { name: /^Not saved: this (\w+) was (changed|deleted) by someone else$/ });

/** The panel's entry for one field: 'ISO3CQB (was: CQD)'. */
const entry = (page: Page, field: string) => conflictPanel(page).locator(`[data-field="${field}"]`);

async function openEdit(page: Page, path: string, title: string, nameLabel: string, name: string) {
  await page.goto(path);
  await heading(page, title).waitFor();
  await expect.poll(() => fieldValue(page, nameLabel)).toBe(name);
}

describe('two users edit the same record', () => {
  it('the second sees the conflict field by field, and Keep mine saves over theirs without retyping', async () => {
    const bobUser = await editor();
    const bob = await e2e.newPage();
    await e2e.login(bob, bobUser.username, bobUser.password);

    const path = `/registry/country/edit/${codes.country}`;
    await openEdit(alice, path, 'Update Country', 'Name', 'Concordia');
    await openEdit(bob, path, 'Update Country', 'Name', 'Concordia');

    await bob.getByLabel('ISO3', { exact: true }).fill('CQB');
    await submitForm(bob);
    await toast(bob, 'Country updated successfully').waitFor();
    expect(await countryRow()).toMatchObject({ name: 'Concordia', iso3: 'CQB', version: 2 });

    await alice.getByLabel('Name', { exact: true }).fill('Concordia Federation');
    await alice.getByLabel('ISO2', { exact: true }).fill('CF');
    await submitForm(alice);
    const panel = conflictPanel(alice);
    await panel.waitFor();
    expect(await panel.textContent()).toContain(`This country was changed by ${bobUser.username} at `);
    expect(await entry(alice, 'iso3').textContent()).toBe('ISO3CQB (was: CQD)');
    expect(await entry(alice, 'name').textContent()).toBe('NameConcordia Federation (was: Concordia)');
    // Nothing was saved, nothing typed was lost.
    expect(await countryRow()).toMatchObject({ name: 'Concordia', iso3: 'CQB', version: 2 });
    expect(await fieldValue(alice, 'Name')).toBe('Concordia Federation');
    expect(await fieldValue(alice, 'ISO2')).toBe('CF');
    const shots = await e2e.screenshot(alice, 'registry-conflict-panel');
    expect(shots).toHaveLength(2);

    await panel.getByRole('button', { name: 'Keep mine (save again)' }).click();
    await toast(alice, 'Country updated successfully').waitFor();
    await alice.waitForURL((url) => url.pathname === '/registry/countries');
    expect(await countryRow()).toMatchObject({
      name: 'Concordia Federation',
      iso2: 'CF',
      iso3: 'CQD',
      version: 3,
    });
    await bob.context().close();
  });

  it('Take theirs loads their version into the form; saving on it keeps their change and adds mine', async () => {
    const bobUser = await editor();
    const bob = await e2e.newPage();
    await e2e.login(bob, bobUser.username, bobUser.password);
    const path = `/registry/state/edit/${codes.state}`;
    await openEdit(alice, path, 'Update State', 'Name', 'North March');
    await openEdit(bob, path, 'Update State', 'Name', 'North March');

    await bob.getByLabel('Name', { exact: true }).fill('North Marches');
    await submitForm(bob);
    await toast(bob, 'State updated successfully').waitFor();

    await alice.getByLabel('Name', { exact: true }).fill('Northern March');
    await submitForm(alice);
    await conflictPanel(alice).waitFor();
    expect(await entry(alice, 'name').textContent()).toBe(
      'NameNorth Marches (was: North March)You changed it tooYours: Northern March',
    );
    await conflictPanel(alice).getByRole('button', { name: 'Take theirs (reload)' }).click();
    await expect.poll(() => fieldValue(alice, 'Name')).toBe('North Marches');
    expect(await conflictPanel(alice).count()).toBe(0);
    await alice.getByLabel('ISO', { exact: true }).fill('NMS');
    await submitForm(alice);
    await toast(alice, 'State updated successfully').waitFor();
    expect(await stateRow()).toMatchObject({ name: 'North Marches', iso: 'NMS', version: 3 });
    await bob.context().close();
  });

  it('a stale delete says who changed the record, and Delete anyway deletes its new version', async () => {
    const { genderCode } = await apiPost(alice, 'CreateGender', { genderName: 'Stale gender' });
    const bobUser = await editor();
    const bob = await e2e.newPage();
    await e2e.login(bob, bobUser.username, bobUser.password);

    await alice.goto('/registry/genders?keyword=stale');
    await waitForRange(alice, '1 - 1 of 1');
    await selectRow(alice, 'Stale gender');
    await openEdit(
      bob,
      `/registry/gender/edit/${genderCode}`,
      'Update Gender',
      'Gender Name',
      'Stale gender',
    );
    await bob.getByLabel('Gender Name', { exact: true }).fill('Stale gender renamed');
    await submitForm(bob);
    await toast(bob, 'Gender updated successfully').waitFor();

    await alice.getByRole('button', { name: 'Delete', exact: true }).click();
    await alice
      .getByRole('dialog', { name: 'Delete gender?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    const dialog = alice.getByRole('dialog', { name: 'This gender has changed' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`This gender was changed by ${bobUser.username} at `);
    expect(await dialog.textContent()).toContain('Gender Name: Stale gender renamed (was: Stale gender)');
    expect(
      await e2e.db
        .select()
        .from(genders)
        .where(eq(genders.genderCode, String(genderCode))),
    ).toHaveLength(1);
    await e2e.screenshot(alice, 'registry-delete-conflict');
    await dialog.getByRole('button', { name: 'Delete anyway' }).click();
    await toast(alice, 'Gender deleted successfully').waitFor();
    expect(
      await e2e.db
        .select()
        .from(genders)
        .where(eq(genders.genderCode, String(genderCode))),
    ).toHaveLength(0);
    await bob.context().close();
  });
});

describe('leave guard', () => {
  it('holds a form with edits on an in-app link, on Back and on closing the tab', async () => {
    await alice.goto('/registry/countries');
    await heading(alice, 'Countries').waitFor();
    await selectRow(alice, 'Concordia Federation');
    await alice.getByRole('button', { name: 'Edit', exact: true }).click();
    await heading(alice, 'Update Country').waitFor();
    await expect.poll(() => fieldValue(alice, 'Name')).toBe('Concordia Federation');
    await alice.getByLabel('Name', { exact: true }).fill('Concordia (draft)');

    const discard = alice.getByRole('dialog', { name: 'Discard unsaved changes?' });
    // An in-app link (the header's Registry).
    await alice.getByRole('banner').getByRole('link', { name: 'Registry', exact: true }).click();
    await discard.waitFor();
    await discard.getByRole('button', { name: 'Keep editing' }).click();
    await discard.waitFor({ state: 'hidden' });
    expect(pathOf(alice)).toBe(`/registry/country/edit/${codes.country}`);
    expect(await fieldValue(alice, 'Name')).toBe('Concordia (draft)');

    // The browser's leave-page question.
    let asked = '';
    alice.once('dialog', (d) => {
      asked = d.type();
      void d.dismiss();
    });
    await alice.close({ runBeforeUnload: true });
    await expect.poll(() => asked).toBe('beforeunload');
    expect(alice.isClosed()).toBe(false);

    // Back, then discarding: the list, nothing saved.
    await alice.getByRole('button', { name: 'Back', exact: true }).click();
    await discard.waitFor();
    await discard.getByRole('button', { name: 'Discard changes' }).click();
    await alice.waitForURL((url) => url.pathname === '/registry/countries');
    expect((await countryRow()).name).toBe('Concordia Federation');
  });
});

describe('selectors: fast typing and Enter', () => {
  it('Add Employee: wesley.grant typed fast and Enter picks wesley.grant, and it is saved', async () => {
    await alice.goto('/registry/employee/create');
    await heading(alice, 'Create Employee').waitFor();
    await alice.getByLabel('Employee Id', { exact: true }).fill('CC-1');
    await alice.getByLabel('Name', { exact: true }).fill('Casey Crew');
    await pick(alice, 'Department', 'Logistics');
    await alice.getByLabel('Join Date', { exact: true }).fill('2024-05-01');
    const user = alice.getByLabel('User', { exact: true });
    await user.click();
    await alice.getByRole('option', { name: 'aaron.abbot', exact: true }).waitFor();
    await user.pressSequentially('wesley.grant');
    await user.press('Enter');
    await expect.poll(() => selectedText(alice, 'User')).toBe('wesley.grant');
    expect(pathOf(alice)).toBe('/registry/employee/create');
    await submitForm(alice);
    await toast(alice, 'Employee created successfully').waitFor();
    const [row] = await e2e.db.select().from(employees).where(eq(employees.employeeId, 'CC-1'));
    expect(row?.userCode).toBe(codes.wesley);
  });

  it("Gender: 'Male' typed fast and Enter picks Male, not Female", async () => {
    await alice.goto('/registry/profile/create');
    await heading(alice, 'Create Profile').waitFor();
    const gender = alice.getByLabel('Gender', { exact: true });
    await gender.click();
    await alice.getByRole('option', { name: 'Female', exact: true }).waitFor();
    await gender.pressSequentially('Male');
    await gender.press('Enter');
    await expect.poll(() => selectedText(alice, 'Gender')).toBe('Male');
    // Slowly this time: the server's answer (Female, Male) is ranked with the exact match first.
    await gender.click();
    await gender.pressSequentially('male', { delay: 150 });
    await alice.waitForTimeout(600);
    expect(await alice.getByRole('option').allInnerTexts()).toEqual(['Male', 'Female']);
    await gender.press('Enter');
    await expect.poll(() => selectedText(alice, 'Gender')).toBe('Male');
    // Leaving the half-filled form: discard it.
    await alice.getByRole('button', { name: 'Back', exact: true }).click();
    const discard = alice.getByRole('dialog', { name: 'Discard unsaved changes?' });
    await discard.getByRole('button', { name: 'Discard changes' }).click();
    await alice.waitForURL((url) => url.pathname === '/registry/profiles');
  });
});

describe('Back at any depth', () => {
  it('Country > View States > a state > View Cities > Back > Back > Back', async () => {
    const countryCode = String(
      (await apiPost(alice, 'CreateCountry', { name: 'Backland', iso2: 'BQ', iso3: 'BKQ' })).countryCode,
    );
    const stateCode = String(
      (await apiPost(alice, 'CreateState', { name: 'Deep State', iso: 'DS', countryCode })).stateCode,
    );
    await apiPost(alice, 'CreateState', { name: 'Shallow State', iso: 'SS', countryCode });
    await apiPost(alice, 'CreateCity', { name: 'Bottomtown', stateCode, countryCode });

    await alice.goto('/registry/countries?keyword=backland');
    await waitForRange(alice, '1 - 1 of 1');
    await selectRow(alice, 'Backland');
    await alice.getByRole('button', { name: 'View', exact: true }).click();
    await heading(alice, 'View Country').waitFor();
    await alice.getByRole('button', { name: 'View States', exact: true }).click();
    await heading(alice, 'Country States').waitFor();
    await waitForRange(alice, '1 - 2 of 2');
    await selectRow(alice, 'Deep State');
    await alice.getByRole('button', { name: 'View', exact: true }).click();
    await heading(alice, 'View State').waitFor();
    await alice.getByRole('button', { name: 'View Cities', exact: true }).click();
    await heading(alice, 'State Cities').waitFor();
    await alice.getByRole('cell', { name: 'Bottomtown', exact: true }).waitFor();

    const back = () => alice.getByRole('button', { name: 'Back', exact: true }).click();
    await back();
    await heading(alice, 'View State').waitFor();
    expect(pathOf(alice)).toBe(`/registry/state/${stateCode}`);
    await back();
    await heading(alice, 'Country States').waitFor();
    expect(pathOf(alice)).toBe(`/registry/country/${countryCode}/states`);
    await back();
    await heading(alice, 'View Country').waitFor();
    expect(pathOf(alice)).toBe(`/registry/country/${countryCode}`);
    await back();
    await heading(alice, 'Countries').waitFor();
    expect(new URL(alice.url()).search).toBe('?keyword=backland');
  });

  it('logged no console errors on the way', () => {
    expect(consoleErrors.filter((e) => !e.includes('409'))).toEqual([]);
  });
});
