import { describe, expect, it } from 'vitest';
import {
  defaultGridQuery,
  isIsoDate,
  readGridQuery,
  todayIso,
  toggleSort,
  withFilter,
  writeGridQuery,
} from '../../src/performance/query';
import { lastPage, withLimit } from '../../src/ui/paging';

const TODAY = '2024-03-05';

describe('the grid query in the URL', () => {
  it('defaults to today, name ascending, 10 rows, page 1', () => {
    expect(readGridQuery(new URLSearchParams(), TODAY)).toEqual(defaultGridQuery(TODAY));
    expect(defaultGridQuery(TODAY)).toEqual({
      date: TODAY,
      departmentCode: '',
      keyword: '',
      sortField: 'name',
      sortValue: 'asc',
      page: 1,
      limit: 10,
    });
  });

  it('reads what is valid and falls back for the rest', () => {
    const q = readGridQuery(
      new URLSearchParams('date=2024-02-30&sortField=password&sortValue=up&page=-2&limit=11&keyword=ann'),
      TODAY,
    );
    expect(q).toEqual({ ...defaultGridQuery(TODAY), keyword: 'ann' });
    expect(
      readGridQuery(
        new URLSearchParams(
          'date=2024-02-29&sortField=yearly&sortValue=desc&page=3&limit=30&departmentCode=D1',
        ),
        TODAY,
      ),
    ).toEqual({
      date: '2024-02-29',
      departmentCode: 'D1',
      keyword: '',
      sortField: 'yearly',
      sortValue: 'desc',
      page: 3,
      limit: 30,
    });
  });

  it('writes only what differs from the defaults, and reads back the same', () => {
    expect(writeGridQuery(defaultGridQuery(TODAY), TODAY).toString()).toBe('');
    const q = { ...defaultGridQuery(TODAY), date: '2024-01-31', sortField: 'daily' as const, page: 2 };
    const params = writeGridQuery(q, TODAY);
    expect(params.toString()).toBe('date=2024-01-31&sortField=daily&page=2');
    expect(readGridQuery(params, TODAY)).toEqual(q);
  });
});

describe('query changes', () => {
  const q = { ...defaultGridQuery(TODAY), page: 4 };

  it('toggle the current sort header and start another ascending, back on page 1', () => {
    expect(toggleSort(q, 'name')).toMatchObject({ sortField: 'name', sortValue: 'desc', page: 1 });
    expect(toggleSort({ ...q, sortValue: 'desc' }, 'name')).toMatchObject({ sortValue: 'asc' });
    expect(toggleSort({ ...q, sortValue: 'desc' }, 'yearly')).toMatchObject({
      sortField: 'yearly',
      sortValue: 'asc',
    });
  });

  it('reset the page when the filter or the rows per page change', () => {
    expect(withFilter(q, '2024-01-01', '  ann ')).toMatchObject({
      date: '2024-01-01',
      keyword: 'ann',
      page: 1,
    });
    expect(withLimit(q, 25)).toMatchObject({ limit: 25, page: 1 });
    expect(lastPage(0, 10)).toBe(1);
    expect(lastPage(31, 10)).toBe(4);
  });
});

describe('dates', () => {
  it('take today from the browser clock and accept only real calendar dates', () => {
    expect(todayIso(new Date(2024, 1, 29, 23, 30))).toBe('2024-02-29');
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2024-3-5')).toBe(false);
  });
});
