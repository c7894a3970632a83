import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ResourceDef, SubListDef } from '@wfc/contract';
import type { z } from 'zod';
import { api } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { listParams, type TableQuery } from './list/listQuery';

/** A record of a module the screen knows only by its definition: its fields are read by path. */
export type RegistryRecord = Record<string, unknown>;

/**
 * A record of `D`'s module: the type its record schema infers where the definition is a known
 * module's (`RESOURCE_BY_KEY.profile`), else any module's record.
 */
export type RecordOf<D extends ResourceDef> = ResourceDef extends D
  ? RegistryRecord
  : z.output<D['recordSchema']>;

/** A list shown as a parent's sub-list (a role's permissions, a country's states, ...). */
export interface SubListContext {
  parent: ResourceDef;
  sub: SubListDef;
}

/** One record by its code; a create form has no code and asks for nothing. */
export function useRecordQuery<D extends ResourceDef>(def: D, code: string) {
  return useQuery({
    queryKey: queryKeys.registry.record(def.key, code),
    queryFn: () => api.post<RecordOf<D>>(def.endpoints.get, { [def.code]: code }),
    enabled: code !== '',
  });
}

/**
 * One page of a module's list, or of a parent's sub-list, which is asked by POST with the
 * parent's code. The page on screen stays while the next one loads.
 */
export function useListQuery<D extends ResourceDef>(
  def: D,
  query: TableQuery,
  subList?: SubListContext,
  parentCode = '',
) {
  const endpoint = subList ? subList.sub.endpoint : def.endpoints.list;
  return useQuery({
    queryKey: queryKeys.registry.list(def.key, endpoint, parentCode, query),
    queryFn: () =>
      subList
        ? api.post<RecordOf<D>[]>(endpoint, { [subList.sub.param]: parentCode }, listParams(query))
        : api.get<RecordOf<D>[]>(endpoint, listParams(query)),
    placeholderData: keepPreviousData,
  });
}
