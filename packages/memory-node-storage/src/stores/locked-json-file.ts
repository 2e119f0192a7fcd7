// A small JSON state file several processes (the extension, the harness, hook runs) change: each
// change reads the file under a cross-process lock, applies itself and rewrites the file
// atomically (temp file, fsync, rename) with owner-only permissions, so no process's change is lost
// and a crash leaves the old or the new file.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Logger } from '@graphiti-memory/memory-core';
import writeFileAtomic from 'write-file-atomic';
import { lockWithin } from '../outbox/file-locks.js';
import { inPrivateFolder, PRIVATE_FILE_MODE } from './private-folder.js';

/** Owner read/write only: the files name groups and sessions (and, pending, memory text). */
export { PRIVATE_FILE_MODE };
/**
 * The outbox's locks: a live holder keeps its lock however long it stalls (a takeover by age let
 * two processes rewrite one file from stale copies); a dead holder's lock is taken at once; a lock
 * of an unknown owner goes stale after `staleMs`.
 */
const LOCK_TIMING = { staleMs: 10_000, updateMs: 5_000 };
/** How long an update waits for a live holder before it gives up (nothing written). */
const LOCK_WAIT_MS = 10_000;
/** The stamp of a file that does not exist. */
const MISSING = 'missing';

export interface LockedJsonFileOptions {
  /**
   * Flush each write to the disk before the rename (default). `false` for files that only save
   * work (a cache, a hint): still atomic against a crashed process, but a power loss may lose the
   * last change, and nothing waits for the disk (an fsync on a busy disk can cost a hook tens of ms).
   */
  readonly fsync?: boolean;
  /**
   * A file that is not what `parse` accepts is left as it is and every update refused with a
   * `DamagedStateFileError`, instead of kept as `<file>.corrupt` and replaced by an empty one: for a
   * file whose loss would open something (the memory switches: an "off" must not become "on").
   */
  readonly refuseDamaged?: { readonly whatToDo: string };
}

/** An update refused because the file is damaged (`refuseDamaged`); the message says what to do. */
export class DamagedStateFileError extends Error {
  override readonly name = 'DamagedStateFileError';
  constructor(
    readonly filePath: string,
    whatToDo: string,
  ) {
    super(`The state file ${filePath} is damaged, so it was left as it is and not changed; ${whatToDo}`);
  }
}

export class LockedJsonFile<T> {
  /** The content last read or written, with the stamp of the file it came from. */
  #cached: { readonly stamp: string; readonly value: T } | undefined;

  constructor(
    readonly filePath: string,
    private readonly parse: (raw: unknown) => T,
    private readonly logger?: Logger,
    private readonly options: LockedJsonFileOptions = {},
  ) {}

  /**
   * The current content; a missing file is `parse(undefined)`. Reads need no lock (writes are
   * atomic). While the file is unchanged a read costs a stat: the value is shared between reads
   * then, so callers treat it as read-only.
   */
  async read(): Promise<T> {
    // Stamped before reading: a write landing in between leaves a stamp that no longer matches.
    const stamp = await this.stamp();
    if (this.#cached?.stamp === stamp) return this.#cached.value;
    const text = stamp === MISSING ? undefined : await this.readText();
    let value: T;
    try {
      value = this.parse(text === undefined ? undefined : (JSON.parse(text) as unknown));
    } catch {
      value = this.parse(undefined);
    }
    this.#cached = { stamp, value };
    return value;
  }

  /**
   * Applies `change` to the current content under the lock and writes the result (`undefined`:
   * nothing to write). A file that is not JSON is kept as `<file>.corrupt` and replaced.
   */
  async update<R>(change: (current: T) => { readonly next?: T | undefined; readonly result: R }): Promise<R> {
    // The folder is made when the lock finds it missing, not before every change: a hook's change
    // is a chain of file system round trips, and this saves two of them each time.
    const lock = await inPrivateFolder(path.dirname(this.filePath), () => lockWithin(this.filePath, LOCK_TIMING, LOCK_WAIT_MS));
    try {
      const current = await this.readForUpdate();
      const { next, result } = change(current);
      if (next !== undefined) {
        this.#cached = undefined;
        await writeFileAtomic(this.filePath, `${JSON.stringify(next, null, 2)}\n`, { fsync: this.options.fsync ?? true, mode: PRIVATE_FILE_MODE });
        // Still under the lock: no other writer can have replaced the file since. (Written is
        // written: a stat that fails now only leaves the next read to read the file.)
        const stamp = await this.stamp().catch(() => undefined);
        if (stamp !== undefined) this.#cached = { stamp, value: next };
      }
      return result;
    } catch (error) {
      if (error instanceof DamagedStateFileError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(
        `Updating the state file ${this.filePath} failed${code === undefined ? '' : ` (${code})`}. Check free disk space and permissions.`,
        { cause: error },
      );
    } finally {
      await lock.release().catch(() => undefined);
    }
  }

  private async readForUpdate(): Promise<T> {
    const text = await this.readText();
    if (text === undefined) return this.parse(undefined);
    try {
      return this.parse(JSON.parse(text) as unknown);
    } catch {
      if (this.options.refuseDamaged !== undefined) throw new DamagedStateFileError(this.filePath, this.options.refuseDamaged.whatToDo);
      const keptAs = `${this.filePath}.corrupt`;
      await fs.rename(this.filePath, keptAs);
      this.logger?.warn('state file was corrupt; kept a copy and started a fresh one', { file: this.filePath, keptAs });
      return this.parse(undefined);
    }
  }

  /**
   * Changes whenever the file does: an atomic write replaces it (a new inode), and size and
   * nanosecond mtime tell a rewrite that reused an inode.
   */
  private async stamp(): Promise<string> {
    try {
      const stat = await fs.stat(this.filePath, { bigint: true });
      return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return MISSING;
      throw error;
    }
  }

  /** The file's text, or `undefined` when it does not exist yet. */
  private async readText(): Promise<string | undefined> {
    try {
      return await fs.readFile(this.filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
