import { inject, injectable } from 'inversify';
import { deliveryKey } from './in-memory-delivery-ledger.js';
import {
  Clock,
  type DeadLetter,
  type DeliveryLedger,
  type MarkPendingOptions,
  type Outbox,
  type OutboxAdmitResult,
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
  readonly source?: OutboxEntry['source'];
  readonly mirror?: OutboxEntry['mirror'];
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
  private readonly dead = new Map<string, DeadLetter & Pick<MutableRecord, 'message' | 'source' | 'mirror'>>();

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
        ...(entry.source === undefined ? {} : { source: entry.source }),
        ...(entry.mirror === undefined ? {} : { mirror: entry.mirror }),
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

  markPending(ids: readonly string[], options?: MarkPendingOptions): void {
    for (const id of ids) {
      const record = this.records.get(id);
      if (!record) continue;
      if (options?.outage === true) record.attempts = Math.max(0, record.attempts - 1);
      if (record.state === 'pending') continue;
      record.state = 'pending';
      this.pendingCount++;
    }
  }

  /** Dead letters are kept (in memory) for `retryDeadLetters`; `detail` is their content-free last error. */
  markDropped(ids: readonly string[], reason: OutboxDropReason, detail?: string): void {
    for (const id of ids) {
      const record = this.records.get(id);
      if (!record || !this.remove(id)) continue;
      this.droppedByReason[reason]++;
      if (reason !== 'dead-letter') continue;
      this.dead.set(id, {
        id,
        groupId: record.groupId,
        name: record.message.name,
        message: record.message,
        ...(record.source === undefined ? {} : { source: record.source }),
    ...(record.mirror === undefined ? {} : { mirror: record.mirror }),
        ...(record.mirror === undefined ? {} : { mirror: record.mirror }),
        enqueuedAt: record.enqueuedAt,
        attempts: record.attempts,
        deadAt: this.clock.now(),
        lastError: detail ?? 'unknown',
      });
    }
  }

  /** Only this process writes an in-memory outbox: checking and appending in one tick is atomic. */
  async admit(entries: readonly OutboxEntry[], ledger: DeliveryLedger): Promise<OutboxAdmitResult> {
    const fresh: OutboxEntry[] = [];
    for (const entry of entries) {
      const key = entry.message.name ? deliveryKey(entry.groupId, entry.message.name) : undefined;
      if (key === undefined || ledger.has(key)) continue;
      ledger.add(key);
      fresh.push(entry);
    }
    const result = fresh.length === 0 ? { accepted: 0, dropped: 0 } : this.append(fresh);
    return { ...result, duplicates: entries.length - fresh.length };
  }

  async forgetGroups(groupIds: readonly string[]): Promise<number> {
    const groups = new Set(groupIds);
    const ids = [...this.records.values()].filter((record) => groups.has(record.groupId)).map((record) => record.id);
    this.markDropped(ids, 'forgotten');
    let removed = ids.length;
    for (const letter of [...this.dead.values()]) {
      if (!groups.has(letter.groupId)) continue;
      this.dead.delete(letter.id);
      removed++;
    }
    return removed;
  }

  deadLetters(): readonly DeadLetter[] {
    return [...this.dead.values()].map(({ message: _message, ...letter }) => letter);
  }

  retryDeadLetters(ids?: readonly string[]): number {
    const chosen = this.chooseDead(ids);
    for (const letter of chosen) {
      this.dead.delete(letter.id);
      this.records.set(letter.id, {
        id: letter.id,
        groupId: letter.groupId,
        message: letter.message,
        ...(letter.source === undefined ? {} : { source: letter.source }),
        ...(letter.mirror === undefined ? {} : { mirror: letter.mirror }),
        enqueuedAt: this.clock.now(),
        state: 'pending',
        attempts: 0,
      });
      this.pendingCount++;
    }
    return chosen.length;
  }

  dropDeadLetters(ids?: readonly string[]): number {
    const chosen = this.chooseDead(ids);
    for (const letter of chosen) this.dead.delete(letter.id);
    return chosen.length;
  }

  private chooseDead(ids: readonly string[] | undefined): (DeadLetter & Pick<MutableRecord, 'message' | 'source' | 'mirror'>)[] {
    if (ids === undefined) return [...this.dead.values()];
    return ids.flatMap((id) => {
      const letter = this.dead.get(id);
      return letter === undefined ? [] : [letter];
    });
  }

  size(): number {
    return this.records.size;
  }

  /** Only this process uses an in-memory outbox, so it may always drain. */
  async acquireDrain(): Promise<boolean> {
    return true;
  }

  async holdsDrain(): Promise<boolean> {
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
    ...(record.source === undefined ? {} : { source: record.source }),
    ...(record.mirror === undefined ? {} : { mirror: record.mirror }),
    enqueuedAt: record.enqueuedAt,
    state: record.state,
    attempts: record.attempts,
  };
  return record.sentAt === undefined ? base : { ...base, sentAt: record.sentAt };
}
