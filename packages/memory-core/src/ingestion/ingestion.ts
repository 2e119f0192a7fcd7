// The one way into ingestion: every host (the extension, the harness, the hooks) and every service
// that hands it messages (forget, review, promotion) resolves this token, bound by
// `createMemoryModule()` to `IngestionService`.
import type { ChatTurn, DeadLetter, OutboxEntry } from '../ports.js';
import type { ConfirmationResult, IngestionStats } from './ingestion-stats.js';

export interface Ingestion {
  /** Stages a finalized turn and returns: no planning, hashing or I/O on the caller's path. */
  enqueue(turn: ChatTurn): void;
  /** Stages ready messages (promotions, imports); each needs a unique `name`. */
  enqueueEntries(entries: readonly OutboxEntry[]): void;
  /** Enqueues the newest `limit` of `turns` (oldest first); returns how many were staged. */
  backfill(turns: readonly ChatTurn[], options: { readonly limit: number }): number;
  /**
   * The session ended (SessionEnd, an imported file read to its end): its open digest segments
   * close now instead of after `capture.idleMinutes`. Returns at once, like `enqueue`.
   */
  endSession(sessionId: string): void;
  /** `endSession` for each of these sessions, each once however often it is named (an import's turns). */
  endSessions(sessionIds: Iterable<string>): void;
  /** Starts delivery (opening storage first, also for what an earlier run left queued). */
  start(): void;
  /** Stops delivery after the pass under way; `start` resumes it. Staging goes on. */
  stop(): Promise<void>;
  /** One delivery pass (tests, shutdown paths). */
  drain(): Promise<void>;
  /** Resolves when staged messages are in the outbox (or admission is failing and retried later). */
  settled(): Promise<void>;
  /** Waits until everything is confirmed or dropped, or the timeout passed. Never rejects. */
  waitForConfirmation(options: { readonly timeoutMs: number; readonly signal?: AbortSignal }): Promise<ConfirmationResult>;
  stats(): IngestionStats;
  onDidChangeStats(listener: (stats: IngestionStats) => void): { dispose(): void };
  /** Removes everything queued for these groups; their keys stay known. Returns how many. */
  forgetGroups(groupIds: readonly string[]): Promise<number>;
  deadLetters(): readonly DeadLetter[];
  /** Sends dead letters (all when `ids` is omitted) again; returns how many. */
  retryDeadLetters(ids?: readonly string[]): number;
  /** The server answered again (a health probe, Test Connection): ends the send backoff and sends now. */
  retryNow(): void;
  /** Deletes dead letters (all when `ids` is omitted) for good; returns how many. */
  dropDeadLetters(ids?: readonly string[]): number;
  /** Stops delivery, appends what is staged, flushes and closes the storage it opened. */
  dispose(): Promise<void>;
}
export const Ingestion = Symbol.for('graphiti-memory.Ingestion');
