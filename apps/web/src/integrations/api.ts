import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiTokenRecord, ApiTokenRole, CreatedApiToken } from '@wfc/contract';
import { api } from '../api/client';

export const API_TOKENS_KEY = ['integrations', 'api-tokens'] as const;

export function useApiTokens() {
  return useQuery({
    queryKey: API_TOKENS_KEY,
    queryFn: async () => (await api.get<ApiTokenRecord[]>('GetApiTokens')).data ?? [],
  });
}

/** The roles the signed-in user may give a token: the server applies the delegation rules. */
export function useApiTokenRoles(enabled: boolean) {
  return useQuery({
    queryKey: [...API_TOKENS_KEY, 'roles'],
    queryFn: async () => (await api.get<ApiTokenRole[]>('GetApiTokenRoles')).data ?? [],
    enabled,
  });
}

export interface NewApiToken {
  name: string;
  roleCode: string;
  expiresAt?: string;
  noExpiry: boolean;
  allowedAddresses: string[];
}

/** A change to the tokens: the list is read again after it, whatever the outcome. */
function useTokensChange<V, T>(call: (vars: V) => Promise<{ message: string; data?: T }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: API_TOKENS_KEY }),
  });
}

export const useCreateApiToken = () =>
  useTokensChange((body: NewApiToken) =>
    api.post<CreatedApiToken>('CreateApiToken', {
      name: body.name,
      roleCode: body.roleCode,
      ...(body.noExpiry ? { noExpiry: true } : { expiresAt: body.expiresAt }),
      allowedAddresses: body.allowedAddresses,
    }),
  );

export const useRevokeApiToken = () =>
  useTokensChange((tokenCode: string) => api.post<ApiTokenRecord>('RevokeApiToken', { tokenCode }));
