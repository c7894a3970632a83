import { act, render, waitFor } from '@testing-library/react';
import { RESOURCE_BY_KEY } from '@wfc/contract';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { listUrl, type TableQuery } from '../../src/registry/list/listQuery';
import { nextSort } from '../../src/ui/tableState/tableUrl';
import { type LoadedPage, useLastRealPage, useUrlTableState } from '../../src/ui/tableState/useUrlTableState';

const URL_OF_LIST = listUrl(RESOURCE_BY_KEY.audit);

/** A table on a route, with the page the server answered; `latest` is what it last rendered. */
function renderTable(path: string, loaded?: LoadedPage) {
  const latest: { table?: ReturnType<typeof useUrlTableState<TableQuery>> } = {};
  function Table() {
    const table = useUrlTableState(URL_OF_LIST);
    useLastRealPage(table, loaded);
    latest.table = table;
    return null;
  }
  const router = createMemoryRouter([{ path: '/list', element: <Table /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  const search = () => router.state.location.search;
  const table = () => {
    if (!latest.table) throw new Error('The table has not rendered');
    return latest.table;
  };
  return { router, search, table };
}

describe('useUrlTableState', () => {
  it('reads the address, and writes each change as a step Back undoes', async () => {
    const t = renderTable('/list?action=CREATE');
    expect(t.table().query.filters).toEqual({ action: 'CREATE' });
    act(() => t.table().setQuery({ ...t.table().query, page: 2 }));
    await waitFor(() => expect(t.search()).toBe('?page=2&action=CREATE'));
    act(() => t.table().setQuery(nextSort(t.table().query, 'createdAt')));
    await waitFor(() => expect(t.search()).toBe('?sortField=createdAt&sortValue=asc&action=CREATE'));
    expect(t.table().queryString).toBe('sortField=createdAt&sortValue=asc&action=CREATE');
    await act(() => t.router.navigate(-1));
    expect(t.table().query).toMatchObject({ page: 2, sortField: '_id', sortValue: 'desc' });
  });

  it('moves a page past the end to the last real one, in place of the address Back would return to', async () => {
    const t = renderTable('/list?page=9', { rows: 0, total: 21 });
    await waitFor(() => expect(t.search()).toBe('?page=3'));
    expect(t.router.state.historyAction).toBe('REPLACE');
  });

  it('leaves an empty first page, and a page not yet loaded, where they are', async () => {
    const empty = renderTable('/list', { rows: 0, total: 0 });
    const loading = renderTable('/list?page=9');
    await act(() => new Promise((settled) => setTimeout(settled, 50)));
    expect(empty.search()).toBe('');
    expect(loading.search()).toBe('?page=9');
  });
});
