// The local registry of every group this machine wrote to: what the episode view lists and what
// forget covers. It holds ids, times, counts and a short secret-guarded preview, never content.
import type { MemoryScope } from '../ports.js';

/** One accepted write (one or more messages) to one group. */
export interface GroupWrite {
  readonly groupId: string;
  readonly scope: MemoryScope;
  /** The workspace group id the write belongs to (for session groups: the workspace they ran in). */
  readonly workspaceKey?: string;
  readonly sessionId?: string;
  /** Title or first prompt line: short and secret-guarded. Kept from the first write that has one. */
  readonly title?: string;
  /** Team groups: the names of the episodes this user wrote there (what their forget deletes). */
  readonly episodeNames?: readonly string[];
  /** The tool that wrote it: `vscode-extension`, `graphiti-harness`, `claude-code-hooks`, … */
  readonly tool: string;
  readonly messages: number;
  /** Milliseconds since the epoch. */
  readonly at: number;
}

/** What the registry knows of one group. */
export interface GroupRecord {
  readonly groupId: string;
  readonly scope: MemoryScope;
  readonly workspaceKey?: string;
  readonly sessionId?: string;
  readonly title?: string;
  /** Team groups: the names of the episodes this user wrote there. */
  readonly episodeNames?: readonly string[];
  /** Every tool that wrote to the group, in the order first seen. */
  readonly tools: readonly string[];
  readonly firstWriteAt: number;
  readonly lastWriteAt: number;
  /** Messages accepted for delivery to the group. */
  readonly messages: number;
}

/**
 * Every group written to from this machine, kept in the state folder. `record` never waits for
 * I/O (a file registry writes in the background); `flush` resolves when it is durable.
 */
export interface GroupRegistry {
  record(writes: readonly GroupWrite[]): void;
  /** Every known group, most recently written first. */
  list(): Promise<readonly GroupRecord[]>;
  /** Forgets the groups (after they were deleted on the server). */
  remove(groupIds: readonly string[]): Promise<void>;
  flush(): Promise<void>;
}
export const GroupRegistry = Symbol.for('graphiti-memory.GroupRegistry');

/** `record` merged into `write`'s group: earliest first write, latest last write, counts added. */
export function mergeGroupWrite(record: GroupRecord | undefined, write: GroupWrite): GroupRecord {
  if (record === undefined) {
    return {
      groupId: write.groupId,
      scope: write.scope,
      ...(write.workspaceKey === undefined ? {} : { workspaceKey: write.workspaceKey }),
      ...(write.sessionId === undefined ? {} : { sessionId: write.sessionId }),
      ...(write.title === undefined ? {} : { title: write.title }),
      ...(write.episodeNames === undefined ? {} : { episodeNames: [...new Set(write.episodeNames)] }),
      tools: [write.tool],
      firstWriteAt: write.at,
      lastWriteAt: write.at,
      messages: write.messages,
    };
  }
  const workspaceKey = record.workspaceKey ?? write.workspaceKey;
  const sessionId = record.sessionId ?? write.sessionId;
  const title = record.title ?? write.title;
  const episodeNames =
    record.episodeNames === undefined && write.episodeNames === undefined ? undefined : [...new Set([...(record.episodeNames ?? []), ...(write.episodeNames ?? [])])];
  return {
    groupId: record.groupId,
    scope: record.scope,
    ...(workspaceKey === undefined ? {} : { workspaceKey }),
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(title === undefined ? {} : { title }),
    ...(episodeNames === undefined ? {} : { episodeNames }),
    tools: record.tools.includes(write.tool) ? record.tools : [...record.tools, write.tool],
    firstWriteAt: Math.min(record.firstWriteAt, write.at),
    lastWriteAt: Math.max(record.lastWriteAt, write.at),
    messages: record.messages + write.messages,
  };
}

/** Most recently written first; ties by group id, so listings are stable. */
export function sortGroupRecords(records: Iterable<GroupRecord>): GroupRecord[] {
  return [...records].sort((left, right) => right.lastWriteAt - left.lastWriteAt || left.groupId.localeCompare(right.groupId));
}

/** Beside the registry's records, where its callers have always found it. */
export { scopeOfGroupId } from '../scopes/group-ids.js';
