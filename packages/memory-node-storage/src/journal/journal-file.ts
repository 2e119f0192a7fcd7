// An append-only file written by group commit: callers queue entries synchronously; a timer (or
// `flush`) serialises the batch, writes it in one call and fsyncs, off the caller's path. One
// operation touches the file at a time (a promise chain), so a compaction never races a write.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isStorageFaultCode, StorageWriteError } from '../stores/storage-fault.js';
import { PRIVATE_FILE_MODE } from '../stores/private-folder.js';
import { encodeJournalLine } from './journal-line.js';


export interface JournalFileOptions {
  /** Milliseconds between a first queued entry and the write of its batch. */
  readonly commitIntervalMs: number;
  /** Called when a batch could not be written (it is kept and retried). */
  readonly onWriteError?: (error: unknown) => void;
}

interface FlushWaiter {
  readonly sequence: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export class JournalFile {
  #handle: fs.FileHandle;
  #length: number;
  #lineCount: number;
  #queued: unknown[] = [];
  #queuedSequence = 0;
  #durableSequence = 0;
  #waiters: FlushWaiter[] = [];
  #timer: NodeJS.Timeout | undefined;
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(
    readonly filePath: string,
    handle: fs.FileHandle,
    length: number,
    lineCount: number,
    private readonly options: JournalFileOptions,
  ) {
    this.#handle = handle;
    this.#length = length;
    this.#lineCount = lineCount;
  }

  /**
   * Opens (creating when missing) a journal for appending at `validLength`: bytes after it (a torn
   * last line) are cut off first, so the next line never merges with a fragment.
   */
  static async open(filePath: string, validLength: number, lineCount: number, options: JournalFileOptions): Promise<JournalFile> {
    const handle = await fs.open(filePath, 'a+', PRIVATE_FILE_MODE);
    // Files made before state was private: they hold chat text, so only the user may read them.
    await handle.chmod(PRIVATE_FILE_MODE).catch(() => undefined);
    const { size } = await handle.stat();
    if (size > validLength) await handle.truncate(validLength);
    return new JournalFile(filePath, handle, Math.min(size, validLength), lineCount, options);
  }

  /** Bytes written and durable or being written. */
  get length(): number {
    return this.#length;
  }

  /** Lines in the file plus lines queued. */
  get lineCount(): number {
    return this.#lineCount + this.#queued.length;
  }

  /** Queues one entry (serialised later, off the caller's path). */
  append(entry: unknown): void {
    if (this.#closed) throw new Error(`Journal ${this.filePath} is closed: cannot append. Open a new outbox.`);
    this.#queued.push(entry);
    this.#queuedSequence++;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      void this.#schedule(() => this.#commit());
    }, this.options.commitIntervalMs);
  }

  /** Resolves when every entry queued so far is written and fsynced. */
  flush(): Promise<void> {
    if (this.#durableSequence >= this.#queuedSequence) return Promise.resolve();
    if (this.#closed) return Promise.reject(new Error(`Journal ${this.filePath} was closed with entries the disk refused; they were not written. Open a new outbox.`));
    const promise = new Promise<void>((resolve, reject) => {
      this.#waiters.push({ sequence: this.#queuedSequence, resolve, reject });
    });
    this.#clearTimer();
    void this.#schedule(() => this.#commit());
    return promise;
  }

  /**
   * Replaces the whole file by `snapshot()` (called once the rewrite starts, so it sees every
   * entry queued until then, and those entries are then discarded): temp file, fsync, rename.
   * Hand-rolled rather than write-file-atomic because `beforeReplace` must run between the fsync
   * and the rename (compaction moves ledger keys out only once the new journal is durable), and
   * because the temp name (`.compacting`) is what adoption sweeps after a crash.
   */
  rewrite(snapshot: () => readonly unknown[], beforeReplace?: () => Promise<void>): Promise<void> {
    return this.#schedule(async () => {
      const entries = snapshot();
      const coveredSequence = this.#queuedSequence;
      const discarded = this.#queued;
      this.#queued = [];
      this.#clearTimer();
      const text = entries.map((entry) => encodeJournalLine(entry)).join('');
      const temporaryPath = `${this.filePath}.${process.pid}.compacting`;
      try {
        const temporary = await fs.open(temporaryPath, 'w', PRIVATE_FILE_MODE);
        try {
          await temporary.writeFile(text, 'utf8');
          await temporary.sync();
        } finally {
          await temporary.close();
        }
        await beforeReplace?.();
        await fs.rename(temporaryPath, this.filePath);
      } catch (error) {
        // The old file stays valid; the entries the snapshot was to cover go back in the queue.
        await fs.rm(temporaryPath, { force: true }).catch(() => undefined);
        this.#queued = [...discarded, ...this.#queued];
        if (this.#queued.length > 0) {
          this.#timer ??= setTimeout(() => {
            this.#timer = undefined;
            void this.#schedule(() => this.#commit());
          }, this.options.commitIntervalMs);
        }
        throw error;
      }
      await syncDirectory(path.dirname(this.filePath)).catch(() => undefined);
      const previous = this.#handle;
      this.#handle = await fs.open(this.filePath, 'a+', PRIVATE_FILE_MODE);
      await previous.close();
      this.#length = Buffer.byteLength(text, 'utf8');
      this.#lineCount = entries.length;
      this.#markDurable(coveredSequence);
    });
  }

  /**
   * Flushes, then closes the file whatever the flush did: a disk that refuses the last batch must
   * not keep the file (and the caller's lock) open. Resolves with the flush's error when entries
   * could not be written (they are discarded), else `undefined`. Later appends throw.
   */
  async close(): Promise<unknown> {
    if (this.#closed) return undefined;
    const unwritten = await this.flush().then(
      () => undefined,
      (error: unknown) => error,
    );
    this.#closed = true;
    this.#clearTimer();
    this.#queued = [];
    this.#rejectWaiters(Number.POSITIVE_INFINITY, unwritten ?? new Error('closed'));
    await this.#schedule(() => this.#handle.close()).catch(() => undefined);
    return unwritten;
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(operation: () => Promise<void>): Promise<void> {
    const next = this.#chain.then(operation);
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #commit(): Promise<void> {
    if (this.#queued.length === 0) return;
    const batch = this.#queued;
    const coveredSequence = this.#queuedSequence;
    this.#queued = [];
    const text = batch.map((entry) => encodeJournalLine(entry)).join('');
    const bytes = Buffer.byteLength(text, 'utf8');
    try {
      await this.#handle.write(text, null, 'utf8');
      await this.#handle.datasync();
    } catch (error) {
      // Cut back any partial write so the retried batch starts on a line boundary, and keep the
      // batch (ahead of newer entries) for the next attempt.
      await this.#handle.truncate(this.#length).catch(() => undefined);
      this.#queued = [...batch, ...this.#queued];
      this.#rejectWaiters(coveredSequence, error);
      this.options.onWriteError?.(error);
      if (!this.#closed) {
        this.#timer ??= setTimeout(() => {
          this.#timer = undefined;
          void this.#schedule(() => this.#commit());
        }, Math.max(this.options.commitIntervalMs, 250));
      }
      return;
    }
    this.#length += bytes;
    this.#lineCount += batch.length;
    this.#markDurable(coveredSequence);
  }

  #markDurable(sequence: number): void {
    this.#durableSequence = Math.max(this.#durableSequence, sequence);
    const remaining: FlushWaiter[] = [];
    for (const waiter of this.#waiters) {
      if (waiter.sequence <= this.#durableSequence) waiter.resolve();
      else remaining.push(waiter);
    }
    this.#waiters = remaining;
  }

  #rejectWaiters(sequence: number, error: unknown): void {
    const remaining: FlushWaiter[] = [];
    for (const waiter of this.#waiters) {
      if (waiter.sequence <= sequence) {
        waiter.reject(writeFailure(this.filePath, error));
      } else remaining.push(waiter);
    }
    this.#waiters = remaining;
  }
}

/** A refused write (full disk, read-only, permissions) keeps its code and names the journal. */
function writeFailure(filePath: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (isStorageFaultCode(code)) return new StorageWriteError(code, filePath, error);
  return new Error(`Writing the outbox journal ${filePath} failed (${describe(error)}); the batch is kept and retried. Check free disk space and permissions.`, { cause: error });
}

function describe(error: unknown): string {
  return error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
}

/** Makes a rename durable (POSIX). Windows cannot open a directory; its renames are journaled by NTFS. */
export async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
