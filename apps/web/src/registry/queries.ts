import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ResourceDef } from '@wfc/contract';
import { useCallback } from 'react';
import { ApiFetchError, ApiResponseError, api } from '../api/client';

export type RegistryRecord = Record<string, unknown>;

/** A user-facing message for a failed call: the server's words when there are any. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiResponseError) return err.envelope.message || fallback;
  if (err instanceof ApiFetchError) return err.message;
  return fallback;
}

/** One record by its code: the envelope is returned whatever its statusCode, for the screen to show. */
export function useRecordQuery(def: ResourceDef | undefined, code: string | undefined) {
  return useQuery({
    queryKey: ['registry', def?.key, 'record', code],
    queryFn: () => api.post<RegistryRecord>(def!.endpoints.get, { [def!.code]: code }),
    enabled: Boolean(def && code),
  });
}

/** After a write, every list, record and selector may show the changed names. */
export function useRefreshRegistry() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['registry'] }),
      queryClient.invalidateQueries({ queryKey: ['options'] }),
    ]);
  }, [queryClient]);
}
