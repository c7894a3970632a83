import { MAX_LIMIT, normaliseListQuery } from '@wfc/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** What a query string can carry for one key: nothing, a string, or a repeated key (an array). */
const rawValue = fc.oneof(
  fc.constant(undefined),
  fc.string(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom('', ' ', 'asc', 'ASC', ' asc ', 'desc', 'false', '0', 'true', '1e400', '9'.repeat(40)),
);
const rawQuery = fc.record(
  {
    keyword: rawValue,
    sortField: rawValue,
    sortValue: rawValue,
    page: rawValue,
    limit: rawValue,
    projection: rawValue,
    populate: rawValue,
  },
  { requiredKeys: [] },
);

describe('normaliseListQuery', () => {
  it('applies every documented default to an empty query', () => {
    expect(normaliseListQuery({})).toEqual({
      keyword: '',
      sortField: '_id',
      sortValue: 'desc',
      page: 1,
      limit: 10,
      projection: true,
      populate: true,
    });
    expect(normaliseListQuery(null)).toEqual(normaliseListQuery(undefined));
  });

  it('follows each rule of the specification', () => {
    const n = (raw: Record<string, unknown>) => normaliseListQuery(raw);
    expect(n({ keyword: '   ' }).keyword).toBe('');
    expect(n({ keyword: '  ada  ' }).keyword).toBe('ada');
    expect(n({ sortField: '' }).sortField).toBe('_id');
    expect(n({ sortField: 'roleName' }).sortField).toBe('roleName');
    expect(n({ sortValue: 'asc' }).sortValue).toBe('asc');
    for (const other of ['desc', 'up', 'ascending', '1', 'true'])
      expect(n({ sortValue: other }).sortValue).toBe('desc');
    expect(n({ page: '0' }).page).toBe(1);
    expect(n({ page: '-4' }).page).toBe(1);
    expect(n({ page: 'abc' }).page).toBe(1);
    expect(n({ page: '3' }).page).toBe(3);
    expect(n({ limit: '0' }).limit).toBe(10);
    expect(n({ limit: '-1' }).limit).toBe(10);
    expect(n({ limit: '25' }).limit).toBe(25);
    expect(n({ limit: '101' }).limit).toBe(MAX_LIMIT);
    expect(n({ limit: '100000' }).limit).toBe(MAX_LIMIT);
    expect(n({ projection: 'false', populate: '0' })).toMatchObject({ projection: false, populate: false });
    expect(n({ projection: 'true', populate: '' })).toMatchObject({ projection: true, populate: true });
  });

  it('takes the first of repeated parameters, as the query parser gives arrays for them', () => {
    expect(normaliseListQuery({ page: ['2', '9'], sortValue: ['asc', 'desc'] })).toMatchObject({
      page: 2,
      sortValue: 'asc',
    });
  });

  it('uses the list defaults only where the request says nothing', () => {
    const defaults = { sortField: 'name', sortValue: 'asc' as const, limit: 25 };
    expect(normaliseListQuery({}, defaults)).toMatchObject(defaults);
    expect(normaliseListQuery({ sortValue: 'desc', limit: '10' }, defaults)).toMatchObject({
      sortValue: 'desc',
      limit: 10,
    });
  });

  it('never throws and always yields values the database can take', () => {
    fc.assert(
      fc.property(rawQuery, (raw) => {
        const q = normaliseListQuery(raw);
        expect(typeof q.keyword).toBe('string');
        expect(q.keyword.length).toBeLessThanOrEqual(200);
        expect(q.keyword).toBe(q.keyword.trim());
        expect(q.sortField.length).toBeGreaterThan(0);
        expect(['asc', 'desc']).toContain(q.sortValue);
        expect(Number.isSafeInteger(q.page)).toBe(true);
        expect(q.page).toBeGreaterThanOrEqual(1);
        expect(Number.isSafeInteger(q.limit)).toBe(true);
        expect(q.limit).toBeGreaterThanOrEqual(1);
        expect(q.limit).toBeLessThanOrEqual(MAX_LIMIT);
        // The row offset goes to SQL as a number: it must stay exact.
        expect(Number.isSafeInteger((q.page - 1) * q.limit)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent: normalising a normalised query changes nothing', () => {
    fc.assert(
      fc.property(rawQuery, (raw) => {
        const once = normaliseListQuery(raw);
        const again = normaliseListQuery({
          ...once,
          page: String(once.page),
          limit: String(once.limit),
          projection: String(once.projection),
          populate: String(once.populate),
        });
        expect(again).toEqual(once);
      }),
      { numRuns: 1000 },
    );
  });

  it("gives 'asc' exactly when the request asks for it", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const expected = s.trim() === '' ? 'desc' : s.trim().toLowerCase() === 'asc' ? 'asc' : 'desc';
        expect(normaliseListQuery({ sortValue: s }).sortValue).toBe(expected);
      }),
    );
  });
});
