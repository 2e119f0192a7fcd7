// The durable outbox: memory-core's Outbox on an append-only, self-checking journal with group
// commit. See README.md ("How the outbox is stored") for the multi-process design.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type {
  DeadLetter,
  DeliveryLedger,
  Logger,
  Outbox,
  OutboxAdmitResult,
  OutboxAppendResult,
  OutboxDropReason,
  OutboxEntry,
  OutboxRecord,
} from '@graphiti-memory/memory-core';
import { JournalFile } from '../journal/journal-file.js';
import { tryLock, type HeldLock, type LockTiming } from './file-locks.js';
import lockfile from 'proper-lockfile';
import { ForeignKeyReader } from './foreign-keys.js';
import { collectOrphans, JOURNAL_FILE_PATTERN, removeAdopted } from './journal-adoption.js';
import { SharedLedgerFile } from './shared-ledger-file.js';
import {
  deadLetterOf,
  entryFromRecord,
  ledgerKeyOf,
  reviveRecord,
  publicRecord,
  type MutableOutboxRecord,
  type OutboxJournalEntry,
} from './outbox-journal-entry.js';

export interface FileOutboxOptions {
  /** The folder the host gives (extension global storage, the harness's state dir). Created if missing. */
  readonly directory: string;
  /** Pending + in-flight records kept; the oldest pending are dropped beyond it. A getter follows settings. Default 10 000. */
  readonly maxQueueSize?: number | (() => number);
  /** Group-commit interval: the longest time an accepted record waits for its fsync. Default 25 ms. */
  readonly commitIntervalMs?: number;
  /** Journals shorter than this are never compacted. Default 1 000 lines. */
  readonly compactMinLines?: number;
  /** A lock not refreshed for this long belongs to a dead or hung process. Default 10 000 ms (minimum 2 000). */
  readonly staleLockMs?: number;
  /** How often held locks are refreshed. Default half of `staleLockMs` (minimum 1 000). */
  readonly lockUpdateMs?: number;
  /** The drain lock is handed over after this long when other journals wait. Default 30 000 ms. */
  readonly drainLeaseMs?: number;
  /** The drain lock is released when `acquireDrain` was not called for this long. Default 5 000 ms. */
  readonly drainIdleReleaseMs?: number;
  /** How often a draining process looks for journals of dead processes. Default 5 000 ms. */
  readonly adoptIntervalMs?: number;
  /** Keys the delivery ledger (`deliveryLedger`) remembers; the oldest are forgotten beyond it. Default 100 000. */
  readonly ledgerMaxEntries?: number;
  readonly logger?: Logger;
  readonly now?: () => number;
}

/** What opening (and adopting) found; damaged lines are skipped, never fatal. */
export interface OutboxRecovery {
  /** Partial last lines (a write cut short by a crash), discarded. */
  readonly tornLines: number;
  /** Complete lines whose checksum or shape was wrong, skipped. */
  readonly corruptLines: number;
  /** Journals of other (dead or closed) processes taken over. */
  readonly adoptedJournals: number;
  /** Live records imported from them. */
  readonly adoptedRecords: number;
  /**
   * Files (names in the folder) where damaged lines were found. What they lost is not treated as
   * delivered: a message whose lines were lost is admitted again when its transcript is read again.
   */
  readonly damagedFiles: readonly string[];
}

export interface FileOutboxStats {
  readonly size: number;
  readonly pending: number;
  readonly inFlight: number;
  readonly confirmed: number;
  readonly droppedOverflow: number;
  readonly droppedDeadLetter: number;
  /** Records removed because their group was forgotten. */
  readonly forgotten: number;
  /** Dead letters kept (retry or drop them). */
  readonly deadLetters: number;
  /** This process lost its journal lock (another process took its records over): it sends nothing more. */
  readonly fenced: boolean;
  readonly journalPath: string;
  readonly journalBytes: number;
  readonly journalLines: number;
  readonly compactions: number;
  readonly drainHeld: boolean;
  /** A compaction is being written. */
  readonly compacting: boolean;
}

const DRAIN_LOCK_TARGET = 'drain';
/** Admission (ledger check + append) is serialised across the processes of a folder by this lock. */
const ADMIT_LOCK_TARGET = 'admit';

export class FileOutbox implements Outbox {
  readonly #records = new Map<string, MutableOutboxRecord>();
  /** Dead letters, kept apart from the live records (they count in no queue size). */
  readonly #dead = new Map<string, MutableOutboxRecord>();
  readonly #foreign: ForeignKeyReader;
  #fenced = false;
  readonly #idPrefix: string;
  #nextId = 0;
  #acknowledgedSinceCompaction = 0;
  #compacting = false;
  #adopting: Promise<void> | undefined;
  #lastAdoptionAt = Number.NEGATIVE_INFINITY;
  #drainLock: HeldLock | undefined;
  #drainHeldSince = 0;
  #drainCooldownUntil = 0;
  #drainIdleTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #recovery = { tornLines: 0, corruptLines: 0, adoptedJournals: 0, adoptedRecords: 0, damagedFiles: [] as string[] };
  #counters = { confirmed: 0, droppedOverflow: 0, droppedDeadLetter: 0, forgotten: 0, compactions: 0 };
  /** Every key the ledger knows, oldest first. */
  readonly #ledgerKeys = new Set<string>();
  /** Keys whose only durable copy is the current journal: moved to the ledger file on compaction. */
  #journalKeys = new Set<string>();
  /** Keys added through the ledger and not (yet) carried by an `enqueued` line of this tick. */
  readonly #uncoveredKeys = new Set<string>();
  #ledgerFile: SharedLedgerFile;

  /**
   * The delivery ledger stored with this outbox: a key added in the same tick as the append of
   * its message is made durable by the same journal write, so after a crash the ledger never
   * knows a message the outbox lost, nor the reverse. Shared by the processes of the folder
   * through the ledger file (keys of records that left the journals).
   */
  readonly deliveryLedger: DeliveryLedger = {
    has: (key) => this.#ledgerKeys.has(key),
    add: (key) => this.#addLedgerKey(key),
  };

  private constructor(
    private readonly directory: string,
    private readonly journal: JournalFile,
    private readonly ownLock: HeldLock,
    private readonly options: FileOutboxOptions,
    private readonly timing: LockTiming,
  ) {
    this.#idPrefix = path.basename(journal.filePath, '.journal').slice('outbox-'.length);
    this.#ledgerFile = new SharedLedgerFile(directory, this.#ledgerLimit, timing);
    this.#foreign = new ForeignKeyReader(directory, path.basename(journal.filePath));
  }

  /** Opens an outbox in `options.directory`, adopting the journals of dead processes there. */
  static async open(options: FileOutboxOptions): Promise<FileOutbox> {
    const directory = path.resolve(options.directory);
    await fs.mkdir(directory, { recursive: true });
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
    const ledger = await outbox.#ledgerFile.load();
    for (const key of ledger.keys) outbox.#ledgerKeys.add(key);
    outbox.#noteDamage(path.basename(outbox.#ledgerFile.filePath), ledger.tornLines, ledger.corruptLines);
    await outbox.adoptOrphans();
    for (const key of await outbox.#foreign.readNew()) outbox.#rememberKey(key);
    return outbox;
  }

  append(entries: readonly OutboxEntry[]): OutboxAppendResult {
    this.#assertOpen('append');
    const at = this.#now();
    const added = new Set<string>();
    for (const entry of entries) {
      const id = `${this.#idPrefix}-${(this.#nextId++).toString(36)}`;
      const record: MutableOutboxRecord = {
        id,
        groupId: entry.groupId,
        message: entry.message,
        enqueuedAt: at,
        state: 'pending',
        attempts: 0,
        sentAt: undefined,
        offeredAt: undefined,
      };
      this.#records.set(id, record);
      added.add(id);
      const key = ledgerKeyOf(entry.groupId, entry.message.name);
      if (key !== undefined) {
        this.#uncoveredKeys.delete(key);
        this.#journalKeys.add(key);
        this.#rememberKey(key);
      }
      this.journal.append({ t: 'enqueued', id, groupId: entry.groupId, message: entry.message, enqueuedAt: at } satisfies OutboxJournalEntry);
    }
    const dropped = this.#enforceLimit();
    const droppedNew = dropped.filter((id) => added.has(id)).length;
    return { accepted: entries.length - droppedNew, dropped: dropped.length };
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
    for (const record of this.#records.values()) {
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

  async inFlight(): Promise<readonly OutboxRecord[]> {
    const result: OutboxRecord[] = [];
    for (const record of this.#records.values()) if (record.state === 'sent') result.push(publicRecord(record));
    return result;
  }

  markSent(ids: readonly string[], at: number): void {
    const known = this.#known(ids);
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
    const known = this.#known(ids);
    if (known.length === 0) return;
    for (const record of known) this.#records.delete(record.id);
    this.#counters.confirmed += known.length;
    this.journal.append({ t: 'confirmed', ids: known.map((record) => record.id) } satisfies OutboxJournalEntry);
    this.#acknowledged(known.length);
  }

  markPending(ids: readonly string[]): void {
    const known = this.#known(ids);
    if (known.length === 0) return;
    for (const record of known) {
      record.state = 'pending';
      record.offeredAt = undefined;
    }
    this.journal.append({ t: 'pending', ids: known.map((record) => record.id) } satisfies OutboxJournalEntry);
  }

  /** A dead letter is kept (state `dead`) with `detail`, ingestion's content-free reason (`HTTP 500`). */
  markDropped(ids: readonly string[], reason: OutboxDropReason, detail?: string): void {
    const known = this.#known(ids);
    if (known.length === 0) return;
    for (const record of known) this.#records.delete(record.id);
    if (reason === 'dead-letter') {
      const at = this.#now();
      const error = (detail ?? 'unknown').slice(0, 200);
      for (const record of known) {
        record.state = 'dead';
        record.offeredAt = undefined;
        record.deadAt = at;
        record.lastError = error;
        this.#dead.set(record.id, record);
      }
      this.#counters.droppedDeadLetter += known.length;
      this.journal.append({ t: 'dead', ids: known.map((record) => record.id), at, error } satisfies OutboxJournalEntry);
      return;
    }
    if (reason === 'overflow') this.#counters.droppedOverflow += known.length;
    else this.#counters.forgotten += known.length;
    this.journal.append({ t: 'dropped', ids: known.map((record) => record.id), reason } satisfies OutboxJournalEntry);
    this.#acknowledged(known.length);
  }

  /**
   * Appends the entries whose key neither `ledger` nor any writer of this folder knows, under the
   * folder's admission lock and after reading what the other processes accepted since the last
   * check; durable before the lock is released. Two processes offered one transcript at the same
   * moment thus accept each message once between them.
   */
  async admit(entries: readonly OutboxEntry[], ledger: DeliveryLedger): Promise<OutboxAdmitResult> {
    this.#assertOpen('admit');
    const release = await lockfile.lock(path.join(this.directory, ADMIT_LOCK_TARGET), {
      realpath: false,
      lockfilePath: path.join(this.directory, `${ADMIT_LOCK_TARGET}.lock`),
      stale: this.timing.staleMs,
      update: this.timing.updateMs,
      // Long enough for a lock left by a killed process to turn stale and be taken over.
      retries: { retries: Math.ceil((this.timing.staleMs * 3) / 100), minTimeout: 5, maxTimeout: 100 },
    });
    try {
      for (const key of await this.#foreign.readNew()) this.#rememberKey(key);
      const fresh: OutboxEntry[] = [];
      const seen = new Set<string>();
      for (const entry of entries) {
        const key = ledgerKeyOf(entry.groupId, entry.message.name);
        if (key === undefined || seen.has(key) || this.#ledgerKeys.has(key) || ledger.has(key)) continue;
        seen.add(key);
        if (ledger !== this.deliveryLedger) ledger.add(key);
        fresh.push(entry);
      }
      const result = fresh.length === 0 ? { accepted: 0, dropped: 0 } : this.append(fresh);
      await this.journal.flush();
      return { ...result, duplicates: entries.length - fresh.length };
    } finally {
      await release().catch(() => undefined);
    }
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
    const live = [...this.#records.values()].filter((record) => groups.has(record.groupId)).map((record) => record.id);
    this.markDropped(live, 'forgotten');
    const dead = [...this.#dead.values()].filter((record) => groups.has(record.groupId)).map((record) => record.id);
    this.#removeDead(dead, 'forgotten');
    await this.journal.flush();
    return live.length + dead.length;
  }

  deadLetters(): readonly DeadLetter[] {
    return [...this.#dead.values()].map((record) => deadLetterOf(record));
  }

  retryDeadLetters(ids?: readonly string[]): number {
    const chosen = this.#chooseDead(ids);
    if (chosen.length === 0) return 0;
    const at = this.#now();
    for (const record of chosen) {
      this.#dead.delete(record.id);
      reviveRecord(record, at);
      this.#records.set(record.id, record);
    }
    this.journal.append({ t: 'retried', ids: chosen.map((record) => record.id), at } satisfies OutboxJournalEntry);
    return chosen.length;
  }

  dropDeadLetters(ids?: readonly string[]): number {
    const chosen = this.#chooseDead(ids);
    this.#removeDead(
      chosen.map((record) => record.id),
      'dead-letter',
    );
    return chosen.length;
  }

  #chooseDead(ids: readonly string[] | undefined): MutableOutboxRecord[] {
    if (ids === undefined) return [...this.#dead.values()];
    return ids.flatMap((id) => {
      const record = this.#dead.get(id);
      return record === undefined ? [] : [record];
    });
  }

  #removeDead(ids: readonly string[], reason: OutboxDropReason): void {
    if (ids.length === 0) return;
    for (const id of ids) this.#dead.delete(id);
    if (reason === 'forgotten') this.#counters.forgotten += ids.length;
    this.journal.append({ t: 'dropped', ids, reason } satisfies OutboxJournalEntry);
    this.#acknowledged(ids.length);
  }

  /**
   * Whether this process still holds its journal and the drain lock, checked on disk now: a lock
   * removed or taken over while it runs stops it before its next request.
   */
  async holdsDrain(): Promise<boolean> {
    if (this.#fenced || this.#closed || this.#drainLock === undefined) return false;
    if (!(await this.ownLock.verify())) {
      this.#fenced = true;
      return false;
    }
    if (await this.#drainLock.verify()) return true;
    this.#drainLock = undefined;
    return false;
  }

  size(): number {
    return this.#records.size;
  }

  async acquireDrain(): Promise<boolean> {
    if (this.#closed || this.#fenced) return false;
    if (!(await this.ownLock.verify())) {
      this.#fenced = true;
      return false;
    }
    const now = this.#now();
    if (this.#drainLock?.compromised === true) this.#drainLock = undefined;
    if (this.#drainLock !== undefined) {
      if (now - this.#drainHeldSince > (this.options.drainLeaseMs ?? 30_000) && (await this.#otherJournalsWaiting())) {
        // Hand over: other processes drain only their own journals, and only while holding this lock.
        await this.#releaseDrain();
        this.#drainCooldownUntil = now + this.timing.updateMs * 2;
        return false;
      }
    } else {
      if (now < this.#drainCooldownUntil) return false;
      const lock = await tryLock(path.join(this.directory, DRAIN_LOCK_TARGET), this.timing, (error) => {
        this.options.logger?.warn('outbox drain lock lost', { code: errorCode(error) });
      });
      if (lock === undefined || this.#closed) {
        await lock?.release();
        return false;
      }
      this.#drainLock = lock;
      this.#drainHeldSince = now;
    }
    this.#armDrainIdleRelease();
    if (now - this.#lastAdoptionAt >= (this.options.adoptIntervalMs ?? 5_000)) await this.adoptOrphans();
    return true;
  }

  flush(): Promise<void> {
    return this.journal.flush();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#adopting?.catch(() => undefined);
    // Offered is not sent: records handed out but never marked sent go back to plain pending, so
    // the process that adopts them sends them at once instead of waiting for a resend window.
    const offered = [...this.#records.values()].filter((record) => record.state === 'pending' && record.offeredAt !== undefined);
    if (offered.length > 0) this.markPending(offered.map((record) => record.id));
    this.#closed = true;
    await this.journal.close();
    await this.#releaseDrain();
    if (this.#records.size === 0 && this.#dead.size === 0 && !this.#fenced) {
      // The journal is the only durable copy of its ledger keys: move them to the shared file first.
      const moved = await this.#ledgerFile.append([...this.#journalKeys]).then(
        () => true,
        (error: unknown) => {
          this.options.logger?.warn('outbox: saving delivery-ledger keys failed; the journal is kept', { code: errorCode(error) });
          return false;
        },
      );
      if (moved) await fs.rm(this.journal.filePath, { force: true });
    }
    // With records left, the released lock lets the next process adopt this journal at once.
    await this.ownLock.release();
  }

  /** What opening and adoption found. */
  recovery(): OutboxRecovery {
    return { ...this.#recovery, damagedFiles: [...this.#recovery.damagedFiles] };
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

  stats(): FileOutboxStats {
    let inFlight = 0;
    for (const record of this.#records.values()) if (record.state === 'sent') inFlight++;
    return {
      size: this.#records.size,
      pending: this.#records.size - inFlight,
      inFlight,
      ...this.#counters,
      deadLetters: this.#dead.size,
      fenced: this.#fenced,
      journalPath: this.journal.filePath,
      journalBytes: this.journal.length,
      journalLines: this.journal.lineCount,
      drainHeld: this.#drainLock !== undefined,
      compacting: this.#compacting,
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
    const imported: MutableOutboxRecord[] = [];
    const adoptedKeys = new Set<string>();
    for (const orphan of orphans) {
      for (const key of orphan.keys) adoptedKeys.add(key);
      for (const record of orphan.records) {
        if (this.#records.has(record.id) || this.#dead.has(record.id) || imported.some((other) => other.id === record.id)) continue;
        imported.push(record);
        this.journal.append(entryFromRecord(record));
      }
      this.#noteDamage(orphan.fileName, orphan.tornLines, orphan.corruptLines);
    }
    // The marker comes after the records: a torn batch leaves the orphan in place, to be re-read.
    this.journal.append({ t: 'adopted', files: orphans.map((orphan) => orphan.fileName) } satisfies OutboxJournalEntry);
    try {
      await this.journal.flush();
    } catch (error) {
      for (const orphan of orphans) await orphan.lock.release();
      throw error;
    }
    try {
      // Keys of records the orphans confirmed must outlive the orphans: into the shared ledger file first.
      await this.#ledgerFile.append([...adoptedKeys]);
    } catch (error) {
      for (const orphan of orphans) await orphan.lock.release();
      throw error;
    }
    for (const key of adoptedKeys) this.#rememberKey(key);
    for (const record of imported) if (record.state === 'dead') this.#dead.set(record.id, record);
    this.#insertOrdered(imported.filter((record) => record.state !== 'dead'));
    this.#recovery.adoptedJournals += orphans.length;
    this.#recovery.adoptedRecords += imported.length;
    await removeAdopted(this.directory, orphans);
    this.options.logger?.info('adopted outbox journals', { journals: orphans.length, records: imported.length });
    if (!this.#closed) this.#enforceLimit();
  }

  /** Merges imported records by enqueue time so `pending` stays oldest first. */
  #insertOrdered(imported: readonly MutableOutboxRecord[]): void {
    if (imported.length === 0) return;
    const all = [...this.#records.values(), ...imported].sort((left, right) => left.enqueuedAt - right.enqueuedAt);
    this.#records.clear();
    for (const record of all) this.#records.set(record.id, record);
  }

  #enforceLimit(): string[] {
    const configured = this.options.maxQueueSize;
    const limit = typeof configured === 'function' ? configured() : (configured ?? 10_000);
    let excess = this.#records.size - Math.max(0, limit);
    if (excess <= 0) return [];
    const dropped: string[] = [];
    for (const record of this.#records.values()) {
      if (excess <= 0) break;
      if (record.state !== 'pending') continue;
      dropped.push(record.id);
      excess--;
    }
    if (dropped.length > 0) {
      this.markDropped(dropped, 'overflow');
      this.options.logger?.warn('outbox full: dropped oldest pending messages', { dropped: dropped.length });
    }
    return dropped;
  }

  #known(ids: readonly string[]): MutableOutboxRecord[] {
    const known: MutableOutboxRecord[] = [];
    for (const id of ids) {
      const record = this.#records.get(id);
      if (record !== undefined) known.push(record);
    }
    return known;
  }

  #acknowledged(count: number): void {
    this.#acknowledgedSinceCompaction += count;
    this.#maybeCompact();
  }

  #maybeCompact(): void {
    const minimumLines = this.options.compactMinLines ?? 1_000;
    if (this.#compacting || this.#adopting !== undefined || this.#closed) return;
    if (this.journal.lineCount < minimumLines || this.#acknowledgedSinceCompaction <= this.#records.size) return;
    this.#compacting = true;
    let covered = 0;
    let moving: string[] = [];
    this.journal
      .rewrite(
        () => {
          covered = this.#acknowledgedSinceCompaction;
          const live = new Set<string>();
          const kept = [...this.#dead.values(), ...this.#records.values()];
          for (const record of kept) {
            const key = ledgerKeyOf(record.groupId, record.message.name);
            if (key !== undefined) live.add(key);
          }
          moving = [...this.#journalKeys].filter((key) => !live.has(key));
          this.#journalKeys = live;
          return kept.map((record) => entryFromRecord(record));
        },
        () => this.#ledgerFile.append(moving),
      )
      .then(
        () => {
          this.#counters.compactions++;
          this.#acknowledgedSinceCompaction -= covered;
        },
        (error: unknown) => {
          for (const key of moving) this.#journalKeys.add(key);
          this.options.logger?.warn('outbox compaction failed; the journal keeps growing until the next try', { code: errorCode(error) });
        },
      )
      .finally(() => {
        this.#compacting = false;
        // Acknowledgements made while this one was written may already dominate again.
        if (!this.#closed) this.#maybeCompact();
      });
  }

  #addLedgerKey(key: string): void {
    if (this.#ledgerKeys.has(key)) return;
    this.#rememberKey(key);
    this.#journalKeys.add(key);
    if (this.#closed) return;
    this.#uncoveredKeys.add(key);
    if (this.#uncoveredKeys.size === 1) {
      // Usually the message is appended in this same tick and its `enqueued` line carries the key.
      queueMicrotask(() => {
        for (const uncovered of this.#uncoveredKeys) {
          if (!this.#closed) this.journal.append({ t: 'key', key: uncovered } satisfies OutboxJournalEntry);
        }
        this.#uncoveredKeys.clear();
      });
    }
  }

  #rememberKey(key: string): void {
    this.#ledgerKeys.delete(key);
    this.#ledgerKeys.add(key);
    if (this.#ledgerKeys.size <= this.#ledgerLimit) return;
    const oldest = this.#ledgerKeys.values().next();
    if (oldest.done !== true) this.#ledgerKeys.delete(oldest.value);
  }

  get #ledgerLimit(): number {
    return Math.max(1, this.options.ledgerMaxEntries ?? 100_000);
  }

  /**
   * Journals of other processes in the folder: live ones, and dead ones not adoptable yet (their
   * lock turns stale `staleLockMs` after the death). A process that must leave nothing behind
   * (a CLI drain) calls `adoptOrphans` until this is 0 or only live processes remain.
   */
  async otherJournalCount(): Promise<number> {
    const own = path.basename(this.journal.filePath);
    const names = await fs.readdir(this.directory).catch(() => [] as string[]);
    return names.filter((name) => name !== own && JOURNAL_FILE_PATTERN.test(name)).length;
  }

  async #otherJournalsWaiting(): Promise<boolean> {
    const own = path.basename(this.journal.filePath);
    const names = await fs.readdir(this.directory).catch(() => [] as string[]);
    for (const name of names) {
      if (name === own || !name.startsWith('outbox-') || !name.endsWith('.journal')) continue;
      const stat = await fs.stat(path.join(this.directory, name)).catch(() => undefined);
      if (stat !== undefined && stat.size > 0) return true;
    }
    return false;
  }

  #armDrainIdleRelease(): void {
    if (this.#drainIdleTimer !== undefined) clearTimeout(this.#drainIdleTimer);
    this.#drainIdleTimer = setTimeout(() => {
      this.#drainIdleTimer = undefined;
      void this.#releaseDrain();
    }, this.options.drainIdleReleaseMs ?? 5_000);
    this.#drainIdleTimer.unref();
  }

  async #releaseDrain(): Promise<void> {
    if (this.#drainIdleTimer !== undefined) clearTimeout(this.#drainIdleTimer);
    this.#drainIdleTimer = undefined;
    const lock = this.#drainLock;
    this.#drainLock = undefined;
    await lock?.release();
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
