// The memory operations the extension's features use that memory-core does not yet offer as one
// service (promotion into the outbox, the deferred ingestion). Recall is memory-core's
// RecallService itself, rules included.
import type { ChatTurn, IngestionStats, OutboxEntry } from '@graphiti-memory/memory-core';

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
