// Watches a folder of session transcripts and hands each session's new turns over once the
// session has gone quiet. Append-only formats (Claude Code, plain JSONL) are read incrementally
// from the last byte offset, complete lines only; VS Code's chat session logs (rewritten or
// compacted by VS Code) are re-parsed whole and filtered by the turn ids already handed over.
// The offset is persisted only after `onSessionIdle` resolved, so a crash re-delivers (turn ids
// are stable, and the delivery ledger drops what was already sent) but never skips. A file of a
// format version the parser does not know is skipped with one log line. Nothing throws into the
// host: timer-driven reads and hand-overs log their failures instead of rejecting.
import { promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import {
  createTranscriptReader,
  detectTranscriptFormat,
  parseTranscript,
  type ChatTurn,
  type KeyValueStore,
  type Logger,
  type TranscriptFormat,
  type TranscriptOptions,
  type TranscriptReader,
} from '@graphiti-memory/memory-core';
import { watch, type FSWatcher } from 'chokidar';
import { checkPathUnderRoot, type PathRefusal } from './path-guard.js';

export interface SessionIdleEvent {
  /** The transcript's real path. */
  readonly path: string;
  readonly sessionId: string;
  readonly format: TranscriptFormat;
  /** Turns not handed over before, in file order. */
  readonly newTurns: readonly ChatTurn[];
  /** Older turns of a session met for the first time, left out by `backfillTurns`. */
  readonly skippedTurns?: number;
  /** Complete lines read since the last hand-over. */
  readonly newLines: number;
}

export interface TranscriptWatcherOptions {
  readonly root: string;
  /** Where offsets persist (a FileKeyValueStore, a VS Code Memento). */
  readonly offsets: KeyValueStore;
  /** Receives a session's new turns once it was quiet for `idleMs`; the offset advances when it resolves. */
  readonly onSessionIdle: (event: SessionIdleEvent) => void | Promise<void>;
  /** Quiet time that ends a burst of writing. Default 5 minutes. */
  readonly idleMs?: number;
  /** Changes closer than this are read together. Default 250 ms. */
  readonly debounceMs?: number;
  /** Default `auto`: by folder name, then by content. */
  readonly format?: TranscriptFormat | 'auto';
  readonly transcriptOptions?: TranscriptOptions;
  /** Files without a stored offset when watching starts: `read` them (default) or `skip` their current content. */
  readonly existingFiles?: 'read' | 'skip';
  /**
   * A session met for the first time (a file without a stored offset that exists when watching
   * starts, or one given to `processFile`/`processAll`) hands over only its newest this many turns;
   * the older ones count as handed over. Unset: every turn (the setting `capture.backfillTurns`).
   */
  readonly backfillTurns?: number;
  /** Poll instead of native events (network drives, some containers). */
  readonly usePolling?: boolean;
  readonly logger?: Logger;
}

export type TranscriptFileResult =
  | { readonly ok: true; readonly deliveredTurns: number }
  | { readonly ok: false; readonly reason: PathRefusal | 'not-a-transcript' | 'unknown-format' | 'delivery-failed' };

interface StoredOffset {
  readonly offset: number;
  readonly emitted?: readonly string[];
}

interface FileState {
  readonly realPath: string;
  format: TranscriptFormat | undefined;
  committedOffset: number;
  readOffset: number;
  reader: TranscriptReader | undefined;
  heldTurns: ChatTurn[];
  heldLines: number;
  emitted: string[];
  /** Set until the first hand-over of a session met for the first time: its backfill bound. */
  backfillLimit: number | undefined;
  lastActivity: number;
  /** The file's format version is unknown to the parser; logged once. */
  unsupportedLogged: boolean;
  debounceTimer: NodeJS.Timeout | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  queue: Promise<unknown>;
}

const OFFSET_KEY_PREFIX = 'graphiti-memory.transcript-offset:';
const TRANSCRIPT_EXTENSION = /\.jsonl?$/;
const MAX_READ_BYTES = 8 * 1024 * 1024;
const MAX_REMEMBERED_IDS = 5_000;

export class TranscriptWatcher {
  readonly #files = new Map<string, FileState>();
  #watcher: FSWatcher | undefined;
  #closed = false;
  #counters = { refused: 0, deliveredTurns: 0, failedDeliveries: 0 };

  private constructor(private readonly options: TranscriptWatcherOptions) {}

  /** Starts watching; resolves once the existing files were seen. */
  static async start(options: TranscriptWatcherOptions): Promise<TranscriptWatcher> {
    const watcher = new TranscriptWatcher(options);
    await watcher.#watch();
    return watcher;
  }

  /**
   * Reads `filePath` now and hands its new turns over without waiting for quiet (imports, tests).
   * Refused paths (outside the root, `..`, symlink escapes) return a reason; nothing throws.
   */
  async processFile(filePath: string): Promise<TranscriptFileResult> {
    const state = await this.#stateFor(filePath, 'read', true);
    if (!('realPath' in state)) return state;
    return this.#serial(state, () => this.#deliver(state));
  }

  /**
   * Reads every transcript under the root now and hands its new turns over without waiting for
   * quiet (a manual refresh, tests); resolves with the number of turns handed over. Never rejects.
   */
  async processAll(): Promise<number> {
    if (this.#closed) return 0;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(this.options.root, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') this.options.logger?.warn('transcript folder could not be listed', { code: errorCode(error) });
      return 0;
    }
    const files = entries
      .filter((entry) => entry.isFile() && TRANSCRIPT_EXTENSION.test(entry.name))
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();
    let delivered = 0;
    for (const file of files) {
      const result = await this.processFile(file).catch(this.#warnUnreadable);
      if (result?.ok === true) delivered += result.deliveredTurns;
    }
    return delivered;
  }

  /** A file gone or unreadable meanwhile (deleted, permissions): logged, never thrown into the host. */
  readonly #warnUnreadable = (error: unknown): undefined => {
    this.options.logger?.warn('transcript watcher could not read a file', { code: errorCode(error) });
    return undefined;
  };

  stats(): { readonly files: number; readonly refused: number; readonly deliveredTurns: number; readonly failedDeliveries: number } {
    return { files: this.#files.size, ...this.#counters };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const state of this.#files.values()) {
      clearTimeout(state.debounceTimer);
      clearTimeout(state.idleTimer);
    }
    await this.#watcher?.close();
    await Promise.all([...this.#files.values()].map((state) => state.queue));
  }

  async #watch(): Promise<void> {
    const root = path.resolve(this.options.root);
    await fs.mkdir(root, { recursive: true });
    const watcher = watch(root, {
      ignoreInitial: false,
      followSymlinks: false,
      usePolling: this.options.usePolling ?? false,
      interval: 100,
      ignored: (candidate, stats) => stats?.isFile() === true && !TRANSCRIPT_EXTENSION.test(candidate),
    });
    this.#watcher = watcher;
    let initialScan = true;
    const initialFiles: Promise<void>[] = [];
    const onFile = (filePath: string, initial: boolean): void => {
      const handled = this.#onActivity(filePath, initial).catch(this.#warnUnreadable);
      if (initial) initialFiles.push(handled);
    };
    watcher.on('add', (filePath) => onFile(filePath, initialScan));
    watcher.on('change', (filePath) => onFile(filePath, false));
    watcher.on('error', (error) => this.options.logger?.warn('transcript watcher error', { code: errorCode(error) }));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    initialScan = false;
    // Existing files are registered (and, with `existingFiles: 'skip'`, their offsets set) before start resolves.
    await Promise.all(initialFiles);
  }

  async #onActivity(filePath: string, initial: boolean): Promise<void> {
    if (this.#closed || !TRANSCRIPT_EXTENSION.test(filePath)) return;
    const state = await this.#stateFor(filePath, initial ? (this.options.existingFiles ?? 'read') : 'read', initial);
    if (!('realPath' in state)) return;
    const now = Date.now();
    if (initial) {
      const stat = await fs.stat(state.realPath).catch(() => undefined);
      state.lastActivity = Math.min(now, stat?.mtimeMs ?? now);
    } else state.lastActivity = now;
    clearTimeout(state.debounceTimer);
    state.debounceTimer = setTimeout(() => {
      state.debounceTimer = undefined;
      void this.#serial(state, () => this.#readNew(state))
        .catch(this.#warnUnreadable)
        .finally(() => this.#armIdle(state));
    }, this.options.debounceMs ?? 250);
  }

  #armIdle(state: FileState): void {
    if (this.#closed) return;
    clearTimeout(state.idleTimer);
    const idleMs = this.options.idleMs ?? 5 * 60_000;
    const wait = Math.max(0, state.lastActivity + idleMs - Date.now());
    state.idleTimer = setTimeout(() => {
      state.idleTimer = undefined;
      if (Date.now() - state.lastActivity < idleMs) return this.#armIdle(state);
      void this.#serial(state, () => this.#deliver(state)).then(
        (result) => {
          // A failed hand-over keeps its turns and is retried after another quiet period.
          if (!result.ok && result.reason === 'delivery-failed') {
            state.lastActivity = Date.now();
            this.#armIdle(state);
          }
        },
        // Gone or unreadable meanwhile (deleted, permissions): the next change starts over.
        this.#warnUnreadable,
      );
    }, wait);
    state.idleTimer.unref();
  }

  async #stateFor(filePath: string, existing: 'read' | 'skip', existedBefore = false): Promise<FileState | { ok: false; reason: PathRefusal | 'not-a-transcript' }> {
    const check = await checkPathUnderRoot(this.options.root, filePath);
    if (!check.ok) {
      this.#counters.refused++;
      this.options.logger?.warn('transcript path refused', { reason: check.reason });
      return check;
    }
    if (!TRANSCRIPT_EXTENSION.test(check.realPath)) return { ok: false, reason: 'not-a-transcript' };
    const known = this.#files.get(check.realPath);
    if (known !== undefined) return known;
    const stored = this.options.offsets.get<StoredOffset>(OFFSET_KEY_PREFIX + check.realPath);
    const state: FileState = {
      realPath: check.realPath,
      format: undefined,
      committedOffset: stored?.offset ?? 0,
      readOffset: stored?.offset ?? 0,
      reader: undefined,
      heldTurns: [],
      heldLines: 0,
      emitted: [...(stored?.emitted ?? [])],
      // A session created while watching is read whole: it may gather many turns before it is quiet.
      backfillLimit: stored === undefined && existedBefore ? backfillLimit(this.options.backfillTurns) : undefined,
      lastActivity: Date.now(),
      unsupportedLogged: false,
      debounceTimer: undefined,
      idleTimer: undefined,
      queue: Promise.resolve(),
    };
    this.#files.set(check.realPath, state);
    if (stored === undefined && existing === 'skip') await this.#serial(state, () => this.#skipExisting(state));
    return state;
  }

  #serial<T>(state: FileState, operation: () => Promise<T>): Promise<T> {
    const next = state.queue.then(operation);
    state.queue = next.catch(() => undefined);
    return next;
  }

  /** Marks what a file holds now as handed over, without reading it into turns. */
  async #skipExisting(state: FileState): Promise<void> {
    const content = await fs.readFile(state.realPath);
    const format = await this.#detectFormat(state);
    if (format === 'vscode-chat') {
      const parsed = parseTranscript(content.toString('utf8'), 'vscode-chat', this.#parseOptions(state));
      state.emitted = (parsed?.turns ?? []).map((turn) => turn.id).slice(-MAX_REMEMBERED_IDS);
    }
    state.committedOffset = state.readOffset = content.lastIndexOf(0x0a) + 1;
    await this.#persist(state);
  }

  async #detectFormat(state: FileState): Promise<TranscriptFormat | undefined> {
    if (state.format !== undefined) return state.format;
    const configured = this.options.format ?? 'auto';
    if (configured !== 'auto') return (state.format = configured);
    if (state.realPath.endsWith('.json')) return (state.format = 'vscode-chat');
    const handle = await fs.open(state.realPath, 'r');
    try {
      const buffer = Buffer.alloc(64 * 1024);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      state.format = detectTranscriptFormat(buffer.toString('utf8', 0, bytesRead), state.realPath);
    } finally {
      await handle.close();
    }
    return state.format;
  }

  /** Reads complete lines appended since `readOffset` into the file's reader (append-only formats). */
  async #readNew(state: FileState): Promise<void> {
    const format = await this.#detectFormat(state);
    if (format === undefined || format === 'vscode-chat') return;
    const handle = await fs.open(state.realPath, 'r');
    try {
      const { size } = await handle.stat();
      if (size < state.readOffset) {
        // Rewritten or truncated: start over; stable turn ids let the ledger drop repeats.
        this.options.logger?.info('transcript shrank; reading it again from the start', {});
        state.readOffset = 0;
        state.reader = undefined;
        state.heldTurns = [];
        state.heldLines = 0;
      }
      // The file name as default session id: a reader started mid-file (after a restart) names turns as before.
      state.reader ??= createTranscriptReader(format, this.#parseOptions(state));
      while (state.readOffset < size) {
        const length = Math.min(size - state.readOffset, MAX_READ_BYTES);
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, state.readOffset);
        const end = buffer.lastIndexOf(0x0a, bytesRead - 1) + 1;
        if (end === 0) break; // Only a partial line: wait until its writer finishes it.
        const text = buffer.toString('utf8', 0, end);
        state.heldTurns.push(...state.reader.push(text));
        state.heldLines += countLines(text);
        state.readOffset += end;
      }
      this.#noteUnsupported(state, state.reader.stats().unsupportedVersion);
    } finally {
      await handle.close();
    }
  }

  async #deliver(state: FileState): Promise<TranscriptFileResult> {
    const format = await this.#detectFormat(state);
    if (format === undefined) return { ok: false, reason: 'unknown-format' };
    let turns: ChatTurn[];
    let lines: number;
    let wholeSize = 0;
    if (format === 'vscode-chat') {
      const content = await fs.readFile(state.realPath);
      wholeSize = content.length;
      const parsed = parseTranscript(content.toString('utf8'), 'vscode-chat', this.#parseOptions(state));
      this.#noteUnsupported(state, parsed?.unsupportedVersion);
      const emitted = new Set(state.emitted);
      turns = (parsed?.turns ?? []).filter((turn) => !emitted.has(turn.id));
      lines = countLines(content.toString('utf8', Math.min(state.committedOffset, content.length)));
    } else {
      await this.#readNew(state);
      turns = [...state.heldTurns, ...(state.reader?.flush() ?? [])];
      state.heldTurns = [];
      lines = state.heldLines;
    }
    const allTurns = turns;
    let skippedTurns = 0;
    if (state.backfillLimit !== undefined && turns.length > state.backfillLimit) {
      skippedTurns = turns.length - state.backfillLimit;
      turns = turns.slice(skippedTurns);
    }
    if (turns.length > 0 || lines > 0) {
      try {
        await this.options.onSessionIdle({
          path: state.realPath,
          sessionId: allTurns[0]?.sessionId ?? sessionIdOf(state.realPath),
          format,
          newTurns: turns,
          newLines: lines,
          ...(skippedTurns > 0 ? { skippedTurns } : {}),
        });
      } catch (error) {
        if (format !== 'vscode-chat') state.heldTurns = allTurns;
        this.#counters.failedDeliveries++;
        this.options.logger?.warn('transcript hand-over failed; will retry', { code: errorCode(error) });
        return { ok: false, reason: 'delivery-failed' };
      }
    }
    this.#counters.deliveredTurns += turns.length;
    state.backfillLimit = undefined;
    if (format === 'vscode-chat') {
      state.emitted = [...state.emitted, ...allTurns.map((turn) => turn.id)].slice(-MAX_REMEMBERED_IDS);
      state.committedOffset = wholeSize;
    } else {
      state.committedOffset = state.readOffset;
      state.heldLines = 0;
    }
    await this.#persist(state);
    return { ok: true, deliveredTurns: turns.length };
  }

  /** The file name is the session id when the transcript names none (VS Code names files by session). */
  #parseOptions(state: FileState): TranscriptOptions {
    return { sessionId: sessionIdOf(state.realPath), ...this.options.transcriptOptions };
  }

  #noteUnsupported(state: FileState, version: number | string | undefined): void {
    if (version === undefined || state.unsupportedLogged) return;
    state.unsupportedLogged = true;
    this.options.logger?.warn('transcript of an unknown format version skipped', { format: state.format, version: String(version).slice(0, 32) });
  }

  #persist(state: FileState): Promise<void> {
    const value: StoredOffset = state.format === 'vscode-chat' ? { offset: state.committedOffset, emitted: state.emitted } : { offset: state.committedOffset };
    return this.options.offsets.set(OFFSET_KEY_PREFIX + state.realPath, value);
  }
}

function sessionIdOf(filePath: string): string {
  return path.basename(filePath).replace(TRANSCRIPT_EXTENSION, '');
}

function countLines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

function errorCode(error: unknown): string {
  return error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.name) : 'unknown';
}

function backfillLimit(turns: number | undefined): number | undefined {
  return turns === undefined || !Number.isFinite(turns) ? undefined : Math.max(0, Math.floor(turns));
}
