import { RESOURCE_BY_KEY } from '@wfc/contract';
import { describe, expect, it } from 'vitest';
import { defaultGridQuery, gridUrl } from '../../src/performance/query';
import { DEFAULT_TABLE_QUERY, listUrl } from '../../src/registry/list/listQuery';
import { nextSort, type TableUrl, tableDefaults, withKeyword } from '../../src/ui/tableState/tableUrl';

const TODAY = '2024-03-05';
const GRID = defaultGridQuery(TODAY);
const grid = gridUrl(TODAY);
const audits = listUrl(RESOURCE_BY_KEY.audit);
/** A list whose rows per page this browser remembers as 20. */
const genders = listUrl(RESOURCE_BY_KEY.gender, 20);

/**
 * An address, the state a table reads from it, and the address that state writes (when not the
 * same): read back, it is the same state again.
 */
interface Case {
  query: unknown;
  written: string;
  roundTrip(): { read: unknown; written: string; reread: unknown };
}
function tableCase<Q>(url: TableUrl<Q>, address: string, query: Q, written = address): Case {
  return {
    query,
    written,
    roundTrip() {
      const read = url.read(new URLSearchParams(address));
      const params = url.write(read);
      return { read, written: params.toString(), reread: url.read(params) };
    },
  };
}

// Every screen's table state in its address: read, written, and the same again when read back.
const CASES: [string, Case][] = [
  ['a bare grid address is today, name ascending, 10 rows, page 1', tableCase(grid, '', GRID)],
  [
    'the grid keeps what is valid and falls back for the rest',
    tableCase(
      grid,
      'date=2024-02-30&sortField=password&sortValue=up&page=-2&limit=11&keyword=ann',
      { ...GRID, keyword: 'ann' },
      'keyword=ann',
    ),
  ],
  [
    'the grid reads each of its parameters',
    tableCase(
      grid,
      'date=2024-02-29&sortField=yearly&sortValue=desc&page=3&limit=30&departmentCode=D1',
      {
        date: '2024-02-29',
        departmentCode: 'D1',
        keyword: '',
        sortField: 'yearly',
        sortValue: 'desc',
        page: 3,
        limit: 30,
      },
      'date=2024-02-29&departmentCode=D1&sortField=yearly&sortValue=desc&page=3&limit=30',
    ),
  ],
  [
    'the grid writes only what differs from the defaults',
    tableCase(grid, 'date=2024-01-31&sortField=daily&page=2', {
      ...GRID,
      date: '2024-01-31',
      sortField: 'daily',
      page: 2,
    }),
  ],
  [
    'a bare list address is creation order, newest first, 10 rows, page 1',
    tableCase(audits, '', DEFAULT_TABLE_QUERY),
  ],
  [
    'a list falls back for an unknown sort field, direction, page or rows per page',
    tableCase(audits, 'sortField=password&sortValue=up&page=0&limit=11', DEFAULT_TABLE_QUERY, ''),
  ],
  [
    'a list writes its page part, then each filter given a value, trimmed',
    tableCase(
      audits,
      'keyword=gender&action=%20CREATE%20&sortField=createdAt&sortValue=asc&page=2&limit=20&to=&other=x',
      {
        ...DEFAULT_TABLE_QUERY,
        keyword: 'gender',
        sortField: 'createdAt',
        sortValue: 'asc',
        page: 2,
        limit: 20,
        filters: { action: 'CREATE' },
      },
      'keyword=gender&sortField=createdAt&sortValue=asc&page=2&limit=20&action=CREATE',
    ),
  ],
  [
    'a list without `limit` shows the remembered rows per page, and a link names them',
    tableCase(genders, '', { ...DEFAULT_TABLE_QUERY, limit: 20 }, 'limit=20'),
  ],
];

describe('a table state in the URL', () => {
  it.each(CASES)('%s', (_, c) => {
    const { read, written, reread } = c.roundTrip();
    expect(read).toEqual(c.query);
    expect(written).toBe(c.written);
    expect(reread).toEqual(c.query);
  });

  it('defaults to what a bare address reads as', () => {
    expect(defaultGridQuery(TODAY)).toEqual({
      date: TODAY,
      departmentCode: '',
      keyword: '',
      sortField: 'name',
      sortValue: 'asc',
      page: 1,
      limit: 10,
    });
    expect(tableDefaults(audits)).toEqual({
      keyword: '',
      sortField: '_id',
      sortValue: 'desc',
      page: 1,
      limit: 10,
      filters: {},
    });
  });
});

describe('sort cycling, the same for every table', () => {
  const q = { ...GRID, page: 4 };

  it('toggles the current sort header and starts another ascending, back on page 1', () => {
    expect(nextSort(q, 'name')).toMatchObject({ sortField: 'name', sortValue: 'desc', page: 1 });
    expect(nextSort({ ...q, sortValue: 'desc' }, 'name')).toMatchObject({ sortValue: 'asc' });
    expect(nextSort({ ...q, sortValue: 'desc' }, 'yearly')).toMatchObject({
      sortField: 'yearly',
      sortValue: 'asc',
    });
  });

  it('starts a list newest first, then ascending on any header', () => {
    const list = { ...DEFAULT_TABLE_QUERY, page: 3 };
    expect(nextSort(list, '_id')).toMatchObject({ sortField: '_id', sortValue: 'asc', page: 1 });
    expect(nextSort(list, 'createdAt')).toMatchObject({ sortField: 'createdAt', sortValue: 'asc', page: 1 });
  });

  it('a new keyword is trimmed and starts again from page 1', () => {
    expect(withKeyword(q, '  ann ')).toMatchObject({ keyword: 'ann', page: 1 });
  });
});
