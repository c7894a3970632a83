import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost, heading, pick, submitForm, toast } from './registry-ui';
import { describeViolations, sharedE2E, watchConsole } from './support/e2e';

/**
 * What a view shows besides its fields (who created and last changed the record, a role's
 * permissions), and what a form says of its required fields.
 */

const e2e = sharedE2E();
let admin: Page;
let consoleErrors: string[];
let skillCode = '';

interface RoleRecord {
  roleCode: string;
  rolePermissions: { permissionName: string }[];
}

/** A record's time as the screens format it, in the page's own locale and zone. */
const shownTime = (page: Page, iso: string) =>
  page.evaluate(
    (at) =>
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)),
    iso,
  );

/** The labels that carry the required asterisk (drawn by CSS, after the label's text). */
const markedLabels = (page: Page) =>
  page
    .locator('label')
    .evaluateAll((labels) =>
      labels.filter((l) => getComputedStyle(l, '::after').content.includes('*')).map((l) => l.textContent),
    );

/** One transparent pixel: the smallest picture a profile accepts. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const details = (page: Page) => page.getByRole('region', { name: 'Record details' });
const stamps = (page: Page) => details(page).locator(':scope > span').allInnerTexts();

/** A page signed in as a user whose role holds exactly these permissions; returns the username too. */
async function signedInWith(permissions: string[]) {
  const user = await e2e.userWith(permissions);
  const page = await e2e.newPage();
  await e2e.login(page, user.username, user.password);
  return { page, username: user.username };
}

beforeAll(async () => {
  admin = await e2e.newPage({ bypassCSP: true });
  consoleErrors = watchConsole(admin).errors;
  await e2e.login(admin);
  await apiPost(admin, 'CreateGender', { genderName: 'Female' });
});

afterAll(() => {
  expect(consoleErrors).toEqual([]);
});

describe('record details on a view', () => {
  it('names who created and who last updated the record, linking to its history', async () => {
    const skills = ['VIEW_SKILLS', 'CREATE_SKILL', 'UPDATE_SKILL', 'VIEW_AUDITS'];
    const creator = await signedInWith(skills);
    await creator.page.goto('/registry/skill/create');
    await creator.page.getByLabel('Title', { exact: true }).fill('Soldering');
    await submitForm(creator.page);
    await toast(creator.page, 'Skill created successfully').waitFor();
    const listed = await creator.page.request.get('/api/GetSkills', { params: { keyword: 'Soldering' } });
    skillCode = String(((await listed.json()) as { data: { skillCode: string }[] }).data[0]?.skillCode);

    const editor = await signedInWith(skills);
    await editor.page.goto(`/registry/skill/edit/${skillCode}`);
    const title = editor.page.getByLabel('Title', { exact: true });
    await expect.poll(() => title.inputValue()).toBe('Soldering');
    await title.fill('Soldering and brazing');
    await submitForm(editor.page);
    await toast(editor.page, 'Skill updated successfully').waitFor();

    const skill = await apiPost(admin, 'GetSkillByCode', { skillCode });
    await admin.goto(`/registry/skill/${skillCode}`);
    await heading(admin, 'View Skill').waitFor();
    const created = await shownTime(admin, String(skill.createdAt));
    const updated = await shownTime(admin, String(skill.updatedAt));
    await expect
      .poll(() => stamps(admin))
      .toEqual([`Created ${created} by ${creator.username}`, `Updated ${updated} by ${editor.username}`]);
    await e2e.screenshot(admin, 'registry-view-record-details');
    expect(describeViolations(await e2e.checkA11y(admin))).toBe('');

    await details(admin).getByRole('link', { name: creator.username, exact: true }).click();
    await admin.waitForURL(
      (url) =>
        url.pathname === '/registry/audit-logs' &&
        url.searchParams.get('collection') === 'skills' &&
        url.searchParams.get('recordCode') === skillCode,
    );
    await creator.page.context().close();
    await editor.page.context().close();
  });

  it('gives the times alone to a user who may not read the audit log', async () => {
    const reader = await signedInWith(['VIEW_SKILLS']);
    const skill = await apiPost(admin, 'GetSkillByCode', { skillCode });
    await reader.page.goto(`/registry/skill/${skillCode}`);
    await heading(reader.page, 'View Skill').waitFor();
    await expect
      .poll(() => stamps(reader.page))
      .toEqual([
        `Created ${await shownTime(reader.page, String(skill.createdAt))}`,
        `Updated ${await shownTime(reader.page, String(skill.updatedAt))}`,
      ]);
    expect(await details(reader.page).getByRole('link').count()).toBe(0);
    await reader.page.context().close();
  });

  it('on the profile view too', async () => {
    const genders = await admin.request.get('/api/GetGenders', { params: { keyword: 'Female' } });
    const genderCode = String(
      ((await genders.json()) as { data: { genderCode: string }[] }).data[0]?.genderCode,
    );
    const role = await apiPost(admin, 'CreateRole', { roleName: 'Profiled' });
    const owner = await apiPost(admin, 'register', {
      username: 'grace',
      email: 'grace@example.com',
      password: 'grace-password-1',
      roleCode: String(role.roleCode),
    });
    const created = await admin.request.post('/api/CreateProfile', {
      multipart: {
        firstName: 'Grace',
        lastName: 'Hopper',
        dob: '1906-12-09',
        genderCode,
        userCode: String(owner.userCode),
        profilePicture: {
          name: 'grace.png',
          mimeType: 'image/png',
          buffer: Buffer.from(PIXEL_PNG, 'base64'),
        },
      },
    });
    const profile = ((await created.json()) as { data: { profileCode: string; createdAt: string } }).data;
    await admin.goto(`/registry/profile/${profile.profileCode}`);
    await heading(admin, 'View Profile').waitFor();
    await expect
      .poll(() => stamps(admin))
      .toEqual([`Created ${await shownTime(admin, profile.createdAt)} by admin`]);
    await e2e.screenshot(admin, 'registry-view-profile-details');
  });
});

describe('View Role', () => {
  it('lists the role’s permissions in place, grouped by module, beside View Permissions', async () => {
    const roles = await admin.request.get('/api/GetRoles', { params: { keyword: 'Administrator' } });
    const roleCode = String(((await roles.json()) as { data: RoleRecord[] }).data[0]?.roleCode);
    const role = await apiPost<RoleRecord>(admin, 'GetRoleByCode', { roleCode });
    const names = role.rolePermissions.map((p) => p.permissionName);
    expect(names.length).toBeGreaterThanOrEqual(45);

    await admin.goto(`/registry/role/${roleCode}`);
    const list = admin.getByRole('region', { name: `Permissions (${names.length})` });
    await list.waitFor();
    expect((await list.getByRole('listitem').allInnerTexts()).sort()).toEqual([...names].sort());
    expect(await list.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(
      expect.arrayContaining(['Roles', 'Users', 'Audit Logs', 'Performance Snapshot']),
    );
    expect(await admin.getByRole('button', { name: 'View Permissions', exact: true }).count()).toBe(1);
    await e2e.screenshot(admin, 'registry-view-role');
    expect(describeViolations(await e2e.checkA11y(admin))).toBe('');

    const empty = await apiPost<RoleRecord>(admin, 'CreateRole', { roleName: 'Nothing yet' });
    await admin.goto(`/registry/role/${empty.roleCode}`);
    await admin
      .getByRole('region', { name: 'Permissions (0)' })
      .getByText('This role has no permissions')
      .waitFor();
  });
});

describe('required fields', () => {
  it('are marked on create forms, with their accessible names unchanged, and not on views', async () => {
    await admin.goto('/registry/user/create');
    await heading(admin, 'Create User').waitFor();
    const form = admin.getByRole('form', { name: 'Create User' });
    for (const label of ['Username', 'Email', 'Password']) {
      expect(await admin.getByLabel(label, { exact: true }).getAttribute('required')).toBe('');
    }
    expect(await admin.getByLabel('Role', { exact: true }).getAttribute('aria-required')).toBe('true');
    expect(await markedLabels(admin)).toEqual(['Username', 'Email', 'Password', 'Role']);
    // The asterisk is no part of the accessible name.
    expect(await form.getByRole('textbox', { name: 'Username', exact: true }).count()).toBe(1);
    await e2e.screenshot(admin, 'registry-create-required');
    expect(describeViolations(await e2e.checkA11y(admin))).toBe('');

    await admin.goto('/registry/user/create');
    await admin.getByLabel('Username', { exact: true }).waitFor();
    await submitForm(admin);
    await form.getByText('Email is required', { exact: true }).waitFor();

    await admin.goto(`/registry/skill/${skillCode}`);
    await heading(admin, 'View Skill').waitFor();
    expect(await admin.getByLabel('Title', { exact: true }).getAttribute('required')).toBeNull();
    expect(await markedLabels(admin)).toEqual([]);
  });

  it('an empty Date of Birth says it is required, in the format the field shows', async () => {
    const page = await e2e.newPage({ bypassCSP: true });
    await e2e.login(page);
    await page.goto('/registry/profile/create');
    await heading(page, 'Create Profile').waitFor();
    for (const label of ['First Name', 'Last Name', 'Date of Birth']) {
      expect(await page.getByLabel(label, { exact: true }).getAttribute('required')).toBe('');
    }
    expect(await page.getByLabel('Phone Number', { exact: true }).getAttribute('required')).toBeNull();
    expect(await page.getByLabel('Gender', { exact: true }).getAttribute('aria-required')).toBe('true');
    expect(await markedLabels(page)).toEqual([
      'Profile Picture',
      'First Name',
      'Last Name',
      'Date of Birth',
      'Gender',
      'User',
    ]);
    await page.getByLabel('First Name', { exact: true }).fill('Ada');
    await pick(page, 'Gender', 'Female');
    await submitForm(page);
    // The test browser is American: its date field shows mm/dd/yyyy (see the screenshot).
    await page.getByText('Date of birth is required (MM/DD/YYYY)', { exact: true }).waitFor();
    await e2e.screenshot(page, 'registry-profile-required');
    expect(describeViolations(await e2e.checkA11y(page))).toBe('');
    await page.context().close();
  });
});
