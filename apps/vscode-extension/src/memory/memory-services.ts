// The memory operations the extension's features use, as small interfaces the extension owns.
// memory-core provides the behaviour (recall, promotion, ingestion); memory/ adapts its services
// to these seams, so a change of a core signature touches one adapter instead of every feature.
import type { ChatTurn, IngestionStats, MemoryScope, OutboxEntry, RecalledFact } from '@graphiti-memory/memory-core';

export type RecallOutcomeKind = 'hit' | 'miss' | 'timeout' | 'error' | 'skipped';

export interface RecallRequest {
  readonly query: string;
  /** The chat session, for the `session` scope; without it the session scope is left out. */
  readonly sessionId?: string;
  /** Scopes to search; default: the `recall.scopes` setting. */
  readonly scopes?: readonly MemoryScope[];
  /** Most facts; default: the `recall.maxFacts` setting. */
  readonly maxFacts?: number;
  readonly signal?: AbortSignal;
}

export interface RecallOutcome {
  /** Facts in merged order (rank 0 first); empty when recall was skipped, timed out or failed. */
  readonly facts: readonly RecalledFact[];
  readonly outcome: RecallOutcomeKind;
  /** Why recall was skipped, when it was. */
  readonly skippedBecause?: 'gate-closed' | 'recall-disabled' | 'recall-not-consented' | 'empty-query';
  readonly latencyMs: number;
}

/** Recall under its deadline. Never rejects: an outage yields `{ facts: [], outcome: 'error' }`. */
export interface MemoryRecall {
  recall(request: RecallRequest): Promise<RecallOutcome>;
}
export const MemoryRecall = Symbol.for('graphiti-memory.vscode.MemoryRecall');

export type PromotionScope = 'workspace' | 'user';

export interface PromotionRequest {
  readonly kind: string;
  readonly scope: PromotionScope;
  readonly text: string;
}

export type PromotionOutcome =
  | { readonly ok: true; readonly groupId: string; readonly episodeName: string; readonly redacted: boolean }
  | { readonly ok: false; readonly reason: 'gate-closed' | 'secret' | 'empty' | 'no-scope' | 'invalid-kind'; readonly message: string };

/** Queues a curated memory for delivery (through the outbox, never on the caller's path). */
export interface MemoryPromotion {
  promote(request: PromotionRequest): Promise<PromotionOutcome>;
}
export const MemoryPromotion = Symbol.for('graphiti-memory.vscode.MemoryPromotion');

/** The ingestion pipeline: `enqueue` is O(1) and never waits for the network. */
export interface MemoryIngestion {
  enqueue(turn: ChatTurn): void;
  enqueueEntries(entries: readonly OutboxEntry[]): void;
  /** Opens the outbox and starts delivery (also of what a previous session left), if not yet. */
  start(): void;
  stats(): IngestionStats;
  /** Drops every queued message of the groups (forget); resolves with how many. */
  dequeue(groupIds: readonly string[]): Promise<number>;
  /** Sends every dead letter again with fresh attempts; returns how many. */
  retryDeadLetters(): number;
}
export const MemoryIngestion = Symbol.for('graphiti-memory.vscode.MemoryIngestion');
