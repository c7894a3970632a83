import { screen, within } from '@testing-library/react';
import { RESOURCES } from '@wfc/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, sessionUser } from './support';

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

async function moduleCards() {
  const list = await screen.findByRole('list', { name: 'Modules' });
  return within(list)
    .getAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href')]);
}

describe('modules screen', () => {
  it('shows one card per module, in order, to a user holding every VIEW permission', async () => {
    renderApp('/registry', { user: sessionUser(RESOURCES.map((r) => r.permissions.view)) });
    expect(await moduleCards()).toEqual(RESOURCES.map((r) => [r.moduleTitle, `/registry/${r.listSegment}`]));
    expect((await moduleCards()).map(([title]) => title)).toEqual([
      'Permissions',
      'Audits Logs',
      'Roles',
      'Users',
      'Profiles',
      'Genders',
      'Countries',
      'States',
      'Cities',
      'Departments',
      'Skills',
      'Employees',
    ]);
  });

  it('shows only the cards whose VIEW permission the role holds, whatever the separator', async () => {
    renderApp('/registry', {
      user: sessionUser(['VIEW_GENDERS', 'VIEW AUDITS', 'CREATE_ROLE', 'UPDATE_USER', 'VIEW_PERFORMANCES']),
    });
    expect(await moduleCards()).toEqual([
      ['Audits Logs', '/registry/audit-logs'],
      ['Genders', '/registry/genders'],
    ]);
  });

  it('sends a user without any VIEW permission to the access-denied page', async () => {
    const app = renderApp('/registry', { user: sessionUser(['CREATE_ROLE', 'VIEW_PERFORMANCES']) });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Access Denied');
    expect(app.pathname()).toBe('/access-denied');
  });
});

describe('home', () => {
  it('links to the registry and the performance snapshot the user may open', async () => {
    renderApp('/', { user: sessionUser(['VIEW_GENDERS', 'VIEW_PERFORMANCES'], 'maria') });
    const sections = await screen.findByRole('list', { name: 'Sections' });
    const links = within(sections).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/registry', '/performance-snapshot']);
    expect(links[0]!.textContent).toContain('1 module available to you');
  });

  it('tells a user without any access to reach out to the administrator', async () => {
    renderApp('/', { user: sessionUser([], 'maria') });
    expect(
      await screen.findByText(
        'Your role does not give access to any module yet. Please reach out to the system administrator.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Sections' })).toBeNull();
  });
});
