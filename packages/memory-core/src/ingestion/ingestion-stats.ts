/**
 * - `idle`: nothing waits.
 * - `sending`: messages wait for sending or confirmation and the server answers.
 * - `failing`: the last request failed (retrying with backoff).
 * - `accepting-not-processing`: the server answered 202 but nothing sent appeared in `/episodes`
 *   for a whole resend window (upstream's silent worker death); `waiting` says how many wait.
 */
export type IngestionState = 'idle' | 'sending' | 'failing' | 'accepting-not-processing';

/** Running totals since the service was created, in messages (turns for `turns`). */
export interface IngestionCounters {
  /** Turns handed to `enqueue` (and `backfill`). */
  readonly turns: number;
  /** Messages appended to the outbox (after de-duplication). */
  readonly enqueued: number;
  /** Messages skipped because the ledger knew them (already sent in this run, or stored). */
  readonly duplicates: number;
  /** Messages accepted by `/messages` (202), counting re-sends. */
  readonly sent: number;
  /** Messages found by name in `/episodes`: stored. */
  readonly confirmed: number;
  /** Messages dropped by policy (queue full). */
  readonly dropped: number;
  /** Messages refused for good (422, invalid group id), failed `maxAttempts` times, or too old. */
  readonly deadLettered: number;
  /** Failed `/messages` attempts that will be repeated. */
  readonly retried: number;
  /** Messages sent again because they never appeared. */
  readonly resent: number;
}

export interface IngestionStats {
  readonly state: IngestionState;
  /** Messages in the outbox: pending + in flight. */
  readonly queueDepth: number;
  /** Messages sent and not confirmed yet (including those whose POST is still under way). */
  readonly inFlight: number;
  /** Messages whose POST is under way right now: part of `inFlight`, not yet accepted. */
  readonly sending: number;
  /** Turns accepted by `enqueue` and not planned yet. */
  readonly staged: number;
  /** Dead letters kept in the outbox (retry or drop them). */
  readonly deadLetters: number;
  /** Messages waiting while the server accepts without processing (0 in other states). */
  readonly waiting: number;
  readonly counters: IngestionCounters;
  /** Class of the last failure (`GraphitiServerError`), content-free. */
  readonly lastErrorClass?: string;
  /** When the last failure happened (Clock milliseconds). */
  readonly lastErrorAt?: number;
  /** When a message was last confirmed. */
  readonly lastConfirmedAt?: number;
  /** When the oldest message still queued was queued (as of the last pass), while any is. */
  readonly oldestQueuedAt?: number;
  /** Why nothing is sent right now, when that is the case (no connection, gate closed, …). */
  readonly blockedReason?: string;
}

export interface ConfirmationResult {
  /** Messages confirmed while waiting. */
  readonly confirmed: number;
  /** Messages still in the outbox (or staged) when the wait ended. */
  readonly pending: number;
}

export type MutableCounters = { -readonly [K in keyof IngestionCounters]: IngestionCounters[K] };

/** All counters at zero: a new service's, or a host's before its service exists. */
export function emptyCounters(): MutableCounters {
  return {
    turns: 0,
    enqueued: 0,
    duplicates: 0,
    sent: 0,
    confirmed: 0,
    dropped: 0,
    deadLettered: 0,
    retried: 0,
    resent: 0,
  };
}
