import { describe, expect, it, vi } from 'vitest';
import { ApiError, ApiFetchError } from '../../src/api/client';
import { failureOf, offersRetry } from '../../src/api/retry';

const answer = (statusCode: number, message = '') => new ApiError({ statusCode, message });

describe('offersRetry', () => {
  it('offers it where the failure may pass: no answer, a server fault, a time-out, a rate limit', () => {
    for (const error of [
      new ApiFetchError('network', 'The server could not be reached'),
      new ApiFetchError('timeout', 'The server took too long to answer'),
      answer(500),
      answer(503),
      answer(408),
      answer(429),
      new Error('anything else'),
    ])
      expect(offersRetry(error)).toBe(true);
  });

  it('withholds it where the answer stands: not found, refused, invalid', () => {
    for (const status of [400, 403, 404, 409, 422]) expect(offersRetry(answer(status))).toBe(false);
  });
});

describe('failureOf', () => {
  it("gives the server's message, a Retry that asks again, and whether it is asking", () => {
    const refetch = vi.fn(() => Promise.resolve());
    const failure = failureOf(
      { error: answer(503, 'Database unavailable'), isFetching: true, refetch },
      'Failed',
    );
    expect(failure.message).toBe('Database unavailable');
    expect(failure.retrying).toBe(true);
    failure.onRetry?.();
    expect(refetch).toHaveBeenCalledOnce();
  });

  it("falls back to the screen's words, and has no Retry for a record not found", () => {
    const failure = failureOf(
      { error: answer(404), isFetching: false, refetch: () => Promise.resolve() },
      'Country could not be loaded',
    );
    expect(failure).toEqual({ message: 'Country could not be loaded', onRetry: undefined, retrying: false });
  });
});
