import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiEnvelope } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { OTAGO } from '../support/geography';
import { type Call, ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';
import { findReadValue } from './loaded';

/*
 * Optimistic concurrency in the forms and the delete dialog: every update and delete names the
 * version it read; a stale one shows, field by field, what the other person changed, and both
 * ways on (take theirs, keep mine) work without retyping.
 */

const STATE_ALL = ['VIEW_STATES', 'CREATE_STATE', 'UPDATE_STATE', 'DELETE_STATE', 'VIEW_COUNTRIES'];
/** The state as both people open it. */
const BASE = OTAGO;
const THEIRS = {
  ...BASE,
  iso: 'OTA',
  country: { countryCode: 'COUNTRY-2', name: 'Aotearoa' },
  updatedAt: '2024-02-01T00:00:00Z',
  version: 2,
};
const CHANGED = 'This state was changed by jdoe at 2024-02-01 00:00:00 UTC since you opened it';
const DELETED = 'This state was deleted by jdoe at 2024-02-01 00:00:00 UTC since you opened it';

const stale = (message: string, data: unknown): ApiEnvelope => ({ statusCode: 409, message, data });

/** UpdateState refuses any version but the current one, with the current record. */
function updateAt(current: () => typeof BASE | null, message = CHANGED) {
  return reply((call: Call) => {
    const now = current();
    if (!now || Number(call.body.version) !== now.version) return stale(message, now);
    return ok({ ...now, name: call.body.name, version: now.version + 1 }, 'State updated successfully');
  });
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

/** Opens Update State for STATE-1 (from the states list) and edits Name and ISO. */
async function editState(handlers: Parameters<typeof renderRegistry>[2]) {
  const user = userEvent.setup();
  const api = renderRegistry(
    { pathname: '/registry/state/edit/STATE-1', state: { back: '/registry/states?keyword=ot' } },
    STATE_ALL,
    { GetStateByCode: ok(BASE, 'State fetched successfully'), GetStates: ok([], 'OK', 0), ...handlers },
  );
  await screen.findByDisplayValue('Otago');
  await user.clear(field('Name'));
  await user.type(field('Name'), 'Otago Region');
  await user.clear(field('ISO'));
  await user.type(field('ISO'), 'OTG');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  return { user, api };
}

resetScreensAfterEach();

describe('update: versions and conflicts', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('sends the version the form was opened with', async () => {
    const { api } = await editState({ UpdateState: updateAt(() => BASE) });
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/states'));
    expect(api.lastCallTo('UpdateState')?.body).toMatchObject({
      stateCode: 'STATE-1',
      name: 'Otago Region',
      iso: 'OTG',
      countryCode: 'COUNTRY-1',
      version: '1',
    });
  });

  it('shows field by field what the other person changed, marking the fields the user changed too', async () => {
    const { api } = await editState({ UpdateState: updateAt(() => THEIRS) });
    const alert = await screen.findByRole('alert', {
      name: 'Not saved: this state was changed by someone else',
    });
    expect(alert.textContent).toContain(`${CHANGED}.`);
    const theirs = within(alert).getByRole('heading', { name: 'Their changes' }).parentElement!;
    const entry = (name: string) => theirs.querySelector(`[data-field="${name}"]`)?.textContent;
    expect(entry('iso')).toBe('ISOOTA (was: OT)You changed it tooYours: OTG');
    expect(entry('countryCode')).toBe('CountryAotearoa (was: New Zealand)');
    expect(entry('name')).toBeUndefined();
    const mine = within(alert).getByRole('heading', { name: 'Your other changes' }).parentElement!;
    expect(mine.querySelector('[data-field="name"]')?.textContent).toBe('NameOtago Region (was: Otago)');
    // Nothing typed is lost, and nothing left the screen.
    expect(field('Name').value).toBe('Otago Region');
    expect(field('ISO').value).toBe('OTG');
    expect(api.router.state.location.pathname).toBe('/registry/state/edit/STATE-1');
  });

  it('keep mine saves the typed values again over their version, without retyping', async () => {
    const { user, api } = await editState({ UpdateState: updateAt(() => THEIRS) });
    await user.click(await screen.findByRole('button', { name: 'Keep mine (save again)' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/states'));
    expect(api.router.state.location.search).toBe('?keyword=ot');
    const calls = api.callsTo('UpdateState');
    expect(calls.map((c) => c.body.version)).toEqual(['1', '2']);
    expect(calls[1]?.body).toMatchObject({ name: 'Otago Region', iso: 'OTG', countryCode: 'COUNTRY-1' });
  });

  it('take theirs loads their record into the form; the next save names their version', async () => {
    const { user, api } = await editState({ UpdateState: updateAt(() => THEIRS) });
    await user.click(await screen.findByRole('button', { name: 'Take theirs (reload)' }));
    await waitFor(() => expect(field('ISO').value).toBe('OTA'));
    expect(field('Name').value).toBe('Otago');
    expect(screen.getByText('Aotearoa')).toBeTruthy();
    expect(screen.queryByRole('alert', { name: /^Not saved:/ })).toBeNull();
    // Their version is the form's own now: nothing to guard, and a save goes through at version 2.
    await user.clear(field('Name'));
    await user.type(field('Name'), 'Otago Province');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/states'));
    expect(api.lastCallTo('UpdateState')?.body).toMatchObject({
      name: 'Otago Province',
      iso: 'OTA',
      countryCode: 'COUNTRY-2',
      version: '2',
    });
  });

  it('a record deleted meanwhile: says so, and Create it again opens the create form with the typed values', async () => {
    const { user, api } = await editState({
      UpdateState: updateAt(() => null, DELETED),
      CreateState: reply((call) =>
        ok({ ...BASE, ...call.body, stateCode: 'STATE-9' }, 'State created successfully'),
      ),
    });
    const alert = await screen.findByRole('alert', {
      name: 'Not saved: this state was deleted by someone else',
    });
    expect(alert.textContent).toContain(`${DELETED}.`);
    expect(within(alert).getByRole('heading', { name: 'Your changes' })).toBeTruthy();
    expect(within(alert).queryByRole('button', { name: /Keep mine/ })).toBeNull();
    await user.click(within(alert).getByRole('button', { name: 'Create it again' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/state/create'));
    await screen.findByRole('heading', { level: 1, name: 'Create State' });
    expect(field('Name').value).toBe('Otago Region');
    expect(field('ISO').value).toBe('OTG');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/states'));
    expect(api.lastCallTo('CreateState')?.body).toEqual({
      name: 'Otago Region',
      iso: 'OTG',
      countryCode: 'COUNTRY-1',
    });
  });

  it('a record deleted meanwhile: Go back asks before dropping the typed values', async () => {
    const { user, api } = await editState({ UpdateState: updateAt(() => null, DELETED) });
    await user.click(await screen.findByRole('button', { name: 'Go back' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    expect(api.router.state.location.pathname).toBe('/registry/state/edit/STATE-1');
    expect(field('Name').value).toBe('Otago Region');
  });
});

describe('delete: versions and conflicts', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  const ROW = { ...BASE };
  let current: typeof BASE | null;
  const handlers = () => ({
    GetStates: reply(() => ok(current ? [current] : [], 'States fetched successfully', current ? 1 : 0)),
    DeleteState: reply((call: Call) => {
      if (!current) return stale(DELETED, null);
      if (Number(call.body.version) !== current.version) return stale(CHANGED, current);
      current = null;
      return ok(null, 'State deleted successfully');
    }),
    GetStateByCode: reply(() => ok(current, 'State fetched successfully')),
  });

  async function askToDelete() {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/states', STATE_ALL, handlers());
    await user.click(await screen.findByRole('radio', { name: 'Select Otago' }));
    // Someone else changes it after the list was read.
    current = { ...THEIRS };
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete state?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    return { user, api };
  }

  it('sends the version of the row', async () => {
    current = { ...ROW };
    const user = userEvent.setup();
    const api = renderRegistry('/registry/states', STATE_ALL, handlers());
    await user.click(await screen.findByRole('radio', { name: 'Select Otago' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('State deleted successfully')).toBeTruthy();
    expect(api.lastCallTo('DeleteState')?.body).toEqual({ stateCode: 'STATE-1', version: '1' });
  });

  it('a stale delete says who changed what, and Delete anyway deletes the new version', async () => {
    current = { ...ROW };
    const { user, api } = await askToDelete();
    const dialog = await screen.findByRole('dialog', { name: 'This state has changed' });
    expect(dialog.textContent).toContain(`${CHANGED}.`);
    expect(dialog.textContent).toContain('ISO: OTA (was: OT)');
    expect(dialog.textContent).toContain('Country: Aotearoa (was: New Zealand)');
    await user.click(within(dialog).getByRole('button', { name: 'Delete anyway' }));
    expect(await screen.findByText('State deleted successfully')).toBeTruthy();
    expect(api.callsTo('DeleteState').map((c) => c.body.version)).toEqual(['1', '2']);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a stale delete offers to look at the record as it is now', async () => {
    current = { ...ROW };
    const { user, api } = await askToDelete();
    const dialog = await screen.findByRole('dialog', { name: 'This state has changed' });
    await user.click(within(dialog).getByRole('button', { name: 'View current state' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/state/STATE-1'));
    expect(await findReadValue('ISO')).toBe('OTA');
    expect(api.callsTo('DeleteState')).toHaveLength(1);
  });

  it('a record deleted meanwhile is said to be gone', async () => {
    current = { ...ROW };
    const user = userEvent.setup();
    renderRegistry('/registry/states', STATE_ALL, handlers());
    await user.click(await screen.findByRole('radio', { name: 'Select Otago' }));
    current = null;
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'This state is gone' });
    expect(dialog.textContent).toContain(`${DELETED}.`);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(
      await screen.findByText('No state added yet (or) No state matching the current filter'),
    ).toBeTruthy();
  });
});
