// The records of an outbox journal, one per line. `enqueued` carries the whole record (and, when
// written by compaction or adoption, its current state); the others change records by id.
import type { DeadLetter, OutboxDropReason, OutboxEntry, OutboxRecord } from '@graphiti-memory/memory-core';

export type OutboxJournalEntry =
  | ({ readonly t: 'enqueued' } & OutboxRecordFields)
  | { readonly t: 'sent'; readonly ids: readonly string[]; readonly at: number }
  /** Handed to the sender (durable before it may send): after a crash these may have been sent. */
  | { readonly t: 'offered'; readonly ids: readonly string[]; readonly at: number }
  /** A delivery-ledger key not carried by an `enqueued` line. */
  | { readonly t: 'key'; readonly key: string }
  | { readonly t: 'confirmed'; readonly ids: readonly string[] }
  /** `outage`: the send met an outage and does not count as an attempt (older readers ignore the flag and count it). */
  | { readonly t: 'pending'; readonly ids: readonly string[]; readonly outage?: true }
  | { readonly t: 'dropped'; readonly ids: readonly string[]; readonly reason: OutboxDropReason }
  /** Became dead letters (kept for the user to retry or drop); `error` is content-free. */
  | { readonly t: 'dead'; readonly ids: readonly string[]; readonly at: number; readonly error: string }
  /** Dead letters the user sent back to pending, with fresh attempts. */
  | { readonly t: 'retried'; readonly ids: readonly string[]; readonly at: number }
  /** Journals of other processes whose live records this journal took over; ignore them if still present. */
  | { readonly t: 'adopted'; readonly files: readonly string[] };

export interface OutboxRecordFields extends OutboxEntry {
  readonly id: string;
  readonly enqueuedAt: number;
  readonly state?: 'sent' | 'dead';
  readonly attempts?: number;
  readonly sentAt?: number;
  readonly offeredAt?: number;
  readonly deadAt?: number;
  readonly lastError?: string;
}

export interface MutableOutboxRecord {
  readonly id: string;
  readonly groupId: string;
  readonly message: OutboxEntry['message'];
  /** Who captured it: recorded under the episode's uuid once delivery is confirmed. */
  readonly source?: OutboxEntry['source'];
  /** A structured mirror record's nodes and edges, sent with its episode. */
  readonly mirror?: OutboxEntry['mirror'];
  /** Reset when a dead letter is retried: its age counts from then. */
  enqueuedAt: number;
  state: 'pending' | 'sent' | 'dead';
  attempts: number;
  sentAt: number | undefined;
  /** Set while a pending record is handed to the sender and not yet marked sent or pending again. */
  offeredAt: number | undefined;
  /** Dead letters: when and why. */
  deadAt?: number;
  lastError?: string;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Narrows a decoded line to a journal entry; anything else counts as corrupt. */
export function asOutboxJournalEntry(value: unknown): OutboxJournalEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  switch (entry.t) {
    case 'enqueued':
      return typeof entry.id === 'string' &&
        typeof entry.groupId === 'string' &&
        typeof entry.enqueuedAt === 'number' &&
        typeof entry.message === 'object' &&
        entry.message !== null
        ? (entry as unknown as OutboxJournalEntry)
        : undefined;
    case 'sent':
    case 'offered':
      return isStringArray(entry.ids) && typeof entry.at === 'number' ? (entry as unknown as OutboxJournalEntry) : undefined;
    case 'key':
      return typeof entry.key === 'string' ? (entry as unknown as OutboxJournalEntry) : undefined;
    case 'confirmed':
    case 'pending':
      return isStringArray(entry.ids) ? (entry as unknown as OutboxJournalEntry) : undefined;
    case 'dropped':
      return isStringArray(entry.ids) && (entry.reason === 'overflow' || entry.reason === 'dead-letter' || entry.reason === 'forgotten')
        ? (entry as unknown as OutboxJournalEntry)
        : undefined;
    case 'dead':
      return isStringArray(entry.ids) && typeof entry.at === 'number' && typeof entry.error === 'string' ? (entry as unknown as OutboxJournalEntry) : undefined;
    case 'retried':
      return isStringArray(entry.ids) && typeof entry.at === 'number' ? (entry as unknown as OutboxJournalEntry) : undefined;
    case 'adopted':
      return isStringArray(entry.files) ? (entry as unknown as OutboxJournalEntry) : undefined;
    default:
      return undefined;
  }
}

export function recordFromEntry(entry: OutboxRecordFields): MutableOutboxRecord {
  return {
    id: entry.id,
    groupId: entry.groupId,
    message: entry.message,
    ...(entry.source === undefined ? {} : { source: entry.source }),
    ...(entry.mirror === undefined ? {} : { mirror: entry.mirror }),
    enqueuedAt: entry.enqueuedAt,
    state: entry.state === 'sent' || entry.state === 'dead' ? entry.state : 'pending',
    attempts: entry.attempts ?? 0,
    sentAt: entry.sentAt,
    offeredAt: entry.offeredAt,
    ...(entry.deadAt === undefined ? {} : { deadAt: entry.deadAt }),
    ...(entry.lastError === undefined ? {} : { lastError: entry.lastError }),
  };
}

/** The `enqueued` line that recreates a record with its current state (compaction, adoption). */
export function entryFromRecord(record: MutableOutboxRecord): OutboxJournalEntry {
  return {
    t: 'enqueued',
    id: record.id,
    groupId: record.groupId,
    message: record.message,
    ...(record.source === undefined ? {} : { source: record.source }),
    ...(record.mirror === undefined ? {} : { mirror: record.mirror }),
    enqueuedAt: record.enqueuedAt,
    ...(record.state === 'pending' ? {} : { state: record.state }),
    ...(record.deadAt === undefined ? {} : { deadAt: record.deadAt }),
    ...(record.lastError === undefined ? {} : { lastError: record.lastError }),
    ...(record.attempts > 0 ? { attempts: record.attempts } : {}),
    ...(record.sentAt !== undefined ? { sentAt: record.sentAt } : {}),
    ...(record.offeredAt !== undefined ? { offeredAt: record.offeredAt } : {}),
  };
}

/** The delivery-ledger key of a record (memory-core's `deliveryKey`). */
export function ledgerKeyOf(groupId: string, name: string | undefined): string | undefined {
  return name ? `${groupId}:${name}` : undefined;
}

/**
 * A record read back after its process died: one handed to the sender may have reached the
 * server, so it is treated as sent (confirmation looks for it before any resend).
 */
export function recoveredRecord(record: MutableOutboxRecord): MutableOutboxRecord {
  if (record.state !== 'pending' || record.offeredAt === undefined) return record;
  return { ...record, state: 'sent', sentAt: record.offeredAt, offeredAt: undefined };
}

export function publicRecord(record: MutableOutboxRecord): OutboxRecord {
  return {
    id: record.id,
    groupId: record.groupId,
    message: record.message,
    ...(record.source === undefined ? {} : { source: record.source }),
    ...(record.mirror === undefined ? {} : { mirror: record.mirror }),
    enqueuedAt: record.enqueuedAt,
    state: record.state === 'sent' ? 'sent' : 'pending',
    attempts: record.attempts,
    ...(record.sentAt !== undefined ? { sentAt: record.sentAt } : {}),
  };
}

/** The live state of a journal after replay. */
export interface ReplayedJournal {
  readonly records: Map<string, MutableOutboxRecord>;
  /** File names (not paths) this journal declares adopted. */
  readonly adoptedFiles: Set<string>;
  /** Ledger keys of every record the journal ever held, and of `key` lines. */
  readonly keys: Set<string>;
  readonly corruptEntries: number;
}

/** Applies entries in order: later lines win; marks for unknown ids are ignored. */
export function replayEntries(values: readonly unknown[]): ReplayedJournal {
  const records = new Map<string, MutableOutboxRecord>();
  const adoptedFiles = new Set<string>();
  const keys = new Set<string>();
  let corruptEntries = 0;
  for (const value of values) {
    const entry = asOutboxJournalEntry(value);
    if (entry === undefined) {
      corruptEntries++;
      continue;
    }
    switch (entry.t) {
      case 'enqueued': {
        records.set(entry.id, recordFromEntry(entry));
        const key = ledgerKeyOf(entry.groupId, entry.message.name);
        if (key !== undefined) keys.add(key);
        break;
      }
      case 'key':
        keys.add(entry.key);
        break;
      case 'offered':
        for (const id of entry.ids) {
          const record = records.get(id);
          if (record?.state === 'pending') record.offeredAt = entry.at;
        }
        break;
      case 'dead':
        for (const id of entry.ids) {
          const record = records.get(id);
          if (record === undefined) continue;
          record.state = 'dead';
          record.offeredAt = undefined;
          record.deadAt = entry.at;
          record.lastError = entry.error;
        }
        break;
      case 'retried':
        for (const id of entry.ids) {
          const record = records.get(id);
          if (record?.state !== 'dead') continue;
          reviveRecord(record, entry.at);
        }
        break;
      case 'sent':
        for (const id of entry.ids) {
          const record = records.get(id);
          if (record === undefined || record.state === 'dead') continue;
          record.state = 'sent';
          record.attempts++;
          record.sentAt = entry.at;
          record.offeredAt = undefined;
        }
        break;
      case 'pending':
        for (const id of entry.ids) {
          const record = records.get(id);
          if (record === undefined || record.state === 'dead') continue;
          record.state = 'pending';
          record.offeredAt = undefined;
          if (entry.outage === true) record.attempts = Math.max(0, record.attempts - 1);
        }
        break;
      case 'confirmed':
      case 'dropped':
        for (const id of entry.ids) records.delete(id);
        break;
      case 'adopted':
        for (const file of entry.files) adoptedFiles.add(file);
        break;
    }
  }
  return { records, adoptedFiles, keys, corruptEntries };
}

/** A dead letter sent back to pending by the user: a fresh start. */
export function reviveRecord(record: MutableOutboxRecord, at: number): void {
  record.enqueuedAt = at;
  record.state = 'pending';
  record.attempts = 0;
  record.sentAt = undefined;
  record.offeredAt = undefined;
  delete record.deadAt;
  delete record.lastError;
}

/** The content-free view of a dead letter. */
export function deadLetterOf(record: MutableOutboxRecord): DeadLetter {
  return {
    id: record.id,
    groupId: record.groupId,
    name: record.message.name,
    enqueuedAt: record.enqueuedAt,
    attempts: record.attempts,
    deadAt: record.deadAt ?? record.enqueuedAt,
    lastError: record.lastError ?? 'unknown',
  };
}
