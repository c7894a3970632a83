import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { resetScreensAfterEach, SCREEN_TEST_TIMEOUT } from '../registry/harness';
import { sessionUser } from '../support/session';
import { employeeUser, renderAs } from './support';

resetScreensAfterEach();

const sections = async () => within(await screen.findByRole('list', { name: 'Sections' }));
/** The header's menu entries; jsdom's window is narrow, so the menu opens behind its button first. */
async function navLabels() {
  await userEvent.setup().click(screen.getByRole('button', { name: 'Open menu' }));
  const nav = await screen.findByRole('navigation', { name: 'Main' });
  return within(nav)
    .getAllByRole('link')
    .map((l) => l.textContent);
}

describe('Home and header for an employee', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('gives a self-service role cards for its own screens, and the header their entries', async () => {
    const app = renderAs('/', employeeUser());
    const list = await sections();
    expect(list.getByRole('link', { name: /My profile/ }).getAttribute('href')).toBe('/my/profile');
    expect(list.getByRole('link', { name: /My performance/ }).getAttribute('href')).toBe('/my/performance');
    expect(app.pathname()).toBe('/');
    expect(screen.queryByText(/does not give access to any module/)).toBeNull();
    expect(await navLabels()).toEqual(['Registry', 'Performance Snapshot', 'My profile', 'My performance']);
  });

  it('shows only the performance card to an employee who may only see scores', async () => {
    renderAs('/', employeeUser(['VIEW_PERFORMANCES']));
    const list = await sections();
    expect(list.queryByRole('link', { name: /My profile/ })).toBeNull();
    expect(list.getByRole('link', { name: /My performance/ })).toBeTruthy();
  });

  it('keeps Home as it was for a user with no employee linked', async () => {
    renderAs('/', sessionUser(['VIEW_GENDERS', 'VIEW_PERFORMANCES', 'VIEW_PROFILES']));
    const list = await sections();
    expect(list.getAllByRole('link').map((l) => l.textContent)).toEqual([
      expect.stringContaining('Registry'),
      expect.stringContaining('Performance Snapshot'),
    ]);
    expect(await navLabels()).toEqual(['Registry', 'Performance Snapshot']);
  });

  it('still says a role with nothing to open has nothing, for an employee too', async () => {
    renderAs('/', employeeUser([]));
    expect(await screen.findByText(/does not give access to any module/)).toBeTruthy();
  });
});
