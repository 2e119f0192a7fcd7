// The local record of every request that carried memory content off the machine: where it went and
// how much, never what. Users read it to see what was sent (`graphiti-harness audit`, "Show What Was Sent").

/** One request that carried memory content. */
export interface AuditEntry {
  /** ISO-8601 time the request was made. */
  readonly at: string;
  /** The endpoint (normalised, without credentials). */
  readonly endpoint: string;
  /** The operation, e.g. `POST /messages`. */
  readonly route: string;
  readonly groupId: string;
  readonly episodeNames: readonly string[];
  /** UTF-8 bytes of the request body. */
  readonly bytes: number;
  /** Redaction markers the secret guard left in the content. */
  readonly redactions: number;
  /** `promotion` when every message is a curated memory, else `messages`. */
  readonly kind: 'messages' | 'promotion';
}

export interface AuditQuery {
  /** Only entries at or after this time (milliseconds since the epoch). */
  readonly since?: number;
}

/** The audit log. `record` never waits for I/O and never throws. */
export interface AuditLog {
  record(entry: AuditEntry): void;
  /** Entries oldest first. */
  read(query?: AuditQuery): Promise<readonly AuditEntry[]>;
  flush(): Promise<void>;
}
export const AuditLog = Symbol.for('graphiti-memory.AuditLog');

/** Entries in memory, oldest first (tests, one-shot tools). */
export class InMemoryAuditLog implements AuditLog {
  readonly entries: AuditEntry[] = [];

  record(entry: AuditEntry): void {
    this.entries.push(entry);
  }

  async read(query: AuditQuery = {}): Promise<readonly AuditEntry[]> {
    return filterAuditEntries(this.entries, query);
  }

  async flush(): Promise<void> {}
}

export function filterAuditEntries(entries: readonly AuditEntry[], query: AuditQuery): AuditEntry[] {
  const since = query.since;
  return since === undefined ? [...entries] : entries.filter((entry) => Date.parse(entry.at) >= since);
}
