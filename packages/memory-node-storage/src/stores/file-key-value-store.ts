// A KeyValueStore in one JSON file, rewritten atomically (write-file-atomic: temp file, fsync,
// rename) on each change, so a crash leaves either the old or the new file, never half of one.
// Writes are serialised and coalesced: changes made while a write runs go out in the next one.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { KeyValueStore, Logger } from '@graphiti-memory/memory-core';
import writeFileAtomic from 'write-file-atomic';
import { makePrivateFolder, PRIVATE_FILE_MODE } from './private-folder.js';

export interface FileKeyValueStoreOptions {
  readonly logger?: Logger;
}

/** What opening found: set when the file was unreadable and replaced by an empty store. */
export interface StoreRecovery {
  /** The damaged file's path. */
  readonly corruptFile: string;
  /** Where its bytes were kept for inspection (`<file>.corrupt`). */
  readonly keptAs: string;
  readonly reason: string;
}

export class FileKeyValueStore implements KeyValueStore {
  readonly #values: Map<string, unknown>;
  #writing: Promise<void> | undefined;
  #dirty = false;
  #waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];

  private constructor(
    readonly filePath: string,
    values: Map<string, unknown>,
    private readonly recoveryReport: StoreRecovery | undefined,
  ) {
    this.#values = values;
  }

  /**
   * Opens the store at `filePath` (missing: empty). A file that is not a JSON object is reported
   * (logged with its path, and by `recovery()`), kept as `<file>.corrupt` and replaced.
   */
  static async open(filePath: string, options: FileKeyValueStoreOptions = {}): Promise<FileKeyValueStore> {
    const resolved = path.resolve(filePath);
    await makePrivateFolder(path.dirname(resolved));
    let text: string | undefined;
    try {
      text = await fs.readFile(resolved, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text === undefined) return new FileKeyValueStore(resolved, new Map(), undefined);
    const parsed = parseObject(text);
    if (parsed.ok) return new FileKeyValueStore(resolved, new Map(Object.entries(parsed.value)), undefined);
    const keptAs = `${resolved}.corrupt`;
    await fs.rename(resolved, keptAs);
    options.logger?.warn('state file was corrupt; kept a copy and started a fresh one', { file: resolved, keptAs, reason: parsed.reason });
    const store = new FileKeyValueStore(resolved, new Map(), { corruptFile: resolved, keptAs, reason: parsed.reason });
    await store.#persist();
    return store;
  }

  recovery(): StoreRecovery | undefined {
    return this.recoveryReport;
  }

  get<T>(key: string): T | undefined {
    return this.#values.get(key) as T | undefined;
  }

  keys(): string[] {
    return [...this.#values.keys()];
  }

  set(key: string, value: unknown): Promise<void> {
    if (value === undefined) return this.delete(key);
    // A JSON copy: later changes to the caller's object do not leak in, and what `get` returns is what a restart reads.
    this.#values.set(key, JSON.parse(JSON.stringify(value)) as unknown);
    return this.#persist();
  }

  delete(key: string): Promise<void> {
    if (!this.#values.delete(key)) return Promise.resolve();
    return this.#persist();
  }

  /** Resolves when every change so far is on disk. */
  flush(): Promise<void> {
    return this.#writing === undefined && !this.#dirty ? Promise.resolve() : this.#persist();
  }

  #persist(): Promise<void> {
    const promise = new Promise<void>((resolve, reject) => this.#waiters.push({ resolve, reject }));
    this.#dirty = true;
    this.#writing ??= this.#writeLoop();
    return promise;
  }

  async #writeLoop(): Promise<void> {
    while (this.#dirty) {
      this.#dirty = false;
      const waiters = this.#waiters;
      this.#waiters = [];
      const text = `${JSON.stringify(Object.fromEntries(this.#values), null, 2)}\n`;
      try {
        // Private: the stores hold consent, keys of the user scope and session marks.
        await writeFileAtomic(this.filePath, text, { fsync: true, mode: PRIVATE_FILE_MODE });
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        const failure = new Error(`Writing the state file ${this.filePath} failed (${(error as NodeJS.ErrnoException).code ?? String(error)}). Check free disk space and permissions.`);
        for (const waiter of waiters) waiter.reject(failure);
      }
    }
    this.#writing = undefined;
  }
}

type ParsedObject = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

function parseObject(text: string): ParsedObject {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { ok: true, value: value as Record<string, unknown> };
    return { ok: false, reason: 'not a JSON object' };
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
}
