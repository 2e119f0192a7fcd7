// Retries through cockatiel: it decides whether a failure is retried (retryable errors only, and
// not when the server asks for a longer wait than we accept) and how long to wait (the server's
// Retry-After, else exponential backoff with decorrelated jitter). The wait itself happens in
// `sleep` below rather than in cockatiel, because cockatiel's own wait cannot be cut short by an
// AbortSignal and an abort must stop a pending retry at once.
import {
  ExponentialBackoff,
  handleWhen,
  retry,
  type IBackoff,
  type IBackoffFactory,
  type IRetryBackoffContext,
} from 'cockatiel';
import { GraphitiAbortError, isGraphitiError, type RequestDescription } from './errors.js';

export interface RetrySettings {
  /** Retries after the first attempt; 0 means a single attempt. */
  readonly maxRetries: number;
  readonly signal: AbortSignal | undefined;
  /** First backoff delay in milliseconds (jittered). */
  readonly initialDelayMs?: number;
  /** Longest backoff delay in milliseconds. */
  readonly maxDelayMs?: number;
  /**
   * Longest `Retry-After` the client waits. A server asking for more is not retried: the call
   * fails at once with the server's error (a 429 with `retryAfterMs`) so the caller can decide.
   */
  readonly maxRetryAfterMs?: number;
}

export const RETRY_DEFAULTS = { initialDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 30_000 } as const;

function retryAfterOf(error: unknown): number | undefined {
  if (!isGraphitiError(error) || !('retryAfterMs' in error)) return undefined;
  const value = error.retryAfterMs;
  return typeof value === 'number' ? value : undefined;
}

/** Uses the server's Retry-After when the failure carries one, the jittered backoff otherwise. */
class ServerAwareBackoff implements IBackoffFactory<IRetryBackoffContext<unknown>> {
  constructor(
    private readonly fallback: IBackoffFactory<unknown>,
    private readonly onDelay: (delayMs: number) => void,
  ) {}

  next(context: IRetryBackoffContext<unknown>): IBackoff<IRetryBackoffContext<unknown>> {
    const fallback = this.fallback.next(context);
    const error = 'error' in context.result ? context.result.error : undefined;
    this.onDelay(retryAfterOf(error) ?? fallback.duration);
    // Cockatiel waits 0 ms; the real wait is done by the attempt function (see the header).
    const following = new ServerAwareBackoff(fallback, this.onDelay);
    return { duration: 0, next: (nextContext) => following.next(nextContext) };
  }
}

/** Resolves after `delayMs`; rejects with the abort error as soon as `signal` fires. */
function sleep(delayMs: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  if (signal?.aborted) return Promise.reject(onAbort());
  if (delayMs <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const aborted = (): void => {
      clearTimeout(timer);
      reject(onAbort());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, delayMs);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** Whether a failure may be retried: retryable, and not asking for a longer wait than we accept. */
function isRetryable(error: unknown, maxRetryAfterMs: number): boolean {
  if (!isGraphitiError(error) || !error.retryable) return false;
  const retryAfterMs = retryAfterOf(error);
  return retryAfterMs === undefined || retryAfterMs <= maxRetryAfterMs;
}

/**
 * Runs `attempt` once, then again for each retryable failure up to `maxRetries` times. Each retry
 * first waits; an abort during the wait rejects with GraphitiAbortError.
 */
export async function withRetries<T>(
  request: RequestDescription,
  settings: RetrySettings,
  attempt: (attemptNumber: number) => Promise<T>,
): Promise<T> {
  const maxRetryAfterMs = settings.maxRetryAfterMs ?? RETRY_DEFAULTS.maxRetryAfterMs;
  // The first attempt runs outside cockatiel: most calls succeed, and building a policy per call
  // costs measurable throughput. A retryable failure hands over to cockatiel (below).
  let firstFailure: unknown;
  try {
    return await attempt(0);
  } catch (error) {
    if (settings.maxRetries === 0 || !isRetryable(error, maxRetryAfterMs)) throw error;
    firstFailure = error;
  }

  let pendingDelayMs = 0;
  const policy = retry(
    handleWhen((error) => isRetryable(error, maxRetryAfterMs)),
    {
      maxAttempts: settings.maxRetries,
      backoff: new ServerAwareBackoff(
        new ExponentialBackoff({
          initialDelay: settings.initialDelayMs ?? RETRY_DEFAULTS.initialDelayMs,
          maxDelay: settings.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs,
        }),
        (delayMs) => {
          pendingDelayMs = delayMs;
        },
      ),
    },
  );
  const onAbort = (): Error =>
    new GraphitiAbortError(`${request.method} ${request.path} was aborted by the caller while waiting to retry.`, request);
  return policy.execute(async ({ attempt: attemptNumber }) => {
    // Cockatiel's attempt 0 is the one already made: replaying its failure lets cockatiel count
    // it and pick the first delay from it (its Retry-After, say).
    if (attemptNumber === 0) throw firstFailure;
    await sleep(pendingDelayMs, settings.signal, onAbort);
    return attempt(attemptNumber);
  });
}
