import { ApiError, errorMessage } from './client';

/**
 * Whether asking again may help: a network failure, a time-out or a server fault may pass; a
 * 4xx answer (not found, refused, invalid) stands, but for a time-out (408) or a rate limit (429).
 */
export function offersRetry(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status < 400 || error.status >= 500 || error.status === 408 || error.status === 429;
}

/** The part of a query a failure's alert reads. */
interface FailedQuery {
  error: unknown;
  isFetching: boolean;
  refetch(): Promise<unknown>;
}

/** A failed query's alert: its message, Retry where asking again may help, and whether it is asking. */
export function failureOf(query: FailedQuery, fallback: string) {
  return {
    message: errorMessage(query.error, fallback),
    onRetry: offersRetry(query.error) ? () => void query.refetch() : undefined,
    retrying: query.isFetching,
  };
}
