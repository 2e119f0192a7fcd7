/**
 * Timing of ingestion's loops. Batch size, queue size and request timeout come from the settings
 * (`MemoryConfiguration`); these are the knobs settings do not expose.
 */
export interface IngestionOptions {
  /**
   * How long a sent message may stay unconfirmed before it is sent again (when the server shows
   * no progress). Real Graphiti needs seconds per message and upstream's own test waits 180 s.
   */
  readonly resendAfterMs: number;
  /** First delay between `/episodes` polls of a group after a send; doubles while nothing appears. */
  readonly pollIntervalMs: number;
  /** Upper bound of the poll delay. */
  readonly maxPollIntervalMs: number;
  /** First delay after a retryable failure; doubles per consecutive failure, with jitter. */
  readonly retryDelayMs: number;
  /** Upper bound of the retry delay (a server's `Retry-After` may ask for more and is honoured). */
  readonly maxRetryDelayMs: number;
  /**
   * Resend windows grow with each resend of the same message (×2 each time) up to this factor,
   * so a message that can never be confirmed costs a shrinking number of requests.
   */
  readonly maxResendBackoffFactor: number;
  /** When nothing can be sent (no connection, gate closed), how often to look again. */
  readonly idleRecheckMs: number;
  /** Random source of the jitter, in [0, 1). */
  readonly random: () => number;
}
export const IngestionOptions = Symbol.for('graphiti-memory.IngestionOptions');

export const DEFAULT_INGESTION_OPTIONS: IngestionOptions = Object.freeze({
  resendAfterMs: 120_000,
  pollIntervalMs: 250,
  maxPollIntervalMs: 5_000,
  retryDelayMs: 500,
  maxRetryDelayMs: 30_000,
  maxResendBackoffFactor: 16,
  idleRecheckMs: 5_000,
  random: Math.random,
});

/** Defaults completed by what the host set; bad numbers fall back to the default. */
export function resolveIngestionOptions(options: Partial<IngestionOptions> | undefined): IngestionOptions {
  const merged = { ...DEFAULT_INGESTION_OPTIONS, ...options };
  const positive = (value: number, fallback: number): number =>
    Number.isFinite(value) && value >= 0 ? value : fallback;
  return {
    resendAfterMs: positive(merged.resendAfterMs, DEFAULT_INGESTION_OPTIONS.resendAfterMs),
    pollIntervalMs: Math.max(1, positive(merged.pollIntervalMs, DEFAULT_INGESTION_OPTIONS.pollIntervalMs)),
    maxPollIntervalMs: Math.max(
      1,
      positive(merged.maxPollIntervalMs, DEFAULT_INGESTION_OPTIONS.maxPollIntervalMs),
    ),
    retryDelayMs: Math.max(1, positive(merged.retryDelayMs, DEFAULT_INGESTION_OPTIONS.retryDelayMs)),
    maxRetryDelayMs: positive(merged.maxRetryDelayMs, DEFAULT_INGESTION_OPTIONS.maxRetryDelayMs),
    maxResendBackoffFactor: Math.max(
      1,
      positive(merged.maxResendBackoffFactor, DEFAULT_INGESTION_OPTIONS.maxResendBackoffFactor),
    ),
    idleRecheckMs: Math.max(1, positive(merged.idleRecheckMs, DEFAULT_INGESTION_OPTIONS.idleRecheckMs)),
    random: merged.random,
  };
}

/**
 * Delay before the next attempt after `failures` consecutive retryable failures: exponential,
 * capped, with "equal jitter" (half fixed, half random) so clients that failed together do not
 * retry together. A server's `Retry-After` is a floor.
 */
export function retryDelay(
  failures: number,
  options: Pick<IngestionOptions, 'retryDelayMs' | 'maxRetryDelayMs' | 'random'>,
  retryAfterMs?: number,
): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const capped = Math.min(options.maxRetryDelayMs, options.retryDelayMs * 2 ** exponent);
  const jittered = capped / 2 + (capped / 2) * options.random();
  return Math.round(Math.max(jittered, retryAfterMs ?? 0));
}
