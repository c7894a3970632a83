import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiPost,
  filterBy,
  heading,
  pick,
  readValue,
  selectedText,
  selectRow,
  submitForm,
  toast,
  waitForRange,
} from './registry-ui';
import { sharedE2E, watchConsole } from './support/e2e';

/** The cascading address selectors of the city and profile forms, and the profile picture. */

const e2e = sharedE2E();
let page: Page;
let consoleErrors: string[];

const DROP_TEXT = 'Drag and drop a file here, or click to select a file';
const LINKEDIN = 'https://www.linkedin.com/in/amelia-hart';
const INSTAGRAM = 'https://www.instagram.com/amelia.hart';

beforeAll(async () => {
  page = await e2e.newPage();
  consoleErrors = watchConsole(page).errors;
  await e2e.login(page);
  await apiPost(page, 'CreateGender', { genderName: 'Female' });
  const home = String(
    (await apiPost(page, 'CreateCountry', { name: 'Germany', iso2: 'DE', iso3: 'DEU' })).countryCode,
  );
  const away = String(
    (await apiPost(page, 'CreateCountry', { name: 'France', iso2: 'FR', iso3: 'FRA' })).countryCode,
  );
  const bavaria = String(
    (await apiPost(page, 'CreateState', { name: 'Bavaria', iso: 'BY', countryCode: home })).stateCode,
  );
  const berlin = String(
    (await apiPost(page, 'CreateState', { name: 'Berlin', iso: 'BE', countryCode: home })).stateCode,
  );
  const brittany = String(
    (await apiPost(page, 'CreateState', { name: 'Brittany', iso: 'BRE', countryCode: away })).stateCode,
  );
  for (const [name, stateCode, countryCode] of [
    ['Munich', bavaria, home],
    ['Nuremberg', bavaria, home],
    ['Berlin Mitte', berlin, home],
    ['Rennes', brittany, away],
  ] as const) {
    await apiPost(page, 'CreateCity', { name, stateCode, countryCode });
  }
  const role = String((await apiPost(page, 'CreateRole', { roleName: 'Staff' })).roleCode);
  await apiPost(page, 'register', {
    username: 'amelia',
    email: 'amelia@example.com',
    password: 'amelia-password-1',
    roleCode: role,
  });
});

/** A real picture, drawn in the page: the server decodes and re-encodes what it receives. */
async function drawPicture(colour: string): Promise<Buffer> {
  const dataUrl = await page.evaluate((fill) => {
    const canvas = document.createElement('canvas');
    canvas.width = 200;
    canvas.height = 200;
    const ctx = canvas.getContext('2d')!;
    const gradient = ctx.createLinearGradient(0, 0, 200, 200);
    gradient.addColorStop(0, fill);
    gradient.addColorStop(1, '#ffffff');
    ctx.fillStyle = gradient;
    ctx.fillRect(0, 0, 200, 200);
    ctx.fillStyle = '#17212b';
    ctx.font = 'bold 72px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('AH', 100, 104);
    return canvas.toDataURL('image/png');
  }, colour);
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

const pictureInput = () => page.locator('#profile-profilePicture');
const hasField = async (label: string) => (await page.getByLabel(label, { exact: true }).count()) > 0;

describe('city form', () => {
  it('shows the state selector once a country is chosen and clears the state when the country changes', async () => {
    await page.goto('/registry/city/create');
    await heading(page, 'Create City').waitFor();
    expect(await hasField('State')).toBe(false);
    await pick(page, 'Country', 'Germany');
    await page.getByLabel('State', { exact: true }).waitFor();
    await page.getByLabel('State', { exact: true }).click();
    await page.getByRole('option', { name: 'Bavaria', exact: true }).waitFor();
    expect(await page.getByRole('option').allInnerTexts()).toEqual(['Bavaria', 'Berlin']);
    await page.getByRole('option', { name: 'Bavaria', exact: true }).click();
    expect(await selectedText(page, 'State')).toBe('Bavaria');
    await pick(page, 'Country', 'France');
    await expect.poll(() => selectedText(page, 'State')).toBe('');
    await page.getByLabel('State', { exact: true }).click();
    await page.getByRole('option', { name: 'Brittany', exact: true }).waitFor();
    expect(await page.getByRole('option').allInnerTexts()).toEqual(['Brittany']);
    await page.getByRole('option', { name: 'Brittany', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('Saint-Malo');
    await submitForm(page);
    await toast(page, 'City created successfully').waitFor();
    await page.waitForURL((url) => url.pathname === '/registry/cities');
    await page.getByRole('cell', { name: 'Saint-Malo', exact: true }).waitFor();
  });
});

describe('profile', () => {
  it('asks for a picture and the required fields before sending anything', async () => {
    await page.goto('/registry/profiles');
    await heading(page, 'Profiles').waitFor();
    await page.getByRole('button', { name: 'Add Profile', exact: true }).click();
    await heading(page, 'Create Profile').waitFor();
    await page.getByText(DROP_TEXT).waitFor();
    await submitForm(page);
    await page.getByText('Profile picture is required').waitFor();
    await page.getByText('First name is required').waitFor();
    await page.getByText('User is required').waitFor();
  });

  it('refuses a file of the wrong type with the drop zone message', async () => {
    await pictureInput().setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    // In the extensions people know, as the server says it, not as MIME types.
    await page.getByText('File type must be jpg, jpeg, png or webp', { exact: true }).waitFor();
    expect(await page.getByText(/image\//).count()).toBe(0);
  });

  it('creates a profile through the cascading address and the drop zone', async () => {
    await page.getByLabel('First Name', { exact: true }).fill('Amelia');
    await page.getByLabel('Last Name', { exact: true }).fill('Hart');
    await page.getByLabel('Date of Birth', { exact: true }).fill('1990-04-12');
    await pick(page, 'Gender', 'Female');
    await page.getByLabel('Phone Number', { exact: true }).fill('+49 89 1234567');
    await pick(page, 'User', 'amelia');
    await page.getByLabel('Address Line One', { exact: true }).fill('Marienplatz 1');

    expect(await hasField('State')).toBe(false);
    expect(await hasField('City')).toBe(false);
    await pick(page, 'Country', 'Germany');
    expect(await hasField('City')).toBe(false);
    await pick(page, 'State', 'Berlin');
    await pick(page, 'City', 'Berlin Mitte');
    await pick(page, 'State', 'Bavaria');
    await expect.poll(() => selectedText(page, 'City')).toBe('');
    await page.getByLabel('City', { exact: true }).click();
    await page.getByRole('option', { name: 'Munich', exact: true }).waitFor();
    expect(await page.getByRole('option').allInnerTexts()).toEqual(['Munich', 'Nuremberg']);
    await page.getByRole('option', { name: 'Munich', exact: true }).click();
    await pick(page, 'Country', 'France');
    await expect.poll(() => selectedText(page, 'State')).toBe('');
    expect(await hasField('City')).toBe(false);
    await pick(page, 'Country', 'Germany');
    await pick(page, 'State', 'Bavaria');
    await pick(page, 'City', 'Munich');
    await page.getByLabel('Postal Code', { exact: true }).fill('80331');

    await page.getByLabel('LinkedIn', { exact: true }).fill(LINKEDIN);
    await page.getByLabel('Instagram', { exact: true }).fill(INSTAGRAM);
    await page.getByRole('switch', { name: 'Email', exact: true }).check();

    await pictureInput().setInputFiles({
      name: 'amelia.png',
      mimeType: 'image/png',
      buffer: await drawPicture('#009746'),
    });
    await page.getByRole('img', { name: 'Profile Picture: amelia.png' }).waitFor();
    expect(await page.getByText(/^File type must be/).count()).toBe(0);

    await submitForm(page);
    await toast(page, 'Profile created successfully').waitFor();
    await page.waitForURL((url) => url.pathname === '/registry/profiles');
  });

  it('views it with LinkedIn, the city name and only the picture', async () => {
    await filterBy(page, 'Amelia');
    await waitForRange(page, '1 - 1 of 1');
    await selectRow(page, 'Amelia');
    await page.getByRole('button', { name: 'View', exact: true }).click();
    await heading(page, 'View Profile').waitFor();
    expect(await readValue(page, 'First Name')).toBe('Amelia');
    expect(await readValue(page, 'LinkedIn')).toBe(LINKEDIN);
    expect(await readValue(page, 'Instagram')).toBe(INSTAGRAM);
    expect(await readValue(page, 'Country')).toBe('Germany');
    expect(await readValue(page, 'State')).toBe('Bavaria');
    expect(await readValue(page, 'City')).toBe('Munich');
    expect(await readValue(page, 'Gender')).toBe('Female');
    expect(await readValue(page, 'User')).toBe('amelia');
    expect(await readValue(page, 'Email')).toBe('Yes');
    expect(await readValue(page, 'SMS')).toBe('No');
    const picture = page.getByRole('img', { name: /^Profile Picture/ });
    await picture.waitFor();
    expect(await picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await page.getByText(DROP_TEXT).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Submit' }).count()).toBe(0);
  });

  it('updates it keeping the saved picture, then with a new one', async () => {
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await waitForRange(page, '1 - 1 of 1');
    await selectRow(page, 'Amelia');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await heading(page, 'Update Profile').waitFor();
    await page.getByRole('img', { name: /^Profile Picture/ }).waitFor();
    expect(await selectedText(page, 'City')).toBe('Munich');
    await page.getByLabel('First Name', { exact: true }).fill('Amelie');
    await submitForm(page);
    await toast(page, 'Profile updated successfully').waitFor();
    await page.waitForURL((url) => url.pathname === '/registry/profiles');

    await filterBy(page, 'Amelie');
    await waitForRange(page, '1 - 1 of 1');
    await selectRow(page, 'Amelie');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await heading(page, 'Update Profile').waitFor();
    await page.getByRole('img', { name: /^Profile Picture/ }).waitFor();
    await pictureInput().setInputFiles({
      name: 'new.png',
      mimeType: 'image/png',
      buffer: await drawPicture('#1f6feb'),
    });
    await page.getByRole('img', { name: 'Profile Picture: new.png' }).waitFor();
    await e2e.screenshot(page, 'registry-profile-form');
    await submitForm(page);
    await toast(page, 'Profile updated successfully').waitFor();
    await page.waitForURL((url) => url.pathname === '/registry/profiles');
  });

  it('deletes it after confirmation', async () => {
    await waitForRange(page, '1 - 1 of 1');
    await selectRow(page, 'Amelie');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Delete profile?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await toast(page, 'Profile deleted successfully').waitFor();
    await page.getByText('No profile added yet (or) No profile matching the current filter').waitFor();
  });

  it('logged no console errors on the way', () => {
    expect(consoleErrors).toEqual([]);
  });
});
