// Memories waiting for review: what the assistant (`graphiti_memory_remember`) or a directive
// would promote stays on this machine until the user approves or rejects it.
import type { PromotionScope } from '../promotion/episode-format.js';
import { sha256Hex } from '../scopes/sha256.js';

export type PendingMemorySource = 'remember-tool' | 'directive';

export interface PendingMemory {
  /** Stable for the same kind, scope and text: proposing a memory twice keeps one entry. */
  readonly id: string;
  readonly kind: string;
  readonly scope: PromotionScope;
  readonly text: string;
  readonly source: PendingMemorySource;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** The chat session it came from, when known. */
  readonly sessionId?: string;
  /** The group it would be sent to when proposed: a forget of that group drops it. */
  readonly groupId?: string;
}

/** The pending memories of this machine; local only, never sent. */
export interface PendingMemoryStore {
  /** Adds `memory` unless one with its id waits already; `false` then. */
  add(memory: PendingMemory): Promise<boolean>;
  /** Oldest first. */
  list(): Promise<readonly PendingMemory[]>;
  /** Removes and returns the memory; `undefined` when no memory has that id. */
  take(id: string): Promise<PendingMemory | undefined>;
  /**
   * Drops every memory proposed for one of `groupIds` (a forget of those groups); memories kept
   * before they named their group are dropped when their scope is in `scopesWithoutGroup`.
   * Returns how many were dropped.
   */
  forgetGroups(groupIds: readonly string[], scopesWithoutGroup?: readonly PromotionScope[]): Promise<number>;
}

/** Whether a forget of `groupIds` (and, for memories without a group, of `scopes`) covers `memory`. */
export function forgottenWith(memory: PendingMemory, groupIds: ReadonlySet<string>, scopesWithoutGroup: readonly PromotionScope[]): boolean {
  return memory.groupId === undefined ? scopesWithoutGroup.includes(memory.scope) : groupIds.has(memory.groupId);
}
export const PendingMemoryStore = Symbol.for('graphiti-memory.PendingMemoryStore');

/** 12 hex characters of SHA-256 over kind, scope and trimmed text: short enough to type. */
export async function pendingMemoryId(kind: string, scope: PromotionScope, text: string): Promise<string> {
  return (await sha256Hex(`pending\n${kind}\n${scope}\n${text.trim()}`)).slice(0, 12);
}
