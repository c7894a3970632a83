import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost, heading, readValue, submitForm, toast, viewEntry } from './registry-ui';
import { sharedE2E, watchConsole } from './support/e2e';

/**
 * Need-to-know fields on the profile's screens: someone who may view and update profiles but not
 * see personal data reads another person's profile with its details said hidden, and edits its
 * name without touching them. Screenshots of the view and the form, light and dark, at 1440x900
 * and 390x844, go to SHOTS (not committed).
 */

const e2e = sharedE2E();
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/shots-hidden-profile';
const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

/** One small square picture, enough for a profile to have one. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const STORED = {
  dob: '1990-04-12',
  phoneNumber: '+49 89 1234567',
  addressLineOne: 'Marienplatz 1',
  linkedin: 'https://www.linkedin.com/in/amelia-hart',
};

interface StoredProfile {
  firstName: string;
  lastName: string;
  dob: string;
  phoneNumber: string | null;
  gender: { genderCode: string };
  address: { addressLineOne: string | null; country: { countryCode: string } | null };
  social: { linkedin: string | null };
  notification: { email: boolean };
  profilePicture: { thumbnail: string } | null;
  version: number;
}

let admin: Page;
let page: Page;
let consoleErrors: string[];
let profileCode = '';
let genderCode = '';
let countryCode = '';
let editor = { username: '', password: '' };

beforeAll(async () => {
  admin = await e2e.newPage();
  await e2e.login(admin);
  genderCode = String((await apiPost(admin, 'CreateGender', { genderName: 'Female' })).genderCode);
  countryCode = String(
    (await apiPost(admin, 'CreateCountry', { name: 'Germany', iso2: 'DE', iso3: 'DEU' })).countryCode,
  );
  const owner = await e2e.userWith([]);
  const created = await admin.request.post('/api/CreateProfile', {
    multipart: {
      firstName: 'Amelia',
      lastName: 'Hart',
      dob: STORED.dob,
      genderCode,
      userCode: owner.userCode,
      phoneNumber: STORED.phoneNumber,
      'address[addressLineOne]': STORED.addressLineOne,
      'address[countryCode]': countryCode,
      'social[linkedin]': STORED.linkedin,
      'notification[email]': 'true',
      profilePicture: { name: 'amelia.png', mimeType: 'image/png', buffer: Buffer.from(PIXEL_PNG, 'base64') },
    },
  });
  const answer = (await created.json()) as {
    statusCode: number;
    message: string;
    data: { profileCode: string };
  };
  if (answer.statusCode !== 200) throw new Error(`CreateProfile: ${answer.statusCode} ${answer.message}`);
  profileCode = answer.data.profileCode;
  // May view and update profiles, but not see personal data, and the profile is not theirs.
  editor = await e2e.userWith(['VIEW_PROFILES', 'UPDATE_PROFILE']);
  page = await e2e.newPage({ viewport: SIZES.desktop });
  consoleErrors = watchConsole(page).errors;
  await e2e.login(page, editor.username, editor.password);
});

afterAll(() => {
  expect(consoleErrors).toEqual([]);
});

/** The whole page in both schemes and at both sizes; the system scheme is switched live. */
async function shoot(name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [label, size] of Object.entries(SIZES)) {
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(SHOTS, `${name}-${label}-${scheme}.png`), fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(SIZES.desktop);
}

const stored = () => apiPost<StoredProfile>(admin, 'GetProfileByCode', { profileCode });

/** A field of the form said hidden in its place: named by its label, holding no input. */
const hiddenField = (label: string) => page.getByRole('group', { name: label, exact: true });

describe('a profile whose personal details are hidden from the viewer', () => {
  it('reads them as hidden on its view, sections and all', async () => {
    await page.goto(`/registry/profile/${profileCode}`);
    await heading(page, 'View Profile').waitFor();
    expect(await readValue(page, 'First Name')).toBe('Amelia');
    expect(await readValue(page, 'Last Name')).toBe('Hart');
    for (const label of ['Profile Picture', 'Date of Birth', 'Gender', 'Phone Number'])
      expect(await readValue(page, label), label).toBe('Hidden');
    for (const section of ['Address', 'Social', 'Notifications']) {
      const part = page.getByRole('region', { name: section, exact: true });
      await part.getByText('Hidden', { exact: true }).waitFor();
      expect(await part.locator('dt').count(), section).toBe(0);
    }
    expect(await page.getByRole('img', { name: /^Profile Picture/ }).count()).toBe(0);
    expect(await page.getByText(STORED.phoneNumber).count()).toBe(0);
    expect(await page.getByText(STORED.addressLineOne).count()).toBe(0);
    // Why, on hover: the lock says what kind of data it keeps.
    await viewEntry(page, 'Date of Birth').getByText('Hidden').hover();
    await page.getByRole('tooltip').getByText('Personal data: shown to those who need to know it').waitFor();
    await page.mouse.move(0, 0);
    await page.getByRole('tooltip').waitFor({ state: 'detached' });
    await shoot('hidden-profile-view');
  });

  it('edits the name only, with the hidden fields read-only in their places', async () => {
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await heading(page, 'Update Profile').waitFor();
    expect(await page.getByLabel('First Name', { exact: true }).inputValue()).toBe('Amelia');
    expect(await page.getByLabel('Last Name', { exact: true }).inputValue()).toBe('Hart');
    for (const [label, input] of [
      ['Profile Picture', 'profilePicture'],
      ['Date of Birth', 'dob'],
      ['Gender', 'genderCode'],
      ['Phone Number', 'phoneNumber'],
    ] as const) {
      await hiddenField(label).getByText('Hidden', { exact: true }).waitFor();
      expect(await page.locator(`#profile-${input}`).count(), label).toBe(0);
    }
    expect(await page.getByText(/^Drag and drop a file here/).count()).toBe(0);
    for (const section of ['Address', 'Social', 'Notifications']) {
      const part = page.getByRole('region', { name: section, exact: true });
      await part.getByText('Hidden', { exact: true }).waitFor();
      expect(await part.locator('input').count(), section).toBe(0);
    }
    await shoot('hidden-profile-edit');

    const sent = page.waitForRequest((r) => r.url().endsWith('/api/UpdateProfile'));
    await page.getByLabel('First Name', { exact: true }).fill('Amy');
    await submitForm(page);
    // Only what the form shows is sent: no stand-in values for what it does not.
    const body = (await sent).postData() ?? '';
    expect(body).toContain('Amy');
    for (const key of [
      'dob',
      'genderCode',
      'phoneNumber',
      'address[',
      'social[',
      'notification[',
      'profilePicture"',
    ])
      expect(body, key).not.toContain(`name="${key}`);
    await toast(page, 'Profile updated successfully').waitFor();
  });

  it('saved the name and kept every hidden field as it was', async () => {
    const saved = await stored();
    expect(saved).toMatchObject({
      firstName: 'Amy',
      lastName: 'Hart',
      dob: STORED.dob,
      phoneNumber: STORED.phoneNumber,
      gender: { genderCode },
      address: { addressLineOne: STORED.addressLineOne, country: { countryCode } },
      social: { linkedin: STORED.linkedin },
      notification: { email: true },
      version: 2,
    });
    expect(saved.profilePicture?.thumbnail).toBeTruthy();
  });

  it('lists the profile with its name', async () => {
    await page.goto('/registry/profiles');
    await heading(page, 'Profiles').waitFor();
    await page.getByRole('cell', { name: 'Amy', exact: true }).waitFor();
  });
});
