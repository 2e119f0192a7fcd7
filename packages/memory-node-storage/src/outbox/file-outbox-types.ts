// The options, recovery report and statistics of a FileOutbox.
import type { Logger } from '@graphiti-memory/memory-core';

export interface FileOutboxOptions {
  /** The folder the host gives (extension global storage, the harness's state dir). Created if missing. */
  readonly directory: string;
  /** Pending + in-flight records kept; the oldest pending are dropped beyond it. A getter follows settings. Default 10 000. */
  readonly maxQueueSize?: number | (() => number);
  /** Group-commit interval: the longest time an accepted record waits for its fsync. Default 25 ms. */
  readonly commitIntervalMs?: number;
  /** Journals shorter than this are never compacted. Default 1 000 lines. */
  readonly compactMinLines?: number;
  /** A lock not refreshed for this long belongs to a dead or hung process. Default 10 000 ms (minimum 2 000). */
  readonly staleLockMs?: number;
  /** How often held locks are refreshed. Default half of `staleLockMs` (minimum 1 000). */
  readonly lockUpdateMs?: number;
  /** The drain lock is handed over after this long when other journals wait. Default 30 000 ms. */
  readonly drainLeaseMs?: number;
  /** The drain lock is released when `acquireDrain` was not called for this long. Default 5 000 ms. */
  readonly drainIdleReleaseMs?: number;
  /** How often a draining process looks for journals of dead processes. Default 5 000 ms. */
  readonly adoptIntervalMs?: number;
  /** Keys the delivery ledger (`deliveryLedger`) remembers; the oldest are forgotten beyond it. Default 100 000. */
  readonly ledgerMaxEntries?: number;
  /**
   * A delivery-ledger file of earlier versions (kept apart from the outbox): its keys are imported
   * into the outbox's ledger on open, once, and the file renamed `<file>.imported`.
   */
  readonly legacyLedgerFile?: string;
  /** The endpoint (URL) this folder's outbox sends to: recorded beside the journals (endpoint-record.ts). */
  readonly endpoint?: string;
  readonly logger?: Logger;
  readonly now?: () => number;
}

/** What opening (and adopting) found; damaged lines are skipped, never fatal. */
export interface OutboxRecovery {
  /** Partial last lines (a write cut short by a crash), discarded. */
  readonly tornLines: number;
  /** Complete lines whose checksum or shape was wrong, skipped. */
  readonly corruptLines: number;
  /** Journals of other (dead or closed) processes taken over. */
  readonly adoptedJournals: number;
  /** Live records imported from them. */
  readonly adoptedRecords: number;
  /**
   * Files (names in the folder) where damaged lines were found. What they lost is not treated as
   * delivered: a message whose lines were lost is admitted again when its transcript is read again.
   */
  readonly damagedFiles: readonly string[];
}

export interface FileOutboxStats {
  readonly size: number;
  readonly pending: number;
  readonly inFlight: number;
  readonly confirmed: number;
  readonly droppedOverflow: number;
  readonly droppedDeadLetter: number;
  /** Records removed because their group was forgotten. */
  readonly forgotten: number;
  /** Dead letters kept (retry or drop them). */
  readonly deadLetters: number;
  /** This process lost its journal lock (another process took its records over): it sends nothing more. */
  readonly fenced: boolean;
  readonly journalPath: string;
  readonly journalBytes: number;
  readonly journalLines: number;
  readonly compactions: number;
  readonly drainHeld: boolean;
  /** A compaction is being written. */
  readonly compacting: boolean;
}
