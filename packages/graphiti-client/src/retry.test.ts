import { describe, expect, it } from 'vitest';
import {
  GraphitiAbortError,
  GraphitiConnectionError,
  GraphitiRateLimitError,
  GraphitiUsageError,
  type GraphitiError,
} from './errors.js';
import { withRetries } from './retry.js';

const request = { method: 'POST', path: '/search' };
const fast = { initialDelayMs: 1, maxDelayMs: 5 };

function rateLimited(retryAfterMs: number | undefined): GraphitiRateLimitError {
  return new GraphitiRateLimitError('429', { ...request, status: 429, body: '', headers: {}, retryAfterMs });
}

/** An attempt function that fails with the given errors in order, then answers 'ok'. */
function failing(...errors: GraphitiError[]) {
  const calls: number[] = [];
  const attempt = async (attemptNumber: number): Promise<string> => {
    calls.push(attemptNumber);
    const error = errors.shift();
    if (error) throw error;
    return 'ok';
  };
  return { calls, attempt };
}

describe('withRetries', () => {
  it('retries retryable failures up to maxRetries', async () => {
    const { calls, attempt } = failing(new GraphitiConnectionError('a', request), new GraphitiConnectionError('b', request));
    await expect(withRetries(request, { maxRetries: 2, signal: undefined, ...fast }, attempt)).resolves.toBe('ok');
    expect(calls).toEqual([0, 1, 2]);
  });

  it('gives up after maxRetries with the last error', async () => {
    const last = new GraphitiConnectionError('last', request);
    const { calls, attempt } = failing(new GraphitiConnectionError('first', request), last);
    await expect(withRetries(request, { maxRetries: 1, signal: undefined, ...fast }, attempt)).rejects.toBe(last);
    expect(calls).toEqual([0, 1]);
  });

  it('makes a single attempt with maxRetries 0', async () => {
    const { calls, attempt } = failing(new GraphitiConnectionError('a', request));
    await expect(withRetries(request, { maxRetries: 0, signal: undefined }, attempt)).rejects.toThrow('a');
    expect(calls).toEqual([0]);
  });

  it('never retries what is not retryable', async () => {
    const { calls, attempt } = failing(new GraphitiUsageError('bad'), new GraphitiConnectionError('x', request));
    await expect(withRetries(request, { maxRetries: 3, signal: undefined, ...fast }, attempt)).rejects.toThrow('bad');
    expect(calls).toEqual([0]);
  });

  it('waits the Retry-After the server asked for instead of the backoff', async () => {
    const delays: number[] = [];
    const { attempt } = failing(rateLimited(120));
    let last = 0;
    const timed = async (attemptNumber: number) => {
      const now = performance.now();
      if (attemptNumber > 0) delays.push(now - last);
      last = now;
      return attempt(attemptNumber);
    };
    await withRetries(request, { maxRetries: 1, signal: undefined, initialDelayMs: 1, maxDelayMs: 1 }, timed);
    // The backoff alone would wait at most 1 ms.
    expect(delays[0]).toBeGreaterThanOrEqual(110);
  });

  it('gives up at once with the 429 when Retry-After exceeds what it may wait', async () => {
    const error = rateLimited(60_000);
    const { calls, attempt } = failing(error);
    await expect(
      withRetries(request, { maxRetries: 2, signal: undefined, maxRetryAfterMs: 30_000 }, attempt),
    ).rejects.toBe(error);
    expect(calls).toEqual([0]);
  });

  it('stops a pending retry wait as soon as the caller aborts', async () => {
    const controller = new AbortController();
    const { calls, attempt } = failing(rateLimited(20_000));
    const pending = withRetries(request, { maxRetries: 2, signal: controller.signal }, attempt);
    setTimeout(() => controller.abort(), 20);
    const started = performance.now();
    await expect(pending).rejects.toBeInstanceOf(GraphitiAbortError);
    // Far less than the 20 s wait: the abort cut it short.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(calls).toEqual([0]);
  });
});
