import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import { RESOURCE_BY_KEY } from '@wfc/contract';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api as apiClient } from '../../src/api/client';
import { queryKeys } from '../../src/api/queryKeys';
import { defaultGridQuery } from '../../src/performance/query';
import { DEFAULT_TABLE_QUERY } from '../../src/registry/list/listQuery';
import { useDeleteRecord, useSaveRecord } from '../../src/registry/mutations';
import { notify } from '../../src/ui/notify';
import { ok, reply, type Stub, stubApi } from './harness';

const gender = RESOURCE_BY_KEY.gender;
const LIST = queryKeys.registry.list('gender', 'GetGenders', '', DEFAULT_TABLE_QUERY);
const OPTIONS = queryKeys.options.list('gender', 'GetGenders', '', '', '');
const GRID = queryKeys.performance.grid(defaultGridQuery('2024-03-05'));

/**
 * Runs a hook inside a query client holding a list, selector options and a grid, under a
 * router. The list is on screen (observed), so an invalidation fetches it again.
 */
function setup<T>(hook: () => T, handlers: Record<string, Stub>) {
  const api = stubApi(handlers);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  for (const key of [LIST, OPTIONS, GRID]) client.setQueryData(key, { message: 'cached' });
  const success = vi.spyOn(notify, 'success').mockImplementation(() => undefined);
  const error = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
  const result = { current: undefined as T };
  function Probe() {
    useQuery({
      queryKey: LIST,
      queryFn: () => apiClient.get('GetGenders'),
      staleTime: Number.POSITIVE_INFINITY,
    });
    result.current = hook();
    return null;
  }
  const router = createMemoryRouter([{ path: '*', Component: Probe }], {
    initialEntries: ['/registry/gender/create'],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const invalidated = () =>
    [LIST, OPTIONS, GRID].map((key) => client.getQueryState(key)?.isInvalidated ?? false);
  return { api, router, result, success, error, invalidated };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('useSaveRecord', () => {
  it('toasts, refreshes the registry and its selectors (not the grid), then goes back', async () => {
    const onFieldErrors = vi.fn();
    const t = setup(() => useSaveRecord(gender, 'create', '/registry/genders', { onFieldErrors }), {
      CreateGender: ok({ genderCode: 'GENDER-2' }, 'Gender created successfully'),
    });
    await act(() => t.result.current({ genderName: 'Non-binary' }));
    expect(t.api.lastCallTo('CreateGender')?.body).toEqual({ genderName: 'Non-binary' });
    expect(t.success).toHaveBeenCalledWith('Gender created successfully');
    await waitFor(() => expect(t.router.state.location.pathname).toBe('/registry/genders'));
    // The list on screen is fetched again; the options wait for their selector to be opened.
    await waitFor(() => expect(t.api.callsTo('GetGenders')).toHaveLength(1));
    expect(t.invalidated().slice(1)).toEqual([true, false]);
    expect(onFieldErrors).not.toHaveBeenCalled();
  });

  it("hands a refusal's field errors to the form, toasts its message and stays", async () => {
    const onFieldErrors = vi.fn();
    const errors = [{ field: 'genderName', message: 'This gender name is already taken' }];
    const t = setup(() => useSaveRecord(gender, 'update', '/registry/genders', { onFieldErrors }), {
      UpdateGender: { statusCode: 409, message: '', errors },
    });
    await act(() => t.result.current({ genderCode: 'GENDER-1', genderName: 'Male' }));
    expect(t.error).toHaveBeenCalledWith('Failed to update gender');
    expect(onFieldErrors).toHaveBeenCalledWith(errors);
    expect(t.invalidated()).toEqual([false, false, false]);
    expect(t.router.state.location.pathname).toBe('/registry/gender/create');
  });

  it('reports an unreachable server without field errors', async () => {
    const onFieldErrors = vi.fn();
    const t = setup(() => useSaveRecord(gender, 'create', '/registry/genders', { onFieldErrors }), {});
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('fetch failed')));
    await act(() => t.result.current({ genderName: 'Male' }));
    expect(t.error).toHaveBeenCalledWith('Network error: the server could not be reached');
    expect(onFieldErrors).not.toHaveBeenCalled();
  });

  it('sends nothing from a view form', async () => {
    const t = setup(() => useSaveRecord(gender, 'view', '/registry/genders', { onFieldErrors: vi.fn() }), {});
    await act(() => t.result.current({ genderName: 'Male' }));
    expect(t.api.calls).toHaveLength(0);
  });
});

describe('useDeleteRecord', () => {
  it('toasts and clears the selection first, and settles once the lists have been refreshed', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const t = setup(() => useDeleteRecord(gender, () => order.push('deleted')), {
      DeleteGender: ok(null, 'Gender deleted successfully'),
      GetGenders: reply(async () => {
        order.push('list refetched');
        await new Promise<void>((r) => {
          release = r;
        });
        return ok([], 'Genders fetched successfully', 0);
      }),
    });
    act(() => t.result.current.mutate({ genderCode: 'GENDER-23', genderName: 'Whiskey' }));
    await waitFor(() => expect(order).toEqual(['deleted', 'list refetched']));
    expect(t.api.lastCallTo('DeleteGender')?.body).toEqual({ genderCode: 'GENDER-23' });
    expect(t.success).toHaveBeenCalledWith('Gender deleted successfully');
    expect(t.invalidated()).toEqual([true, true, false]);
    expect(t.result.current.isPending).toBe(true);
    release();
    await waitFor(() => expect(t.result.current.isSuccess).toBe(true));
    expect(t.invalidated()).toEqual([false, true, false]);
  });

  it("toasts a refusal's message and refreshes nothing", async () => {
    const onDeleted = vi.fn();
    const t = setup(() => useDeleteRecord(gender, onDeleted), {
      DeleteGender: { statusCode: 409, message: 'Cannot delete this gender: it is still used by 2 profiles' },
    });
    act(() => t.result.current.mutate({ genderCode: 'GENDER-1' }));
    await waitFor(() => expect(t.result.current.isError).toBe(true));
    expect(t.error).toHaveBeenCalledWith('Cannot delete this gender: it is still used by 2 profiles');
    expect(onDeleted).not.toHaveBeenCalled();
    expect(t.invalidated()).toEqual([false, false, false]);
  });
});
