import { cleanup, screen, waitFor, waitForElementToBeRemoved, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type Call, ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';

type Gender = {
  genderCode: string;
  genderName: string;
  createdAt: string;
  updatedAt: string;
};

const NAMES =
  'Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo Lima Mike November Oscar Papa Quebec Romeo Sierra Tango Uniform Victor Whiskey'.split(
    ' ',
  );

function genders(): Gender[] {
  return NAMES.map((genderName, i) => ({
    genderCode: `GENDER-${String(i + 1).padStart(2, '0')}`,
    genderName,
    createdAt: new Date(Date.UTC(2024, 0, i + 1)).toISOString(),
    updatedAt: new Date(Date.UTC(2024, 0, i + 1)).toISOString(),
  }));
}

/** The HTTP list contract, over an array: keyword, sort and paging as the server applies them. */
function listOf<T extends Record<string, unknown>>(rows: () => T[]) {
  return reply((call: Call) => {
    const { keyword = '', sortField = '_id', sortValue = 'desc' } = call.query;
    const page = Number(call.query.page ?? 1);
    const limit = Number(call.query.limit ?? 10);
    const all = rows().filter((r) =>
      Object.values(r).some((v) => typeof v === 'string' && v.toLowerCase().includes(keyword.toLowerCase())),
    );
    const key = sortField === '_id' ? 'createdAt' : sortField;
    all.sort((a, b) => String(a[key]).localeCompare(String(b[key])) * (sortValue === 'asc' ? 1 : -1));
    return ok(all.slice((page - 1) * limit, page * limit), 'Fetched', all.length);
  });
}

const GENDER_ALL = ['VIEW_GENDERS', 'CREATE_GENDER', 'UPDATE_GENDER', 'DELETE_GENDER'];

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
// The first column's cell: the cells before it hold the row's check box and radio.
const firstCellTexts = () =>
  bodyRows().map(
    (r) =>
      within(r)
        .getAllByRole('cell')
        .find((c) => !c.querySelector('input'))?.textContent,
  );

resetScreensAfterEach();

describe('shared list screen', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('loads page 1 of 10 sorted by _id descending and shows the range and bounds', async () => {
    const api = renderRegistry('/registry/genders', GENDER_ALL, { GetGenders: listOf(genders) });
    expect(await screen.findByRole('cell', { name: 'Whiskey' })).toBeTruthy();
    expect(api.lastCallTo('GetGenders')?.query).toMatchObject({
      page: '1',
      limit: '10',
      sortField: '_id',
      sortValue: 'desc',
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Genders' })).toBeTruthy();
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByText('1 - 10 of 23')).toBeTruthy();
    expect(screen.getByText('Rows per page:')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go to first page' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Go to previous page' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Go to next page' }).hasAttribute('disabled')).toBe(false);
    expect(screen.getByRole('button', { name: 'Go to last page' }).hasAttribute('disabled')).toBe(false);
  });

  it('pages forward to the end, where next and last are disabled', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/genders', GENDER_ALL, { GetGenders: listOf(genders) });
    await screen.findByRole('cell', { name: 'Whiskey' });
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(await screen.findByText('11 - 20 of 23')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Go to last page' }));
    expect(await screen.findByText('21 - 23 of 23')).toBeTruthy();
    expect(api.lastCallTo('GetGenders')?.query.page).toBe('3');
    expect(firstCellTexts()).toEqual(['Charlie', 'Bravo', 'Alpha']);
    expect(screen.getByRole('button', { name: 'Go to next page' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Go to last page' }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Go to first page' }));
    expect(await screen.findByText('1 - 10 of 23')).toBeTruthy();
  });

  it('sorts ascending on a new header and toggles on the current one', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/genders', GENDER_ALL, { GetGenders: listOf(genders) });
    await screen.findByRole('cell', { name: 'Whiskey' });
    await user.click(screen.getByRole('button', { name: 'Gender Name' }));
    await waitFor(() => expect(firstCellTexts()[0]).toBe('Alpha'));
    expect(api.lastCallTo('GetGenders')?.query).toMatchObject({ sortField: 'genderName', sortValue: 'asc' });
    await user.click(screen.getByRole('button', { name: /Gender Name/ }));
    await waitFor(() => expect(firstCellTexts()[0]).toBe('Whiskey'));
    expect(api.lastCallTo('GetGenders')?.query).toMatchObject({ sortField: 'genderName', sortValue: 'desc' });
    await user.click(screen.getByRole('button', { name: 'Created At' }));
    await waitFor(() =>
      expect(api.lastCallTo('GetGenders')?.query).toMatchObject({ sortField: 'createdAt', sortValue: 'asc' }),
    );
  });

  it('resets to page 1 when rows per page changes', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/genders?page=2', GENDER_ALL, { GetGenders: listOf(genders) });
    expect(await screen.findByText('11 - 20 of 23')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: /Rows per page/ }));
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['10', '15', '20', '25', '30']);
    await user.click(screen.getByRole('option', { name: '20' }));
    expect(await screen.findByText('1 - 20 of 23')).toBeTruthy();
    expect(api.lastCallTo('GetGenders')?.query).toMatchObject({ page: '1', limit: '20' });
  });

  it('remembers rows per page for each list in this browser, besides the address', async () => {
    const user = userEvent.setup();
    const first = renderRegistry('/registry/genders', GENDER_ALL, { GetGenders: listOf(genders) });
    expect(await screen.findByText('1 - 10 of 23')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: /Rows per page/ }));
    await user.click(screen.getByRole('option', { name: '25' }));
    expect(await screen.findByText('1 - 23 of 23')).toBeTruthy();
    expect(first.router.state.location.search).toBe('?limit=25');
    cleanup();

    const again = renderRegistry('/registry/genders', GENDER_ALL, { GetGenders: listOf(genders) });
    expect(await screen.findByText('1 - 23 of 23')).toBeTruthy();
    expect(again.lastCallTo('GetGenders')?.query).toMatchObject({ limit: '25' });
    // Back to the usual 10: remembered too, so a list opened without a limit shows 10 again.
    await user.click(screen.getByRole('combobox', { name: /Rows per page/ }));
    await user.click(screen.getByRole('option', { name: '10' }));
    expect(await screen.findByText('1 - 10 of 23')).toBeTruthy();
    expect(again.router.state.location.search).toBe('');
    cleanup();
    const third = renderRegistry('/registry/genders', GENDER_ALL, { GetGenders: listOf(genders) });
    expect(await screen.findByText('1 - 10 of 23')).toBeTruthy();
    expect(third.lastCallTo('GetGenders')?.query).toMatchObject({ limit: '10' });
    cleanup();

    const other = renderRegistry('/registry/countries', ['VIEW_COUNTRIES'], {
      GetCountries: ok([], 'Countries fetched successfully', 0),
    });
    await waitFor(() => expect(other.lastCallTo('GetCountries')?.query).toMatchObject({ limit: '10' }));
  });

  it('opens a row on double-click, and on Enter on its selection', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/genders', GENDER_ALL, { GetGenders: listOf(genders) });
    await user.dblClick(await screen.findByRole('cell', { name: 'Whiskey' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/gender/GENDER-23'));
    cleanup();

    const keyboard = renderRegistry('/registry/genders', GENDER_ALL, { GetGenders: listOf(genders) });
    const radio = await screen.findByRole('radio', { name: 'Select Victor' });
    radio.focus();
    await user.keyboard(' ');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(keyboard.router.state.location.pathname).toBe('/registry/gender/GENDER-22'));
  });

  it('submitting the filter sets the keyword and returns to page 1', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/genders?page=2', GENDER_ALL, { GetGenders: listOf(genders) });
    await screen.findByText('11 - 20 of 23');
    await user.type(screen.getByPlaceholderText('Filter...'), 'ra{Enter}');
    await waitFor(() =>
      expect(api.lastCallTo('GetGenders')?.query).toMatchObject({ keyword: 'ra', page: '1' }),
    );
    expect(await screen.findByText('1 - 2 of 2')).toBeTruthy();
    expect(firstCellTexts().sort()).toEqual(['Bravo', 'Sierra']);
  });

  it('shows the module empty text when nothing matches', async () => {
    renderRegistry('/registry/genders', GENDER_ALL, { GetGenders: ok([], 'Fetched', 0) });
    expect(
      await screen.findByText('No gender added yet (or) No gender matching the current filter'),
    ).toBeTruthy();
    expect(screen.getByText('0 - 0 of 0')).toBeTruthy();
  });

  it('shows the server message in place of the screen on a non-200 answer', async () => {
    renderRegistry('/registry/genders', GENDER_ALL, {
      GetGenders: { statusCode: 500, message: 'An unexpected error occurred' },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('.MuiAlert-message')?.textContent).toBe('An unexpected error occurred');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByPlaceholderText('Filter...')).toBeNull();
  });

  it('offers View, Edit, Delete for the selected row by permission, and clears the selection', async () => {
    const user = userEvent.setup();
    renderRegistry('/registry/genders', ['VIEW_GENDERS', 'UPDATE_GENDER'], { GetGenders: listOf(genders) });
    await screen.findByRole('cell', { name: 'Whiskey' });
    expect(screen.queryByRole('button', { name: /Add Gender/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'View' })).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Select Victor' }));
    const actions = screen.getByRole('toolbar', { name: 'Selected row actions' });
    expect(
      within(actions)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['View', 'Edit', 'Clear selection']);
    expect((screen.getByRole('radio', { name: 'Select Victor' }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('toolbar')).toBeNull();
    expect((screen.getByRole('radio', { name: 'Select Victor' }) as HTMLInputElement).checked).toBe(false);
  });

  it('keys rows by entity code', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/genders', GENDER_ALL, { GetGenders: listOf(genders) });
    await screen.findByRole('cell', { name: 'Whiskey' });
    await user.click(screen.getByRole('radio', { name: 'Select Whiskey' }));
    expect((screen.getByRole('radio', { name: 'Select Whiskey' }) as HTMLInputElement).value).toBe(
      'GENDER-23',
    );
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/gender/edit/GENDER-23'));
    expect(api.router.state.location.state).toEqual({ back: '/registry/genders' });
  });

  it('Add passes the current list path, query included, as the back target', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/genders?page=2', GENDER_ALL, {
      GetGenders: listOf(genders),
    });
    await screen.findByText('11 - 20 of 23');
    await user.click(screen.getByRole('button', { name: 'Add Gender' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/gender/create'));
    expect(api.router.state.location.state).toEqual({ back: '/registry/genders?page=2' });
  });

  it('asks before deleting, then reloads the page with the success toast', async () => {
    const user = userEvent.setup();
    let rows = genders();
    const api = renderRegistry('/registry/genders', GENDER_ALL, {
      GetGenders: listOf(() => rows),
      DeleteGender: reply((call) => {
        rows = rows.filter((r) => r.genderCode !== call.body.genderCode);
        return ok(null, 'Gender deleted successfully');
      }),
    });
    await screen.findByRole('cell', { name: 'Whiskey' });
    await user.click(screen.getByRole('radio', { name: 'Select Whiskey' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete gender?' });
    expect(dialog.textContent).toContain('Are you sure you want to delete "Whiskey"?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitForElementToBeRemoved(() => screen.queryByRole('dialog'));
    expect(api.callsTo('DeleteGender')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Gender deleted successfully')).toBeTruthy();
    expect(api.lastCallTo('DeleteGender')?.body).toEqual({ genderCode: 'GENDER-23' });
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Whiskey' })).toBeNull());
    expect(screen.getByText('1 - 10 of 22')).toBeTruthy();
    expect(api.lastCallTo('GetGenders')?.query.page).toBe('1');
  });

  it('shows the server message when a delete is refused and keeps the row', async () => {
    const user = userEvent.setup();
    renderRegistry('/registry/genders', GENDER_ALL, {
      GetGenders: listOf(genders),
      DeleteGender: {
        statusCode: 409,
        message: 'Cannot delete this gender: it is still used by 2 profiles',
      },
    });
    await screen.findByRole('cell', { name: 'Whiskey' });
    await user.click(screen.getByRole('radio', { name: 'Select Whiskey' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Cannot delete this gender: it is still used by 2 profiles')).toBeTruthy();
    // The dialog keeps the reason after the toast has gone, until it is closed.
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('alert').textContent).toContain('it is still used by 2 profiles');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitForElementToBeRemoved(() => screen.queryByRole('dialog'));
    expect(screen.getByRole('cell', { name: 'Whiskey' })).toBeTruthy();
  });

  it('offers View only on permissions and audit logs', async () => {
    const user = userEvent.setup();
    renderRegistry(
      '/registry/permissions',
      ['VIEW_PERMISSIONS', 'CREATE_ROLE', 'UPDATE_ROLE', 'DELETE_ROLE'],
      {
        GetPermissions: ok(
          [
            {
              permissionCode: 'PERM-1',
              permissionName: 'VIEW_ROLES',
              permissionDescription: 'View roles',
              createdAt: '2024-01-01T00:00:00Z',
            },
          ],
          'Permissions fetched successfully',
          1,
        ),
      },
    );
    await user.click(await screen.findByRole('radio', { name: 'Select VIEW_ROLES' }));
    expect(
      within(screen.getByRole('toolbar'))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['View', 'Clear selection']);
    expect(screen.queryByRole('button', { name: /^Add/ })).toBeNull();
  });

  it('lists a sub-list through its endpoint with the parent code in the body', async () => {
    const api = renderRegistry('/registry/country/COUNTRY-1/states', ['VIEW_COUNTRIES', 'VIEW_STATES'], {
      GetCountryByCode: ok({ countryCode: 'COUNTRY-1', name: 'Germany', iso2: 'DE', iso3: 'DEU' }),
      GetStatesByCountryCode: ok(
        [
          {
            stateCode: 'STATE-1',
            name: 'Bavaria',
            iso: 'BY',
            country: { countryCode: 'COUNTRY-1', name: 'Germany' },
          },
        ],
        'States fetched successfully',
        1,
      ),
    });
    expect(await screen.findByRole('cell', { name: 'Bavaria' })).toBeTruthy();
    const call = api.lastCallTo('GetStatesByCountryCode');
    expect(call?.method).toBe('POST');
    expect(call?.body).toEqual({ countryCode: 'COUNTRY-1' });
    expect(call?.query).toMatchObject({ page: '1', limit: '10', sortField: '_id', sortValue: 'desc' });
    expect(screen.getByRole('heading', { level: 1, name: 'Country States' })).toBeTruthy();
    expect(await screen.findByText('Country: Germany')).toBeTruthy();
    const back = screen.getByRole('button', { name: 'Back' });
    await userEvent.setup().click(back);
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/country/COUNTRY-1'));
  });

  it("a sub-list's Add hands the parent over to the create form", async () => {
    const user = userEvent.setup();
    const api = renderRegistry(
      '/registry/state/STATE-1/cities',
      ['VIEW_STATES', 'VIEW_CITIES', 'CREATE_CITY'],
      {
        GetStateByCode: ok({
          stateCode: 'STATE-1',
          name: 'Bavaria',
          iso: 'BY',
          country: { countryCode: 'COUNTRY-1', name: 'Germany' },
        }),
        GetCitiesByStateCode: ok([], 'Cities fetched successfully', 0),
      },
    );
    await screen.findByText('State: Bavaria');
    await user.click(screen.getByRole('button', { name: 'Add City' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/city/create'));
    expect(api.router.state.location.state).toEqual({
      back: '/registry/state/STATE-1/cities',
      preset: {
        countryCode: { value: 'COUNTRY-1', label: 'Germany' },
        stateCode: { value: 'STATE-1', label: 'Bavaria' },
      },
    });
  });
});
