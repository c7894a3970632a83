import type { PageQuery, ResourceKey } from '@wfc/contract';

/*
 * Every query key the app uses, built here and nowhere else. A key is a path: invalidating a
 * prefix reaches every query below it, which is how a write refreshes each screen that may show
 * what it changed without knowing which screens those are.
 */

const REGISTRY = ['registry'] as const;
const OPTIONS = ['options'] as const;
const PERFORMANCE = ['performance'] as const;

export const queryKeys = {
  /** The signed-in user as the server sees them now, asked once on start-up. */
  session: ['session'] as const,

  registry: {
    /** Lists, sub-lists, records and pictures of every module. */
    all: REGISTRY,
    lists: (resource: ResourceKey) => [...REGISTRY, resource, 'list'] as const,
    /** A module's list or a parent's sub-list (`endpoint` tells them apart), one page of it. */
    list: (resource: ResourceKey, endpoint: string, parentCode: string, query: PageQuery) =>
      [...REGISTRY, resource, 'list', endpoint, parentCode, query] as const,
    record: (resource: ResourceKey, code: string) => [...REGISTRY, resource, 'record', code] as const,
    /** A page of a module's recycle bin: under the registry, so a delete or a restore refreshes it. */
    bin: (resource: ResourceKey, query: PageQuery) => [...REGISTRY, resource, 'bin', query] as const,
    /** The search across modules: under the registry, so that any write refreshes it. */
    search: (keyword: string) => [...REGISTRY, 'search', keyword] as const,
    /** A saved profile picture, turned back into a file for the form. */
    profilePicture: (thumbnail: string) => [...REGISTRY, 'profile', 'picture', thumbnail] as const,
  },

  /** Selector options: pages of a list loaded as the menu scrolls, by keyword and parent. */
  options: {
    all: OPTIONS,
    list: (resource: ResourceKey, endpoint: string, parentValue: string, listFlag: string, keyword: string) =>
      [...OPTIONS, resource, endpoint, parentValue, listFlag, keyword] as const,
  },

  performance: {
    all: PERFORMANCE,
    grid: (query: PageQuery & { date: string }) => [...PERFORMANCE, 'grid', query] as const,
    /** Under the grid's prefix, so a save refreshes the insights too. */
    trend: (employeeCode: string, from: string, to: string) =>
      [...PERFORMANCE, 'trend', employeeCode, from, to] as const,
    overview: (date: string, departmentCode: string) =>
      [...PERFORMANCE, 'overview', date, departmentCode] as const,
    departments: [...PERFORMANCE, 'departments'] as const,
  },
};
