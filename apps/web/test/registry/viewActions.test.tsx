import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, renderRegistry, reply, resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from './harness';

const GENDER = {
  genderCode: 'GENDER-1',
  genderName: 'Female',
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  version: 3,
};
const ALL = ['VIEW_GENDERS', 'CREATE_GENDER', 'UPDATE_GENDER', 'DELETE_GENDER'];

resetScreensAfterEach();

const headerButtons = () =>
  screen
    .getAllByRole('button')
    .map((b) => b.textContent)
    .filter((t) => ['Edit', 'Delete', 'History'].includes(t ?? ''));

describe('a view leads somewhere', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('offers Edit, Delete and History by permission', async () => {
    renderRegistry('/registry/gender/GENDER-1', [...ALL, 'VIEW_AUDITS'], { GetGenderByCode: ok(GENDER) });
    await screen.findByRole('heading', { level: 1, name: 'View Gender' });
    await waitFor(() => expect(headerButtons().sort()).toEqual(['Delete', 'Edit', 'History']));
    await waitFor(() => expect(screen.getByRole('definition', { name: 'Gender Name' })).toBeTruthy());
    cleanup();
    renderRegistry('/registry/gender/GENDER-1', ['VIEW_GENDERS'], { GetGenderByCode: ok(GENDER) });
    await screen.findByRole('heading', { level: 1, name: 'View Gender' });
    expect(headerButtons()).toEqual([]);
  });

  it("links the edit screen's trail to the list and the record only for a user who may view them", async () => {
    // The Genders step and the record's (named by its code or its name), as links or not.
    const trail = async () => {
      const nav = await screen.findByRole('navigation', { name: 'Breadcrumb' });
      await waitFor(() => expect(nav.textContent).toMatch(/Edit$/));
      return within(nav)
        .getAllByRole('listitem')
        .slice(1, 3)
        .map((item) => item.querySelector('a')?.getAttribute('href'));
    };
    renderRegistry('/registry/gender/edit/GENDER-1', ALL, { GetGenderByCode: ok(GENDER) });
    expect(await trail()).toEqual(['/registry/genders', '/registry/gender/GENDER-1']);
    cleanup();
    renderRegistry('/registry/gender/edit/GENDER-1', ['UPDATE_GENDER'], { GetGenderByCode: ok(GENDER) });
    expect(await trail()).toEqual([undefined, undefined]);
  });

  it('Edit opens the form, History the audit log filtered to the record', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/gender/GENDER-1', [...ALL, 'VIEW_AUDITS'], {
      GetGenderByCode: ok(GENDER),
      GetAudits: ok([], 'Audit Logs fetched successfully', 0),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/gender/edit/GENDER-1'));
    expect(api.router.state.location.state).toMatchObject({ back: '/registry/gender/GENDER-1' });
    await api.router.navigate('/registry/gender/GENDER-1');
    await user.click(await screen.findByRole('button', { name: 'History' }));
    await waitFor(() =>
      expect(`${api.router.state.location.pathname}${api.router.state.location.search}`).toBe(
        '/registry/audit-logs?collection=genders&recordCode=GENDER-1',
      ),
    );
  });

  it('Delete asks, deletes at the version shown, and leaves for the list', async () => {
    const user = userEvent.setup();
    const api = renderRegistry('/registry/gender/GENDER-1', ALL, {
      GetGenderByCode: ok(GENDER),
      DeleteGender: reply(() => ok(null, 'Gender deleted successfully')),
      GetGenders: ok([], 'Genders fetched successfully', 0),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete gender?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Gender deleted successfully')).toBeTruthy();
    expect(api.lastCallTo('DeleteGender')?.body).toEqual({ genderCode: 'GENDER-1', version: '3' });
    await waitFor(() => expect(api.router.state.location.pathname).toBe('/registry/genders'));
  });
});
