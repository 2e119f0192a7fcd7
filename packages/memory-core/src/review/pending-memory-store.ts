// Memories waiting for review: what the assistant (`graphiti_memory_remember`) or a directive
// would promote stays on this machine until the user approves or rejects it.
import type { LoopEvidence } from '../loops/open-loop.js';
import type { PromotionScope } from '../promotion/episode-format.js';
import { sha256Hex } from '../scopes/sha256.js';

/** `loop-proposal`: the chat model proposed opening or closing a loop (`loops.proposeWithModel`). */
export type PendingMemorySource = 'remember-tool' | 'directive' | 'loop-proposal';

/** What approving a loop proposal does: open a loop, or close the open loop `loopId` as done. */
export interface PendingLoop {
  readonly action: 'open' | 'done';
  /** The new loop's text, or the text of the loop it closes. */
  readonly text: string;
  /** `done`: the id of the loop it closes. */
  readonly loopId?: string;
  /** The session it was proposed from: its tool, session and date (the loop's evidence when approved). */
  readonly evidence: LoopEvidence;
}

/** Who proposed a pending memory, in the words every surface shows. */
export function describePendingSource(source: PendingMemorySource): string {
  switch (source) {
    case 'remember-tool':
      return 'proposed by the assistant';
    case 'directive':
      return 'said in a chat';
    case 'loop-proposal':
      return 'proposed by the chat model from a session';
  }
}

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
  /**
   * Every group it belongs to: the one it would be sent to (`groupId`) and, for a directive, the
   * groups the chat turn it was said in went to (its session's and workspace's). A forget of any of
   * them drops it; approving it after one was forgotten is refused. Absent in records kept before
   * (see `pendingGroups`).
   */
  readonly groupIds?: readonly string[];
  /** A loop proposal's action (source `loop-proposal`): approving it opens or closes that loop. */
  readonly loop?: PendingLoop;
}

/** The groups `memory` belongs to; `undefined` for a record kept before pending memories named them. */
export function pendingGroups(memory: PendingMemory): readonly string[] | undefined {
  if (memory.groupIds !== undefined && memory.groupIds.length > 0) return memory.groupIds;
  return memory.groupId === undefined ? undefined : [memory.groupId];
}

/** What one forget covers, for pending memories. */
export interface PendingForget {
  readonly groupIds: ReadonlySet<string>;
  /**
   * For records that name no group: the scopes the forget covers (dropped conservatively: such a
   * record may belong to another workspace, but it can never be shown to belong to none of these).
   */
  readonly scopesWithoutGroup: readonly PromotionScope[];
  /** For records that name no group: the chat sessions forgotten (a directive said in one goes with it). */
  readonly sessionsWithoutGroup?: ReadonlySet<string>;
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
  forgetGroups(groupIds: readonly string[], scopesWithoutGroup?: readonly PromotionScope[], sessionsWithoutGroup?: readonly string[]): Promise<number>;
}

/** Whether `forget` covers `memory`: any of its groups, or (a record naming none) its scope or its session. */
export function forgottenWith(memory: PendingMemory, forget: PendingForget): boolean {
  const groups = pendingGroups(memory);
  if (groups !== undefined) return groups.some((groupId) => forget.groupIds.has(groupId));
  if (memory.sessionId !== undefined && forget.sessionsWithoutGroup?.has(memory.sessionId) === true) return true;
  return forget.scopesWithoutGroup.includes(memory.scope);
}
export const PendingMemoryStore = Symbol.for('graphiti-memory.PendingMemoryStore');

/** 12 hex characters of SHA-256 over kind, scope and trimmed text: short enough to type. */
export async function pendingMemoryId(kind: string, scope: PromotionScope, text: string): Promise<string> {
  return (await sha256Hex(`pending\n${kind}\n${scope}\n${text.trim()}`)).slice(0, 12);
}
