import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';

const MAX_RETRIES = 2;

/** A 4xx answer will not change on a retry; network failures, time-outs and 5xx may. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
      // A write is sent even when the browser believes it is offline: the network error it then
      // gets is told to the user, where a paused mutation would leave the form spinning.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
