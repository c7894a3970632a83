import { describe, expect, it } from 'vitest';
import { defaultGridQuery, isIsoDate, todayIso, withFilter } from '../../src/performance/query';
import { lastPage, withLimit } from '../../src/ui/paging';

const TODAY = '2024-03-05';

describe('query changes', () => {
  const q = { ...defaultGridQuery(TODAY), page: 4 };

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
