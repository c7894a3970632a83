import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  binModuleOf,
  DELETED_RECORDS_ENDPOINT,
  DELETED_SORT_FIELDS,
  type DeletedRecord,
  type MissingParent,
  PURGE_RECORD_ENDPOINT,
  RESOURCES,
  RESTORE_RECORD_ENDPOINT,
  type ResourceDef,
} from '@wfc/contract';
import { ApiError, api, errorMessage } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { notify } from '../../ui/notify';
import {
  pageParams,
  readPage,
  type SortRule,
  searchParams,
  type TablePage,
  type TableUrl,
} from '../../ui/tableState/tableUrl';
import { useInvalidateRegistry } from '../mutations';
import { listPath } from '../paths';

export type BinSort = (typeof DELETED_SORT_FIELDS)[number];
export type BinQuery = TablePage<BinSort>;

/** The most recently deleted first, as the bin is mostly opened right after a delete. */
const SORT: SortRule<BinSort> = { fields: DELETED_SORT_FIELDS, field: 'deletedAt', value: 'desc' };

export const BIN_URL: TableUrl<BinQuery> = {
  read: (params) => readPage(params, SORT),
  write: (query) => searchParams(pageParams(query, SORT)),
};

/** `/registry/departments/deleted`: a module's recycle bin. */
export const deletedPath = (def: ResourceDef) => `${listPath(def)}/deleted`;

/** One page of a module's bin. */
export function useBinQuery(def: ResourceDef, query: BinQuery) {
  return useQuery({
    queryKey: queryKeys.registry.bin(def.key, query),
    queryFn: () => api.get<DeletedRecord[]>(DELETED_RECORDS_ENDPOINT, { module: binModuleOf(def), ...query }),
    placeholderData: keepPreviousData,
  });
}

/** The bin's body for a record: its module and its code under the module's code field. */
const bodyOf = (def: ResourceDef, code: string) => ({ module: binModuleOf(def), [def.code]: code });

/** A restore refused because a record it refers to is gone: that record, when the answer names it. */
export function missingParentOf(err: unknown): (MissingParent & { def: ResourceDef }) | undefined {
  if (!(err instanceof ApiError) || err.status !== 409) return undefined;
  const data = err.data;
  if (typeof data !== 'object' || data === null || !('parent' in data)) return undefined;
  const parent = data.parent as MissingParent;
  const def = RESOURCES.find((r) => binModuleOf(r) === parent.module);
  return def ? { ...parent, def } : undefined;
}

interface BinTarget {
  def: ResourceDef;
  code: string;
}

/**
 * Restore and permanent delete: the server's message as a toast either way, every registry screen
 * refreshed after a success; a refusal is handed back for the dialog to keep on screen.
 */
export function useBinActions() {
  const invalidate = useInvalidateRegistry();
  const settle = (fallback: string) => ({
    onSuccess: (res: { message: string }) => {
      notify.success(res.message);
      void invalidate();
    },
    onError: (err: unknown) => notify.error(errorMessage(err, fallback)),
  });
  const restore = useMutation({
    mutationFn: ({ def, code }: BinTarget) => api.post(RESTORE_RECORD_ENDPOINT, bodyOf(def, code)),
    ...settle('The record was not restored'),
  });
  const purge = useMutation({
    mutationFn: ({ def, code }: BinTarget) => api.post(PURGE_RECORD_ENDPOINT, bodyOf(def, code)),
    ...settle('The record was not deleted'),
  });
  return { restore, purge };
}
