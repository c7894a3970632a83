import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  IMPORT_ENDED,
  IMPORT_ENDPOINTS,
  type ImportFormat,
  type ImportListItem,
  type ImportMode,
  type ImportModule,
  type ImportRecord,
  type ImportStatus,
  type ScoreLayout,
} from '@wfc/contract';
import { useCallback } from 'react';
import { api } from '../api/client';
import { type DownloadOutcome, downloadFile } from '../api/download';
import { queryKeys } from '../api/queryKeys';

/** Imports are kept apart from the registry's keys: a registry write has nothing to refresh here. */
export const IMPORTS_KEY = ['imports'] as const;
export const importKey = (importCode: string) => [...IMPORTS_KEY, 'one', importCode] as const;
export const importsListKey = (page: number, limit: number) => [...IMPORTS_KEY, 'list', page, limit] as const;

/** While an import is in one of these, the server is working on it: it is asked again every second. */
export const IMPORT_BUSY: readonly ImportStatus[] = ['checking', 'committing'];
export const POLL_MS = 1000;

export const isBusy = (status: ImportStatus) => IMPORT_BUSY.includes(status);
export const hasEnded = (status: ImportStatus) => IMPORT_ENDED.includes(status);

export interface StartImportInput {
  module: ImportModule;
  file: File;
  mode: ImportMode;
  mapping?: (string | null)[];
  sheet?: string;
}

/** The mapping travels as JSON text: a form cannot tell an ignored column (null) from an empty one. */
const mappingText = (mapping?: (string | null)[]) => (mapping ? JSON.stringify(mapping) : undefined);

export async function startImport({ module, file, mode, mapping, sheet }: StartImportInput) {
  const answer = await api.postMultipart<ImportRecord>(IMPORT_ENDPOINTS.start, {
    module,
    mode,
    mapping: mappingText(mapping),
    sheet,
    file,
  });
  if (!answer.data) throw new Error('The server answered without the import');
  return answer.data;
}

export interface CheckImportInput {
  importCode: string;
  mode?: ImportMode;
  mapping?: (string | null)[];
  sheet?: string;
}

export async function checkImport({ importCode, mode, mapping, sheet }: CheckImportInput) {
  const answer = await api.post<ImportRecord>(IMPORT_ENDPOINTS.check, {
    importCode,
    mode,
    mapping: mappingText(mapping),
    sheet,
  });
  if (!answer.data) throw new Error('The server answered without the import');
  return answer.data;
}

export async function commitImport(importCode: string, skipErrors: boolean) {
  const answer = await api.post<ImportRecord>(IMPORT_ENDPOINTS.commit, { importCode, skipErrors });
  if (!answer.data) throw new Error('The server answered without the import');
  return answer;
}

export async function cancelImport(importCode: string) {
  const answer = await api.post<ImportRecord>(IMPORT_ENDPOINTS.cancel, { importCode });
  if (!answer.data) throw new Error('The server answered without the import');
  return answer;
}

/** One import, asked again every second while the server checks or writes it. */
export function useImport(importCode: string) {
  return useQuery({
    queryKey: importKey(importCode),
    queryFn: async () => {
      const answer = await api.post<ImportRecord>(IMPORT_ENDPOINTS.get, { importCode });
      if (!answer.data) throw new Error('The server answered without the import');
      return answer.data;
    },
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status && isBusy(status) ? POLL_MS : false;
    },
  });
}

/** Puts an answer about an import where its screen reads it, without asking again. */
export function useStoreImport() {
  const queryClient = useQueryClient();
  return useCallback(
    (record: ImportRecord) => {
      queryClient.setQueryData(importKey(record.importCode), record);
      void queryClient.invalidateQueries({ queryKey: [...IMPORTS_KEY, 'list'] });
    },
    [queryClient],
  );
}

/**
 * After a commit, every screen that may show what it wrote: the module's lists and records (a
 * registry import can add options to selectors too), or the scores and their insights.
 */
export function useRefreshAfterCommit() {
  const queryClient = useQueryClient();
  return useCallback(
    (module: ImportModule) => {
      if (module === 'performance') {
        void queryClient.invalidateQueries({ queryKey: queryKeys.performance.all });
      } else {
        void queryClient.invalidateQueries({ queryKey: [...queryKeys.registry.all, module] });
        void queryClient.invalidateQueries({ queryKey: queryKeys.registry.search('').slice(0, 2) });
        void queryClient.invalidateQueries({ queryKey: queryKeys.options.all });
      }
      void queryClient.invalidateQueries({ queryKey: [...IMPORTS_KEY, 'list'] });
    },
    [queryClient],
  );
}

export function useImports(page: number, limit: number) {
  return useQuery({
    queryKey: importsListKey(page, limit),
    queryFn: async () => {
      const answer = await api.get<ImportListItem[]>(IMPORT_ENDPOINTS.list, {
        pageNumber: page,
        pageSize: limit,
      });
      return { rows: answer.data ?? [], total: answer.total ?? answer.data?.length ?? 0 };
    },
    placeholderData: keepPreviousData,
    // An import in progress moves on its own: the list follows it.
    refetchInterval: (query) => (query.state.data?.rows.some((r) => isBusy(r.status)) ? POLL_MS * 2 : false),
  });
}

export function downloadImportErrors(importCode: string): Promise<DownloadOutcome> {
  return downloadFile(
    IMPORT_ENDPOINTS.errors,
    { importCode },
    { filename: `import-errors-${importCode}.csv`, failed: 'Failed to download the error report' },
  );
}

export function downloadImportTemplate(
  module: ImportModule,
  format: ImportFormat,
  layout?: ScoreLayout,
): Promise<DownloadOutcome> {
  return downloadFile(
    IMPORT_ENDPOINTS.template,
    { module, format, layout },
    {
      filename: `${module}-import-template${layout ? `-${layout}` : ''}.${format}`,
      failed: 'Failed to download the template',
    },
  );
}
