// Where the open segments of session digests wait (capture.granularity `session`): the turns of a
// session taken but not yet sent, per group. A durable host keeps them beside the outbox, so a
// crashed session's segment is still closed and sent by the next run; it holds the same mapped,
// redacted messages the outbox journal would hold, nothing more.
import type { Message } from '@graphiti-memory/graphiti-client';

/** One turn of an open segment: its messages as planned (mapped, redacted) and their delivery keys. */
export interface DigestTurn {
  /** The turn's id (`ChatTurn.id`). */
  readonly id: string;
  /** Delivery keys of the turn's per-message names: the ledger knows them once the turn is sent or forgotten. */
  readonly keys: readonly string[];
  readonly messages: readonly Message[];
  /**
   * What planning put on the turn's entries besides the group and the message (source metadata a
   * host keeps, e.g. tool and session for citations): carried over to the digest's entry.
   */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** The turns of one session for one group, not yet sent as a digest. */
export interface DigestSegment {
  readonly groupId: string;
  readonly sessionId: string;
  /** Clock time the last turn was added: the segment closes `capture.idleMinutes` later. */
  readonly lastTurnAt: number;
  readonly turns: readonly DigestTurn[];
}

export interface DigestSegmentChange<T> {
  /** The segments after the change; omit to leave them as they were. */
  readonly next?: readonly DigestSegment[];
  readonly result: T;
}

/** The open segments, changed as one step for every process sharing them. */
export interface DigestSegmentStore {
  read(): Promise<readonly DigestSegment[]>;
  update<T>(change: (segments: readonly DigestSegment[]) => DigestSegmentChange<T>): Promise<T>;
}

/** Segments held in memory: hosts without a state folder (tests, the in-memory storage). */
export class InMemoryDigestSegmentStore implements DigestSegmentStore {
  #segments: readonly DigestSegment[] = [];

  read(): Promise<readonly DigestSegment[]> {
    return Promise.resolve(this.#segments);
  }

  update<T>(change: (segments: readonly DigestSegment[]) => DigestSegmentChange<T>): Promise<T> {
    const { next, result } = change(this.#segments);
    if (next !== undefined) this.#segments = next;
    return Promise.resolve(result);
  }
}
