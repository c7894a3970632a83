import { QueryClient } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RESOURCE_BY_KEY, SELECTOR_PAGE_SIZE } from '@wfc/contract';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';
import { createEmotionCache } from '../../src/app/emotion';
import { type Option, ResourceSelect } from '../../src/registry/select/ResourceSelect';
import { type Call, ok, reply, SCREEN_TEST_TIMEOUT, type Stub, stubApi } from './harness';

const ROLE_COUNT = 230;
const roles = Array.from({ length: ROLE_COUNT }, (_, i) => ({
  roleCode: `ROLE-${String(i + 1).padStart(3, '0')}`,
  roleName: `Role ${String(i + 1).padStart(3, '0')}`,
}));

const rolesList = reply((call: Call) => {
  const page = Number(call.query.page);
  const limit = Number(call.query.limit);
  const keyword = (call.query.keyword ?? '').toLowerCase();
  const matching = roles.filter((r) => r.roleName.toLowerCase().includes(keyword));
  return ok(matching.slice((page - 1) * limit, page * limit), 'Roles fetched successfully', matching.length);
});

function RoleSelect() {
  const [value, setValue] = useState<Option | null>(null);
  return (
    <>
      <ResourceSelect
        source={RESOURCE_BY_KEY.role}
        inputId="role"
        label="Role"
        value={value}
        onChange={setValue}
      />
      <output data-testid="chosen">{value?.value ?? ''}</output>
    </>
  );
}

function renderSelect(handlers: Record<string, Stub>) {
  const api = stubApi(handlers);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AppProviders emotionCache={createEmotionCache()} queryClient={queryClient}>
      <RoleSelect />
    </AppProviders>,
  );
  return api;
}

const options = () => screen.queryAllByRole('option');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('resource selector', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it("shows react-select's placeholder and loads nothing until opened", async () => {
    const api = renderSelect({ GetRoles: rolesList });
    expect(await screen.findByText('Select...')).toBeTruthy();
    expect(api.callsTo('GetRoles')).toHaveLength(0);
  });

  it('loads 100 per page and appends the next page at the bottom until all are loaded', async () => {
    const user = userEvent.setup();
    const api = renderSelect({ GetRoles: rolesList });
    await user.click(screen.getByLabelText('Role'));
    await waitFor(() => expect(options()).toHaveLength(SELECTOR_PAGE_SIZE));
    expect(api.lastCallTo('GetRoles')?.query).toMatchObject({
      page: '1',
      limit: '100',
      sortField: 'roleName',
      sortValue: 'asc',
    });
    const list = screen.getByRole('listbox');
    fireEvent.scroll(list);
    await waitFor(() => expect(options()).toHaveLength(200));
    expect(api.lastCallTo('GetRoles')?.query.page).toBe('2');
    fireEvent.scroll(list);
    await waitFor(() => expect(options()).toHaveLength(ROLE_COUNT));
    expect(options().at(-1)?.textContent).toBe('Role 230');
    fireEvent.scroll(list);
    await new Promise((r) => setTimeout(r, 200));
    expect(api.callsTo('GetRoles')).toHaveLength(3);
    await user.click(screen.getByRole('option', { name: 'Role 201' }));
    expect(screen.getByTestId('chosen').textContent).toBe('ROLE-201');
  });

  it('searches on the server with the typed keyword', async () => {
    const user = userEvent.setup();
    const api = renderSelect({ GetRoles: rolesList });
    await user.type(screen.getByLabelText('Role'), '12');
    await waitFor(() => expect(api.lastCallTo('GetRoles')?.query.keyword).toBe('12'));
    await waitFor(() =>
      expect(options().map((o) => o.textContent)).toEqual([
        'Role 012',
        'Role 112',
        'Role 120',
        'Role 121',
        'Role 122',
        'Role 123',
        'Role 124',
        'Role 125',
        'Role 126',
        'Role 127',
        'Role 128',
        'Role 129',
        'Role 212',
      ]),
    );
  });

  it("shows react-select's 'No options' when nothing matches", async () => {
    const user = userEvent.setup();
    renderSelect({ GetRoles: rolesList });
    await user.type(screen.getByLabelText('Role'), 'zzz');
    expect(await screen.findByText('No options')).toBeTruthy();
  });

  it('shows the source module selector error when loading fails', async () => {
    const user = userEvent.setup();
    renderSelect({ GetRoles: { statusCode: 500, message: 'An unexpected error occurred' } });
    await user.click(screen.getByLabelText('Role'));
    expect((await screen.findAllByText('Error loading roles')).length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Role').getAttribute('aria-invalid')).toBe('true');
  });

  it("shows react-select's 'Loading...' while the first page is on its way", async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    renderSelect({
      GetRoles: reply(async () => {
        await gate;
        return ok([], 'Roles fetched successfully', 0);
      }),
    });
    await user.click(screen.getByLabelText('Role'));
    expect(await screen.findByText('Loading...')).toBeTruthy();
    release();
    expect(await screen.findByText('No options')).toBeTruthy();
  });
});
