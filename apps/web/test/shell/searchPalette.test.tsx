import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SearchAnswer } from '@wfc/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, renderApp, sessionUser } from './support';

const FOUND = 'Search results fetched successfully';
const answer: SearchAnswer = {
  results: [
    { resource: 'city', code: 'CITY-1', name: 'Sintra' },
    { resource: 'employee', code: 'EMP-2', name: 'Tomas Varga', detail: 'FN-2232' },
  ],
};

// cmdk keeps the highlighted result in view and watches the list's size; jsdom lays nothing out
// and has neither scrollIntoView nor ResizeObserver.
const scrollIntoView = Element.prototype.scrollIntoView;
class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
beforeEach(() => {
  Element.prototype.scrollIntoView = () => undefined;
  vi.stubGlobal('ResizeObserver', NoResizeObserver);
});
afterEach(() => {
  Element.prototype.scrollIntoView = scrollIntoView;
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('search across modules', () => {
  it('opens with Ctrl+K, asks once the typing pauses, groups by module and opens the chosen record', async () => {
    const user = userEvent.setup();
    const app = renderApp('/', {
      user: sessionUser(['VIEW_CITIES', 'VIEW_EMPLOYEES']),
      handlers: { Search: ok(answer, FOUND) },
    });
    await screen.findByRole('button', { name: 'Search records' }, { timeout: 15_000 });
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Search records' }, { timeout: 15_000 });
    // Typed at once (a loaded machine can take longer than the pause between two typed keys).
    await user.click(within(dialog).getByRole('combobox', { name: 'Search records' }));
    await user.paste('fn-22');

    const employee = await within(dialog).findByRole('option', { name: /Tomas Varga/ });
    expect(employee.textContent).toContain('FN-2232');
    expect(app.callsTo('Search').map((c) => c.body.keyword)).toEqual(['fn-22']);
    // Module titles name the groups, in the Modules screen's order.
    const titles = within(dialog)
      .getAllByRole('group')
      .map((g) => document.getElementById(g.getAttribute('aria-labelledby') ?? '')?.textContent);
    expect(titles).toEqual(['Cities', 'Employees']);

    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(app.pathname()).toBe('/registry/employee/EMP-2'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Search records' })).toBeNull());
  }, 60_000);

  it('closes on Escape and says when nothing matches', async () => {
    const user = userEvent.setup();
    renderApp('/', {
      user: sessionUser(['VIEW_CITIES']),
      handlers: { Search: ok({ results: [] }, FOUND) },
    });
    await user.click(await screen.findByRole('button', { name: 'Search records' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Search records' }, { timeout: 15_000 });
    await user.type(within(dialog).getByRole('combobox', { name: 'Search records' }), 'zz');
    await within(dialog).findByText('No records match “zz”');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Search records' })).toBeNull());
  }, 60_000);
});
