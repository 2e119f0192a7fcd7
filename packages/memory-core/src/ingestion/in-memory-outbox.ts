import { inject, injectable } from 'inversify';
import {
  Clock,
  type Outbox,
  type OutboxAppendResult,
  type OutboxDropReason,
  type OutboxEntry,
  type OutboxRecord,
} from '../ports.js';
import { MemoryConfiguration } from '../settings/index.js';

/** The one setting an outbox needs; `MemoryConfiguration` satisfies it, tests pass a literal. */
export interface OutboxLimits {
  current(): { readonly maxQueueSize: number };
}

interface MutableRecord {
  readonly id: string;
  readonly groupId: string;
  readonly message: OutboxEntry['message'];
  readonly enqueuedAt: number;
  state: 'pending' | 'sent';
  attempts: number;
  sentAt?: number;
}

/**
 * The outbox of one process, in memory: what it holds is lost when the process ends (the durable
 * one is memory-node-storage's `FileOutbox`). Records keep their append order (a Map iterates in
 * insertion order), so "oldest pending" is the first pending one met.
 */
@injectable()
export class InMemoryOutbox implements Outbox {
  private readonly records = new Map<string, MutableRecord>();
  private nextId = 0;
  private pendingCount = 0;
  /** Drops by reason, since creation: lets tests and status pages see what policy removed. */
  readonly droppedByReason: Record<OutboxDropReason, number> = { overflow: 0, 'dead-letter': 0, forgotten: 0 };

  constructor(
    @inject(MemoryConfiguration) private readonly limits: OutboxLimits,
    @inject(Clock) private readonly clock: Pick<Clock, 'now'>,
  ) {}

  append(entries: readonly OutboxEntry[]): OutboxAppendResult {
    const enqueuedAt = this.clock.now();
    for (const entry of entries) {
      const id = `m${(this.nextId++).toString(36)}`;
      this.records.set(id, {
        id,
        groupId: entry.groupId,
        message: entry.message,
        enqueuedAt,
        state: 'pending',
        attempts: 0,
      });
      this.pendingCount++;
    }
    return { accepted: entries.length, dropped: this.enforceLimit() };
  }

  async pending(limit: number): Promise<readonly OutboxRecord[]> {
    const result: OutboxRecord[] = [];
    if (limit <= 0) return result;
    for (const record of this.records.values()) {
      if (record.state !== 'pending') continue;
      result.push(snapshot(record));
      if (result.length >= limit) break;
    }
    return result;
  }

  async inFlight(): Promise<readonly OutboxRecord[]> {
    const result: OutboxRecord[] = [];
    for (const record of this.records.values()) if (record.state === 'sent') result.push(snapshot(record));
    return result;
  }

  markSent(ids: readonly string[], at: number): void {
    for (const id of ids) {
      const record = this.records.get(id);
      if (!record) continue;
      if (record.state === 'pending') this.pendingCount--;
      record.state = 'sent';
      record.attempts++;
      record.sentAt = at;
    }
  }

  markConfirmed(ids: readonly string[]): void {
    for (const id of ids) this.remove(id);
  }

  markPending(ids: readonly string[]): void {
    for (const id of ids) {
      const record = this.records.get(id);
      if (!record || record.state === 'pending') continue;
      record.state = 'pending';
      this.pendingCount++;
    }
  }

  /** The in-memory outbox keeps no dead-letter journal: `detail` is for durable outboxes. */
  markDropped(ids: readonly string[], reason: OutboxDropReason, _detail?: string): void {
    for (const id of ids) if (this.remove(id)) this.droppedByReason[reason]++;
  }

  size(): number {
    return this.records.size;
  }

  /** Only this process uses an in-memory outbox, so it may always drain. */
  async acquireDrain(): Promise<boolean> {
    return true;
  }

  async flush(): Promise<void> {}

  async close(): Promise<void> {}

  /**
   * Drops the oldest pending records beyond `maxQueueSize`. Records already sent stay: the server
   * has them, and dropping them would only lose the chance to confirm.
   */
  private enforceLimit(): number {
    const maxQueueSize = Math.max(0, Math.floor(this.limits.current().maxQueueSize));
    let excess = this.records.size - maxQueueSize;
    if (excess <= 0) return 0;
    let dropped = 0;
    for (const record of this.records.values()) {
      if (excess <= 0 || this.pendingCount === 0) break;
      if (record.state !== 'pending') continue;
      this.remove(record.id);
      this.droppedByReason.overflow++;
      dropped++;
      excess--;
    }
    return dropped;
  }

  private remove(id: string): boolean {
    const record = this.records.get(id);
    if (!record) return false;
    if (record.state === 'pending') this.pendingCount--;
    this.records.delete(id);
    return true;
  }
}

function snapshot(record: MutableRecord): OutboxRecord {
  const base = {
    id: record.id,
    groupId: record.groupId,
    message: record.message,
    enqueuedAt: record.enqueuedAt,
    state: record.state,
    attempts: record.attempts,
  };
  return record.sentAt === undefined ? base : { ...base, sentAt: record.sentAt };
}
