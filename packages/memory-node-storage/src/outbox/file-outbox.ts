// The durable outbox: memory-core's Outbox on an append-only, self-checking journal with group
// commit. See README.md ("How the outbox is stored") for the multi-process design. The parts:
// RecordIndex (records in memory), FileDeliveryLedger (the ledger, kept in the journals),
// FileDrainLease (the right to send), JournalCompaction, and journal adoption.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type {
  DeadLetter,
  DeliveryLedger,
  MarkPendingOptions,
  Outbox,
  OutboxAdmitResult,
  OutboxAppendResult,
  OutboxDropReason,
  OutboxEntry,
  OutboxRecord,
} from '@graphiti-memory/memory-core';
import { JournalFile } from '../journal/journal-file.js';
import { FileDeliveryLedger } from '../stores/file-delivery-ledger.js';
import { makePrivateFolder } from '../stores/private-folder.js';
import { withAdmissionLock } from './admission-lock.js';
import { recordConfirmation, recordEndpoint } from './endpoint-record.js';
import { FileDrainLease } from './drain-lease.js';
import type { FileOutboxOptions, FileOutboxStats, OutboxRecovery } from './file-outbox-types.js';
import { tryLock, type HeldLock, type LockTiming } from './file-locks.js';
import { JournalCompaction } from './journal-compaction.js';
import { importLegacyLedger } from './legacy-ledger.js';
import { collectOrphans, importOrphans, otherJournals, otherJournalsHoldRecords } from './journal-adoption.js';
import { ledgerKeyOf, publicRecord, reviveRecord, type MutableOutboxRecord, type OutboxJournalEntry } from './outbox-journal-entry.js';
import { RecordIndex } from './record-index.js';

export type { FileOutboxOptions, FileOutboxStats, OutboxRecovery } from './file-outbox-types.js';

export class FileOutbox implements Outbox {
  readonly #index = new RecordIndex();
  readonly #idPrefix: string;
  readonly #drain: FileDrainLease;
  readonly #compaction: JournalCompaction;
  #nextId = 0;
  #fenced = false;
  #adopting: Promise<void> | undefined;
  #lastAdoptionAt = Number.NEGATIVE_INFINITY;
  #closed = false;
  /** The endpoint's first confirmation is recorded (endpoint-record.ts) once per process. */
  #confirmationWrite: Promise<void> | undefined;
  #recovery = { tornLines: 0, corruptLines: 0, adoptedJournals: 0, adoptedRecords: 0, damagedFiles: [] as string[] };
  #counters = { confirmed: 0, droppedOverflow: 0, droppedDeadLetter: 0, forgotten: 0 };

  /**
   * The delivery ledger of this folder, kept in the journals: a key added in the same tick as the
   * append of its message is made durable by the same journal write, so after a crash the ledger
   * never knows a message the outbox lost, nor the reverse. Bind it as memory-core's DeliveryLedger.
   */
  readonly deliveryLedger: FileDeliveryLedger;

  private constructor(
    private readonly directory: string,
    private readonly journal: JournalFile,
    private readonly ownLock: HeldLock,
    private readonly options: FileOutboxOptions,
    private readonly timing: LockTiming,
  ) {
    const journalName = path.basename(journal.filePath);
    this.#idPrefix = path.basename(journal.filePath, '.journal').slice('outbox-'.length);
    this.deliveryLedger = new FileDeliveryLedger(directory, journalName, Math.max(1, options.ledgerMaxEntries ?? 100_000), timing, (key) =>
      this.journal.append({ t: 'key', key } satisfies OutboxJournalEntry),
    );
    this.#drain = new FileDrainLease(directory, timing, {
      leaseMs: options.drainLeaseMs ?? 30_000,
      idleReleaseMs: options.drainIdleReleaseMs ?? 5_000,
      now: () => this.#now(),
      othersWaiting: () => otherJournalsHoldRecords(directory, journalName),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
    this.#compaction = new JournalCompaction(journal, this.#index, this.deliveryLedger, options.compactMinLines ?? 1_000, () => this.#adopting !== undefined || this.#closed, options.logger);
  }

  /** Opens an outbox in `options.directory`, adopting the journals of dead processes there. */
  static async open(options: FileOutboxOptions): Promise<FileOutbox> {
    const directory = path.resolve(options.directory);
    await makePrivateFolder(directory);
    const staleMs = Math.max(options.staleLockMs ?? 10_000, 2_000);
    const timing: LockTiming = { staleMs, updateMs: Math.max(Math.min(options.lockUpdateMs ?? staleMs / 2, staleMs / 2), 1_000) };
    const journalPath = path.join(directory, `outbox-${process.pid.toString(36)}-${randomBytes(6).toString('hex')}.journal`);
    const logger = options.logger;
    const fence = { outbox: undefined as FileOutbox | undefined };
    const ownLock = await tryLock(journalPath, timing, (error) => {
      // Another process may now adopt this journal (its lock was removed, or the event loop was
      // blocked longer than staleLockMs): stop sending, so no record goes out twice.
      if (fence.outbox !== undefined) fence.outbox.#fenced = true;
      logger?.error('outbox journal lock lost; this process stops sending and leaves its records to the process that takes them over', { code: errorCode(error) });
    });
    if (ownLock === undefined) {
      throw new Error(`Could not lock the new outbox journal ${journalPath}: a lock already exists for a file name that should be unique. Retry opening the outbox.`);
    }
    const journal = await JournalFile.open(journalPath, 0, 0, {
      commitIntervalMs: Math.max(1, options.commitIntervalMs ?? 25),
      onWriteError: (error) => logger?.error('outbox journal write failed; retrying', { code: errorCode(error) }),
    });
    const outbox = new FileOutbox(directory, journal, ownLock, options, timing);
    fence.outbox = outbox;
    const damage = await outbox.deliveryLedger.load();
    outbox.#noteDamage(outbox.deliveryLedger.sharedFileName, damage.tornLines, damage.corruptLines);
    if (options.legacyLedgerFile !== undefined) {
      const imported = await importLegacyLedger(options.legacyLedgerFile, outbox.deliveryLedger);
      if (imported > 0) logger?.info('outbox: delivery-ledger keys of an earlier version imported', { keys: imported });
    }
    await outbox.adoptOrphans();
    await outbox.deliveryLedger.refresh();
    if (options.endpoint !== undefined) await recordEndpoint(directory, options.endpoint);
    return outbox;
  }

  append(entries: readonly OutboxEntry[]): OutboxAppendResult {
    this.#assertOpen('append');
    const at = this.#now();
    const added = new Set<string>();
    for (const entry of entries) {
      const id = `${this.#idPrefix}-${(this.#nextId++).toString(36)}`;
      const source = { ...(entry.source === undefined ? {} : { source: entry.source }), ...(entry.mirror === undefined ? {} : { mirror: entry.mirror }) };
      const record: MutableOutboxRecord = { id, groupId: entry.groupId, message: entry.message, ...source, enqueuedAt: at, state: 'pending', attempts: 0, sentAt: undefined, offeredAt: undefined };
      this.#index.live.set(id, record);
      added.add(id);
      const key = ledgerKeyOf(entry.groupId, entry.message.name);
      if (key !== undefined) this.deliveryLedger.carriedByJournal(key);
      this.journal.append({ t: 'enqueued', id, groupId: entry.groupId, message: entry.message, ...source, enqueuedAt: at } satisfies OutboxJournalEntry);
    }
    const dropped = this.#enforceLimit();
    const droppedNew = dropped.filter((id) => added.has(id)).length;
    return { accepted: entries.length - droppedNew, dropped: dropped.length };
  }

  /**
   * Appends the entries whose key neither `ledger` nor any writer of this folder knows, under the
   * folder's admission lock and after reading what the other processes accepted since the last
   * check; durable before the lock is released. Two processes offered one transcript at the same
   * moment thus accept each message once between them.
   */
  async admit(entries: readonly OutboxEntry[], ledger: DeliveryLedger): Promise<OutboxAdmitResult> {
    this.#assertOpen('admit');
    return withAdmissionLock(this.directory, this.timing, async () => {
      await this.deliveryLedger.refresh();
      const fresh: OutboxEntry[] = [];
      const seen = new Set<string>();
      for (const entry of entries) {
        const key = ledgerKeyOf(entry.groupId, entry.message.name);
        if (key === undefined || seen.has(key) || this.deliveryLedger.has(key) || ledger.has(key)) continue;
        seen.add(key);
        if (ledger !== this.deliveryLedger) ledger.add(key);
        fresh.push(entry);
      }
      const result = fresh.length === 0 ? { accepted: 0, dropped: 0 } : this.append(fresh);
      await this.journal.flush();
      return { ...result, duplicates: entries.length - fresh.length };
    });
  }

  /**
   * Pending records, oldest first. Before returning, it journals that they are handed to the
   * sender and waits until that is durable: the sender marks them sent just before its request,
   * and that mark is not durable yet when a crash cuts in, so a recovered journal treats offered
   * records as possibly sent (confirmation looks for them before any resend), never as unsent.
   */
  async pending(limit: number): Promise<readonly OutboxRecord[]> {
    const result: OutboxRecord[] = [];
    if (limit <= 0 || this.#fenced) return result;
    const at = this.#now();
    for (const record of this.#index.live.values()) {
      if (record.state !== 'pending') continue;
      if (record.offeredAt === undefined) record.offeredAt = at;
      result.push(publicRecord(record));
      if (result.length >= limit) break;
    }
    if (result.length === 0 || this.#closed) return result;
    this.journal.append({ t: 'offered', ids: result.map((record) => record.id), at } satisfies OutboxJournalEntry);
    try {
      await this.journal.flush();
    } catch (error) {
      this.options.logger?.warn('outbox journal not durable; nothing handed out for sending', { code: errorCode(error) });
      return [];
    }
    return result;
  }

  /** Every record waiting (not sent yet, or sent and not confirmed), oldest first; changes nothing (for listing). */
  waiting(limit = Number.POSITIVE_INFINITY): readonly OutboxRecord[] {
    const result: OutboxRecord[] = [];
    for (const record of this.#index.live.values()) {
      if (result.length >= limit) break;
      result.push(publicRecord(record));
    }
    return result;
  }

  async inFlight(): Promise<readonly OutboxRecord[]> {
    const result: OutboxRecord[] = [];
    for (const record of this.#index.live.values()) if (record.state === 'sent') result.push(publicRecord(record));
    return result;
  }

  markSent(ids: readonly string[], at: number): void {
    const known = this.#index.known(ids);
    if (known.length === 0) return;
    for (const record of known) {
      record.state = 'sent';
      record.attempts++;
      record.sentAt = at;
      record.offeredAt = undefined;
    }
    this.journal.append({ t: 'sent', ids: known.map((record) => record.id), at } satisfies OutboxJournalEntry);
  }

  markConfirmed(ids: readonly string[]): void {
    const known = this.#index.known(ids);
    if (known.length === 0) return;
    for (const record of known) this.#index.live.delete(record.id);
    this.#counters.confirmed += known.length;
    this.journal.append({ t: 'confirmed', ids: known.map((record) => record.id) } satisfies OutboxJournalEntry);
    this.#compaction.acknowledged(known.length);
    // The endpoint is real: what waits here is its own (never moved to another without asking).
    this.#confirmationWrite ??= recordConfirmation(this.directory);
  }

  markPending(ids: readonly string[], options?: MarkPendingOptions): void {
    const known = this.#index.known(ids);
    if (known.length === 0) return;
    const outage = options?.outage === true;
    for (const record of known) {
      record.state = 'pending';
      record.offeredAt = undefined;
      if (outage) record.attempts = Math.max(0, record.attempts - 1);
    }
    this.journal.append({ t: 'pending', ids: known.map((record) => record.id), ...(outage ? { outage: true } : {}) } satisfies OutboxJournalEntry);
  }

  /** A dead letter is kept (state `dead`) with `detail`, ingestion's content-free reason (`HTTP 500`). */
  markDropped(ids: readonly string[], reason: OutboxDropReason, detail?: string): void {
    const known = this.#index.known(ids);
    if (known.length === 0) return;
    for (const record of known) this.#index.live.delete(record.id);
    if (reason === 'dead-letter') {
      const at = this.#now();
      const error = (detail ?? 'unknown').slice(0, 200);
      for (const record of known) {
        Object.assign(record, { state: 'dead', offeredAt: undefined, deadAt: at, lastError: error });
        this.#index.dead.set(record.id, record);
      }
      this.#counters.droppedDeadLetter += known.length;
      this.journal.append({ t: 'dead', ids: known.map((record) => record.id), at, error } satisfies OutboxJournalEntry);
      return;
    }
    if (reason === 'overflow') this.#counters.droppedOverflow += known.length;
    else this.#counters.forgotten += known.length;
    this.journal.append({ t: 'dropped', ids: known.map((record) => record.id), reason } satisfies OutboxJournalEntry);
    this.#compaction.acknowledged(known.length);
  }

  /**
   * Removes every record of these groups (pending, in flight, dead), those of dead processes'
   * journals included (adopted first). Their ledger keys stay: they are never admitted again.
   */
  async forgetGroups(groupIds: readonly string[]): Promise<number> {
    this.#assertOpen('forgetGroups');
    const groups = new Set(groupIds);
    if (groups.size === 0) return 0;
    await this.adoptOrphans().catch((error: unknown) => {
      this.options.logger?.warn('outbox: adopting journals before forgetting failed', { code: errorCode(error) });
    });
    const live = [...this.#index.live.values()].filter((record) => groups.has(record.groupId)).map((record) => record.id);
    this.markDropped(live, 'forgotten');
    const dead = [...this.#index.dead.values()].filter((record) => groups.has(record.groupId)).map((record) => record.id);
    this.#removeDead(dead, 'forgotten');
    await this.journal.flush();
    return live.length + dead.length;
  }

  deadLetters(): readonly DeadLetter[] {
    return this.#index.deadLetters();
  }

  retryDeadLetters(ids?: readonly string[]): number {
    const chosen = this.#index.chooseDead(ids);
    if (chosen.length === 0) return 0;
    const at = this.#now();
    for (const record of chosen) {
      this.#index.dead.delete(record.id);
      reviveRecord(record, at);
      this.#index.live.set(record.id, record);
    }
    this.journal.append({ t: 'retried', ids: chosen.map((record) => record.id), at } satisfies OutboxJournalEntry);
    return chosen.length;
  }

  dropDeadLetters(ids?: readonly string[]): number {
    const chosen = this.#index.chooseDead(ids);
    this.#removeDead(
      chosen.map((record) => record.id),
      'dead-letter',
    );
    return chosen.length;
  }

  #removeDead(ids: readonly string[], reason: OutboxDropReason): void {
    if (ids.length === 0) return;
    for (const id of ids) this.#index.dead.delete(id);
    if (reason === 'forgotten') this.#counters.forgotten += ids.length;
    this.journal.append({ t: 'dropped', ids, reason } satisfies OutboxJournalEntry);
    this.#compaction.acknowledged(ids.length);
  }

  size(): number {
    return this.#index.live.size;
  }

  async acquireDrain(): Promise<boolean> {
    if (this.#closed || this.#fenced) return false;
    if (!(await this.ownLock.verify())) {
      this.#fenced = true;
      return false;
    }
    if (!(await this.#drain.acquire()) || this.#closed) return false;
    if (this.#now() - this.#lastAdoptionAt >= (this.options.adoptIntervalMs ?? 5_000)) await this.adoptOrphans();
    return true;
  }

  /**
   * Whether this process still holds its journal and the drain lock, checked on disk now: a lock
   * removed or taken over while it runs stops it before its next request.
   */
  async holdsDrain(): Promise<boolean> {
    if (this.#fenced || this.#closed || !this.#drain.held) return false;
    if (!(await this.ownLock.verify())) {
      this.#fenced = true;
      return false;
    }
    return this.#drain.holds();
  }

  flush(): Promise<void> {
    return this.journal.flush();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#adopting?.catch(() => undefined);
    await this.#confirmationWrite;
    // Offered is not sent: records handed out but never marked sent go back to plain pending, so
    // the process that adopts them sends them at once instead of waiting for a resend window.
    const offered = [...this.#index.live.values()].filter((record) => record.state === 'pending' && record.offeredAt !== undefined);
    if (offered.length > 0) this.markPending(offered.map((record) => record.id));
    this.#closed = true;
    this.deliveryLedger.close();
    // A journal the disk refuses (full, read-only) is still closed and its lock released: a live
    // process that kept it would keep its records from every other process until it exits.
    // What never reached the disk is not kept; its transcript offers it again (not marked taken).
    const unwritten = await this.journal.close();
    if (unwritten !== undefined) this.options.logger?.error('outbox: closed with writes the disk refused; the journal is left for adoption', { code: errorCode(unwritten) });
    try {
      await this.#drain.release().catch(() => undefined);
      if (unwritten === undefined && this.#index.live.size === 0 && this.#index.dead.size === 0 && !this.#fenced) {
        // The journal is the only durable copy of its ledger keys: they move to the shared file first.
        if (await this.deliveryLedger.saveJournalKeys()) await fs.rm(this.journal.filePath, { force: true }).catch(() => undefined);
        else this.options.logger?.warn('outbox: saving delivery-ledger keys failed; the journal is kept');
      }
    } finally {
      // With records left, the released lock lets the next process adopt this journal at once.
      await this.ownLock.release();
    }
  }

  /** What opening and adoption found. */
  recovery(): OutboxRecovery {
    return { ...this.#recovery, damagedFiles: [...this.#recovery.damagedFiles] };
  }

  stats(): FileOutboxStats {
    const inFlight = this.#index.inFlightCount();
    return {
      size: this.#index.live.size,
      pending: this.#index.live.size - inFlight,
      inFlight,
      ...this.#counters,
      compactions: this.#compaction.count,
      deadLetters: this.#index.dead.size,
      fenced: this.#fenced,
      journalPath: this.journal.filePath,
      journalBytes: this.journal.length,
      journalLines: this.journal.lineCount,
      drainHeld: this.#drain.held,
      compacting: this.#compaction.running,
    };
  }

  /**
   * Takes over the journals of dead processes in the folder (also done on open and, every
   * `adoptIntervalMs`, while draining). Imported records become visible once durable here.
   */
  adoptOrphans(): Promise<void> {
    this.#adopting ??= this.#adopt().finally(() => {
      this.#adopting = undefined;
      this.#lastAdoptionAt = this.#now();
    });
    return this.#adopting;
  }

  async #adopt(): Promise<void> {
    const orphans = await collectOrphans(this.directory, path.basename(this.journal.filePath), this.timing, (error) => {
      this.options.logger?.warn('lock of an adopted journal lost', { code: errorCode(error) });
    });
    if (orphans.length === 0) return;
    const records = await importOrphans(this.directory, orphans, {
      journal: this.journal,
      index: this.#index,
      ledger: this.deliveryLedger,
      noteDamage: (fileName, tornLines, corruptLines) => this.#noteDamage(fileName, tornLines, corruptLines),
    });
    this.#recovery.adoptedJournals += orphans.length;
    this.#recovery.adoptedRecords += records;
    this.options.logger?.info('adopted outbox journals', { journals: orphans.length, records });
    if (!this.#closed) this.#enforceLimit();
  }

  #noteDamage(fileName: string, tornLines: number, corruptLines: number): void {
    if (tornLines + corruptLines === 0) return;
    this.#recovery.tornLines += tornLines;
    this.#recovery.corruptLines += corruptLines;
    if (!this.#recovery.damagedFiles.includes(fileName)) this.#recovery.damagedFiles.push(fileName);
    this.options.logger?.warn('outbox: damaged lines skipped; what they held is not counted as delivered and is offered again when read again', {
      file: fileName,
      tornLines,
      corruptLines,
    });
  }

  #enforceLimit(): string[] {
    const configured = this.options.maxQueueSize;
    const dropped = this.#index.overflow(typeof configured === 'function' ? configured() : (configured ?? 10_000));
    if (dropped.length > 0) {
      this.markDropped(dropped, 'overflow');
      this.options.logger?.warn('outbox full: dropped oldest pending messages', { dropped: dropped.length });
    }
    return dropped;
  }

  /**
   * Journals of other processes in the folder: live ones, and dead ones not adoptable yet (their
   * lock turns stale `staleLockMs` after the death). A process that must leave nothing behind
   * (a CLI drain) calls `adoptOrphans` until this is 0 or only live processes remain.
   */
  otherJournalCount(): Promise<number> {
    return otherJournals(this.directory, path.basename(this.journal.filePath)).then((names) => names.length);
  }

  #now(): number {
    return this.options.now?.() ?? Date.now();
  }

  #assertOpen(operation: string): void {
    if (this.#closed) throw new Error(`FileOutbox.${operation} called after close(); open a new FileOutbox for ${this.directory}.`);
  }
}

function errorCode(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.name;
  return 'unknown';
}
