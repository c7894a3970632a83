import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../src/api/queryKeys';
import { defaultGridQuery } from '../../src/performance/query';
import { DEFAULT_TABLE_QUERY } from '../../src/registry/list/listQuery';

const KEYS = {
  session: queryKeys.session,
  genderList: queryKeys.registry.list('gender', 'GetGenders', '', DEFAULT_TABLE_QUERY),
  countryStates: queryKeys.registry.list('state', 'GetStatesByCountryCode', 'COUNTRY-1', DEFAULT_TABLE_QUERY),
  genderRecord: queryKeys.registry.record('gender', 'GENDER-1'),
  picture: queryKeys.registry.profilePicture('/api/ProfilePicture/PROFILE-1/thumbnail?v=1'),
  roleOptions: queryKeys.options.list('role', 'GetRoles', '', 'assignable', ''),
  grid: queryKeys.performance.grid(defaultGridQuery('2024-03-05')),
};

/** Which of KEYS an invalidation of `prefix` reaches, as TanStack Query matches them. */
function invalidatedBy(prefix: readonly unknown[]): string[] {
  const client = new QueryClient();
  for (const key of Object.values(KEYS)) client.setQueryData(key, 'cached');
  void client.invalidateQueries({ queryKey: prefix, refetchType: 'none' });
  return Object.entries(KEYS)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name);
}

describe('query keys', () => {
  it('puts every list, record and picture of the registry under one prefix', () => {
    expect(invalidatedBy(queryKeys.registry.all)).toEqual([
      'genderList',
      'countryStates',
      'genderRecord',
      'picture',
    ]);
  });

  it("reaches a module's lists and sub-lists page by page through its lists prefix", () => {
    expect(invalidatedBy(queryKeys.registry.lists('gender'))).toEqual(['genderList']);
    expect(invalidatedBy(queryKeys.registry.lists('state'))).toEqual(['countryStates']);
  });

  it('keeps selector options, the performance grid and the session apart', () => {
    expect(invalidatedBy(queryKeys.options.all)).toEqual(['roleOptions']);
    expect(invalidatedBy(queryKeys.performance.all)).toEqual(['grid']);
    expect(invalidatedBy(queryKeys.session)).toEqual(['session']);
  });

  it('tells pages apart by their query', () => {
    const page2 = queryKeys.registry.list('gender', 'GetGenders', '', { ...DEFAULT_TABLE_QUERY, page: 2 });
    expect(page2).not.toEqual(KEYS.genderList);
    expect(queryKeys.registry.list('gender', 'GetGenders', '', { ...DEFAULT_TABLE_QUERY })).toEqual(
      KEYS.genderList,
    );
  });
});
