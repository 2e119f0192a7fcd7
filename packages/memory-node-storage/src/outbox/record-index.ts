// The records of one FileOutbox in memory: live ones (pending and sent) in enqueue order, and
// dead letters apart (they count in no queue size). The journal is the durable copy of this.
import type { DeadLetter } from '@graphiti-memory/memory-core';
import { deadLetterOf, ledgerKeyOf, type MutableOutboxRecord } from './outbox-journal-entry.js';

export class RecordIndex {
  readonly live = new Map<string, MutableOutboxRecord>();
  readonly dead = new Map<string, MutableOutboxRecord>();

  has(id: string): boolean {
    return this.live.has(id) || this.dead.has(id);
  }

  /** The live records among `ids`, in the order given; unknown ids are skipped. */
  known(ids: readonly string[]): MutableOutboxRecord[] {
    const known: MutableOutboxRecord[] = [];
    for (const id of ids) {
      const record = this.live.get(id);
      if (record !== undefined) known.push(record);
    }
    return known;
  }

  /** The dead letters among `ids`, or all of them. */
  chooseDead(ids: readonly string[] | undefined): MutableOutboxRecord[] {
    if (ids === undefined) return [...this.dead.values()];
    return ids.flatMap((id) => {
      const record = this.dead.get(id);
      return record === undefined ? [] : [record];
    });
  }

  deadLetters(): DeadLetter[] {
    return [...this.dead.values()].map((record) => deadLetterOf(record));
  }

  inFlightCount(): number {
    let count = 0;
    for (const record of this.live.values()) if (record.state === 'sent') count++;
    return count;
  }

  /** Imported records (adoption) by enqueue time, so `pending` stays oldest first; dead ones apart. */
  insertOrdered(imported: readonly MutableOutboxRecord[]): void {
    for (const record of imported) if (record.state === 'dead') this.dead.set(record.id, record);
    const live = imported.filter((record) => record.state !== 'dead');
    if (live.length === 0) return;
    const all = [...this.live.values(), ...live].sort((left, right) => left.enqueuedAt - right.enqueuedAt);
    this.live.clear();
    for (const record of all) this.live.set(record.id, record);
  }

  /** The oldest pending records beyond `limit` live ones (sent ones stay: the server has them). */
  overflow(limit: number): string[] {
    let excess = this.live.size - Math.max(0, limit);
    const ids: string[] = [];
    for (const record of this.live.values()) {
      if (excess <= 0) break;
      if (record.state !== 'pending') continue;
      ids.push(record.id);
      excess--;
    }
    return ids;
  }

  /** Everything a compacted journal must keep, dead letters first. */
  kept(): MutableOutboxRecord[] {
    return [...this.dead.values(), ...this.live.values()];
  }

  /** Ledger keys of the records kept. */
  keptKeys(): Set<string> {
    const keys = new Set<string>();
    for (const record of this.kept()) {
      const key = ledgerKeyOf(record.groupId, record.message.name);
      if (key !== undefined) keys.add(key);
    }
    return keys;
  }
}
