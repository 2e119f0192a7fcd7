// An open loop: a commitment, a to-do or an open question from a session, kept on this machine
// (the shared state folder) with the evidence of where it was said, until a later turn or the
// user closes or drops it. The store is a port: memory-node-storage keeps the file.
import type { LoopMarkerKind } from './loop-markers.js';

export type LoopStatus = 'open' | 'done' | 'dropped';

/** Where a loop was said (or closed): the tool, the session, the turn and when. */
export interface LoopEvidence {
  /** How a person names the tool (`Claude Code`, `VS Code chat`, `graphiti-harness`). */
  readonly tool: string;
  readonly sessionId?: string;
  readonly turnId?: string;
  /** ISO 8601. */
  readonly at: string;
  /** `hand`: closed by the user; `model`: proposed by the chat model and approved by the user. */
  readonly marker?: LoopMarkerKind | 'hand' | 'model';
}

export interface OpenLoop {
  /** 12 hex characters over the group and the normalised text: the same loop said twice is one. */
  readonly id: string;
  readonly text: string;
  /** Loops belong to a workspace (one person in one repository). */
  readonly scope: 'workspace';
  /** The workspace group it belongs to: a forget of that group takes it. */
  readonly groupId: string;
  readonly status: LoopStatus;
  /** Where it was first said. */
  readonly evidence: LoopEvidence;
  /** ISO 8601: when it was first said. */
  readonly createdAt: string;
  /** ISO 8601: when it was last said again, reopened or closed (what expiry counts from). */
  readonly updatedAt: string;
  /** How many times it was said (a salience signal for nudges). */
  readonly mentions: number;
  /** Where it was closed or dropped. */
  readonly closed?: LoopEvidence;
}

/** The loops of this machine (every workspace), kept in the state folder. */
export interface LoopStore {
  /** Every loop kept, in no particular order. */
  list(): Promise<readonly OpenLoop[]>;
  /** Changes the loops under the store's lock; `next` undefined: nothing written. */
  update<T>(change: (current: readonly OpenLoop[]) => { readonly next?: readonly OpenLoop[]; readonly result: T }): Promise<T>;
}
export const LoopStore = Symbol.for('graphiti-memory.LoopStore');
