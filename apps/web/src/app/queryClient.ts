import { QueryClient } from '@tanstack/react-query';
import { ApiResponseError } from '../api/client';

const MAX_RETRIES = 2;

/** A 4xx answer will not change on a retry; network failures, time-outs and 5xx may. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiResponseError) {
    const { statusCode } = error.envelope;
    if (statusCode >= 400 && statusCode < 500) return false;
  }
  return failureCount < MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
