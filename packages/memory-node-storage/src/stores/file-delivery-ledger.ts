// The delivery ledger of a FileOutbox folder: which messages (`<groupId>:<episode name>`) were
// ever accepted by any writer of the folder, so none is accepted twice. There is no separate
// ledger file to disagree with the outbox: a key lives in the journal line that carries its
// message (or in a `key` line written in the same commit), and moves to the shared
// `delivery-ledger.journal` only when its journal gives it up (compaction, close, adoption).
// What other processes accept is read from their journals (`refresh`, incremental).
import type { DeliveryLedger } from '@graphiti-memory/memory-core';
import type { LockTiming } from '../outbox/file-locks.js';
import { ForeignKeyReader } from '../outbox/foreign-keys.js';
import { SharedLedgerFile } from '../outbox/shared-ledger-file.js';

export class FileDeliveryLedger implements DeliveryLedger {
  /** Every key known, oldest first, bounded by `maxEntries`. */
  readonly #keys = new Set<string>();
  /** Keys whose only durable copy is this process's journal. */
  #journalKeys = new Set<string>();
  /** Keys added through `add` and not (yet) carried by an `enqueued` line of this tick. */
  readonly #uncovered = new Set<string>();
  readonly #shared: SharedLedgerFile;
  readonly #foreign: ForeignKeyReader;
  #closed = false;

  constructor(
    directory: string,
    ownJournalName: string,
    private readonly maxEntries: number,
    timing: LockTiming,
    /** Journals a key that no `enqueued` line carries. */
    private readonly journalKeyLine: (key: string) => void,
  ) {
    this.#shared = new SharedLedgerFile(directory, maxEntries, timing);
    this.#foreign = new ForeignKeyReader(directory, ownJournalName);
  }

  /** The shared file's name in the folder (for damage reports). */
  get sharedFileName(): string {
    return this.#shared.fileName;
  }

  has(key: string): boolean {
    return this.#keys.has(key);
  }

  /** A key accepted without a message line (memory-core's ledger port); journaled in the same tick. */
  add(key: string): void {
    if (this.#keys.has(key)) return;
    this.remember(key);
    this.#journalKeys.add(key);
    if (this.#closed) return;
    this.#uncovered.add(key);
    if (this.#uncovered.size === 1) {
      // Usually the message is appended in this same tick and its `enqueued` line carries the key.
      queueMicrotask(() => {
        for (const uncovered of this.#uncovered) if (!this.#closed) this.journalKeyLine(uncovered);
        this.#uncovered.clear();
      });
    }
  }

  /** The `enqueued` line of this key's message is being journaled. */
  carriedByJournal(key: string): void {
    this.#uncovered.delete(key);
    this.#journalKeys.add(key);
    this.remember(key);
  }

  /** A key known from elsewhere (another journal, an adopted one, the shared file). */
  remember(key: string): void {
    this.#keys.delete(key);
    this.#keys.add(key);
    if (this.#keys.size <= this.maxEntries) return;
    const oldest = this.#keys.values().next();
    if (oldest.done !== true) this.#keys.delete(oldest.value);
  }

  /** Reads the shared file; returns what damage it had. */
  async load(): Promise<{ tornLines: number; corruptLines: number }> {
    const loaded = await this.#shared.load();
    for (const key of loaded.keys) this.#keys.add(key);
    return { tornLines: loaded.tornLines, corruptLines: loaded.corruptLines };
  }

  /** Every key known, after learning what the other writers accepted (memory-core's ledger port). */
  async keys(): Promise<readonly string[]> {
    await this.refresh();
    return [...this.#keys];
  }

  /** Learns what the other writers of the folder accepted since the last call. */
  async refresh(): Promise<void> {
    for (const key of await this.#foreign.readNew()) this.remember(key);
  }

  /** Keys of journals this process takes over: durable in the shared file before those journals go. */
  async keep(keys: readonly string[]): Promise<void> {
    await this.#shared.append(keys);
    for (const key of keys) this.remember(key);
  }

  /**
   * For a compaction that keeps only `liveKeys` in the journal: the other journal keys must move
   * to the shared file. Returns them; `restore` puts them back if the compaction fails.
   */
  takeMovable(liveKeys: ReadonlySet<string>): string[] {
    const moving = [...this.#journalKeys].filter((key) => !liveKeys.has(key));
    this.#journalKeys = new Set(liveKeys);
    return moving;
  }

  moveToShared(keys: readonly string[]): Promise<void> {
    return this.#shared.append(keys);
  }

  restore(keys: readonly string[]): void {
    for (const key of keys) this.#journalKeys.add(key);
  }

  /** Before the journal is deleted: its keys into the shared file. `false` when that failed (keep the journal). */
  async saveJournalKeys(): Promise<boolean> {
    return this.#shared.append([...this.#journalKeys]).then(
      () => true,
      () => false,
    );
  }

  close(): void {
    this.#closed = true;
  }
}
