import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ResourceDef, SubListDef } from '@wfc/contract';
import { api } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { listParams, type TableQuery } from './listQuery';

export type RegistryRecord = Record<string, unknown>;

/** A list shown as a parent's sub-list (a role's permissions, a country's states, ...). */
export interface SubListContext {
  parent: ResourceDef;
  sub: SubListDef;
}

/** One record by its code; a create form has no code and asks for nothing. */
export function useRecordQuery(def: ResourceDef, code: string) {
  return useQuery({
    queryKey: queryKeys.registry.record(def.key, code),
    queryFn: () => api.post<RegistryRecord>(def.endpoints.get, { [def.code]: code }),
    enabled: code !== '',
  });
}

/**
 * One page of a module's list, or of a parent's sub-list, which is asked by POST with the
 * parent's code. The page on screen stays while the next one loads.
 */
export function useListQuery(def: ResourceDef, query: TableQuery, subList?: SubListContext, parentCode = '') {
  const endpoint = subList ? subList.sub.endpoint : def.endpoints.list;
  return useQuery({
    queryKey: queryKeys.registry.list(def.key, endpoint, parentCode, query),
    queryFn: () =>
      subList
        ? api.post<RegistryRecord[]>(endpoint, { [subList.sub.param]: parentCode }, listParams(query))
        : api.get<RegistryRecord[]>(endpoint, listParams(query)),
    placeholderData: keepPreviousData,
  });
}
