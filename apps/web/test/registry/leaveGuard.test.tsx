import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useUnsavedChangesGuard } from '../../src/ui/useUnsavedChangesGuard';
import { ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';

/*
 * The leave guard every form with unsaved changes shares with the performance grid: in-app
 * navigation (Back, links, history) asks first, and the browser asks before the tab is closed or
 * reloaded; after a save, or choosing to discard, the way is free.
 */

const GENDER_ALL = ['VIEW_GENDERS', 'CREATE_GENDER', 'UPDATE_GENDER', 'DELETE_GENDER'];
const GENDER = {
  genderCode: 'GENDER-1',
  genderName: 'Female',
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  version: 4,
};

/** Whether the browser would ask before leaving the page now. */
function browserWouldAsk(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

const nameField = () => screen.getByLabelText('Gender Name') as HTMLInputElement;

function openEdit(handlers = {}) {
  return renderRegistry(
    { pathname: '/registry/gender/edit/GENDER-1', state: { back: '/registry/genders?keyword=fem' } },
    GENDER_ALL,
    {
      GetGenderByCode: ok(GENDER, 'Gender fetched successfully'),
      GetGenders: ok([], 'Genders fetched successfully', 0),
      ...handlers,
    },
  );
}

resetScreensAfterEach();

describe('leave guard on the registry forms', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('leaves an untouched form without asking', async () => {
    const user = userEvent.setup();
    const api = openEdit();
    await screen.findByDisplayValue('Female');
    expect(browserWouldAsk()).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/genders'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before Back drops typed changes: Keep editing stays, Discard changes leaves', async () => {
    const user = userEvent.setup();
    const api = openEdit();
    await screen.findByDisplayValue('Female');
    await user.type(nameField(), ' (edited)');
    expect(browserWouldAsk()).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Back' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    expect(dialog.textContent).toContain(
      'Some fields have been changed but not saved. Leaving now will lose them.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.router.state.location.pathname).toBe('/registry/gender/edit/GENDER-1');
    expect(nameField().value).toBe('Female (edited)');

    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' })).getByRole('button', {
        name: 'Discard changes',
      }),
    );
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/genders'));
    expect(api.router.state.location.search).toBe('?keyword=fem');
    expect(browserWouldAsk()).toBe(false);
  });

  it('holds the browser history too (Back in the browser)', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/genders', GENDER_ALL, {
      GetGenders: ok([GENDER], 'Genders fetched successfully', 1),
      GetGenderByCode: ok(GENDER, 'Gender fetched successfully'),
    });
    await user.click(await screen.findByRole('radio', { name: 'Select Female' }));
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await screen.findByDisplayValue('Female');
    await user.type(nameField(), 'x');
    await act(() => api.router.navigate(-1));
    expect(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' })).toBeTruthy();
    expect(api.router.state.location.pathname).toBe('/registry/gender/edit/GENDER-1');
  });

  it('guards a create form with something typed', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/gender/create', GENDER_ALL, {
      GetGenders: ok([], 'Genders fetched successfully', 0),
    });
    await user.type(await screen.findByLabelText('Gender Name'), 'Agender');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' })).toBeTruthy();
    expect(api.router.state.location.pathname).toBe('/registry/gender/create');
  });

  it('after a successful save leaves without asking', async () => {
    const user = userEvent.setup();
    const api = openEdit({
      UpdateGender: reply((call) =>
        ok({ ...GENDER, genderName: call.body.genderName, version: 5 }, 'Gender updated successfully'),
      ),
    });
    await screen.findByDisplayValue('Female');
    await user.type(nameField(), ' (edited)');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/genders'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(browserWouldAsk()).toBe(false);
  });

  it('guards the profile form the same way', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/profile/create', ['VIEW_PROFILES', 'CREATE_PROFILE'], {
      GetProfiles: ok([], 'Profiles fetched successfully', 0),
    });
    await user.type(await screen.findByLabelText('First Name'), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('dialog', { name: 'Discard unsaved changes?' })).toBeTruthy();
    expect(api.router.state.location.pathname).toBe('/registry/profile/create');
  });
});

describe('useUnsavedChangesGuard', () => {
  function Screen({ dirty, onRelease }: { dirty: boolean; onRelease?: (release: () => void) => void }) {
    const guard = useUnsavedChangesGuard(dirty);
    onRelease?.(guard.release);
    return (
      <>
        <Link to="/elsewhere">Elsewhere</Link>
        <output data-testid="guard">{guard.state}</output>
      </>
    );
  }

  function renderAt(dirty: boolean, onRelease?: (release: () => void) => void) {
    const router = createMemoryRouter(
      [
        { path: '/here', element: <Screen dirty={dirty} onRelease={onRelease} /> },
        { path: '/elsewhere', element: <p>Elsewhere page</p> },
      ],
      { initialEntries: ['/here'] },
    );
    render(<RouterProvider router={router} />);
    return router;
  }

  it('blocks a link while dirty and lets it through once released', async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    const router = renderAt(true, (r) => {
      release = r;
    });
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(screen.getByTestId('guard').textContent).toBe('blocked');
    expect(router.state.location.pathname).toBe('/here');
    // Released in the same tick as the navigation that follows a save: nothing is held.
    await act(async () => {
      release();
      await router.navigate('/elsewhere');
    });
    expect(router.state.location.pathname).toBe('/elsewhere');
    expect(browserWouldAsk()).toBe(false);
  });

  it('lets everything through while clean', async () => {
    const user = userEvent.setup();
    const router = renderAt(false);
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('Elsewhere page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});
