// Watches one folder of transcripts (VS Code chat sessions, Claude Code sessions) and enqueues
// each finished turn once. A changed file is parsed whole (VS Code's log must be replayed from the
// start anyway; it is compacted past 1024 entries); turn ids already seen in this process are
// skipped, and ingestion's delivery ledger dedupes across restarts. fs.watch is the fast path; a
// slow poll covers file systems where it misses events. Never throws into the host.
import fs from 'node:fs';
import path from 'node:path';
import type { ChatTurn, Logger, TranscriptParseResult } from '@graphiti-memory/memory-core';

export interface TranscriptSource {
  /** Short, content-free name for logs: `vscode-chat`, `claude-code`. */
  readonly name: string;
  readonly folder: string;
  /** File name endings that hold transcripts: `.jsonl`, `.json`. */
  readonly extensions: readonly string[];
  parse(text: string, file: string): TranscriptParseResult;
  /** Turns to leave out (the extension's own participant, captured already). */
  skip?(turn: ChatTurn): boolean;
}

export interface FolderCaptureTiming {
  readonly debounceMs: number;
  readonly pollMs: number;
}
export const DEFAULT_CAPTURE_TIMING: FolderCaptureTiming = { debounceMs: 750, pollMs: 5000 };

interface FileMark {
  readonly size: number;
  readonly mtimeMs: number;
}

export class FolderCapture {
  #watcher: fs.FSWatcher | undefined;
  #poll: ReturnType<typeof setInterval> | undefined;
  #debounce: ReturnType<typeof setTimeout> | undefined;
  /** Scans run one after another, so a file is never read by two scans at once. */
  #queue: Promise<number> = Promise.resolve(0);
  readonly #marks = new Map<string, FileMark>();
  readonly #seen = new Map<string, Set<string>>();
  readonly #unsupported = new Set<string>();

  constructor(
    private readonly source: TranscriptSource,
    private readonly enqueue: (turn: ChatTurn) => void,
    private readonly logger: Logger,
    private readonly timing: FolderCaptureTiming = DEFAULT_CAPTURE_TIMING,
  ) {}

  start(): void {
    if (this.#poll !== undefined) return;
    this.#poll = setInterval(() => {
      this.#ensureWatcher();
      void this.scan();
    }, this.timing.pollMs);
    this.#poll.unref?.();
    this.#ensureWatcher();
    void this.scan();
    this.logger.info('capture started', { source: this.source.name });
  }

  stop(): void {
    if (this.#poll === undefined) return;
    clearInterval(this.#poll);
    this.#poll = undefined;
    if (this.#debounce !== undefined) clearTimeout(this.#debounce);
    this.#debounce = undefined;
    this.#watcher?.close();
    this.#watcher = undefined;
    this.logger.info('capture stopped', { source: this.source.name });
  }

  get running(): boolean {
    return this.#poll !== undefined;
  }

  /** Reads every changed file now (after a scan in progress); resolves with the number of turns enqueued. */
  scan(): Promise<number> {
    const run = this.#queue.then(() => this.#scanAll());
    this.#queue = run.catch(() => 0);
    return run;
  }

  #ensureWatcher(): void {
    if (this.#watcher !== undefined || !fs.existsSync(this.source.folder)) return;
    try {
      this.#watcher = fs.watch(this.source.folder, () => this.#schedule());
      this.#watcher.on('error', () => {
        this.#watcher?.close();
        this.#watcher = undefined;
      });
    } catch {
      this.#watcher = undefined;
    }
  }

  #schedule(): void {
    if (this.#debounce !== undefined) clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => {
      this.#debounce = undefined;
      void this.scan();
    }, this.timing.debounceMs);
    this.#debounce.unref?.();
  }

  async #scanAll(): Promise<number> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.source.folder);
    } catch {
      return 0; // Not there (yet): no chats saved, or the folder of another layout.
    }
    let enqueued = 0;
    for (const name of names) {
      if (!this.source.extensions.some((extension) => name.endsWith(extension))) continue;
      enqueued += await this.#scanFile(path.join(this.source.folder, name));
    }
    return enqueued;
  }

  async #scanFile(file: string): Promise<number> {
    try {
      const stat = await fs.promises.stat(file);
      const mark = this.#marks.get(file);
      if (mark !== undefined && mark.size === stat.size && mark.mtimeMs === stat.mtimeMs) return 0;
      this.#marks.set(file, { size: stat.size, mtimeMs: stat.mtimeMs });
      const parsed = this.source.parse(await fs.promises.readFile(file, 'utf8'), file);
      if (parsed.unsupportedVersion !== undefined) {
        if (!this.#unsupported.has(file)) {
          this.#unsupported.add(file);
          this.logger.warn('capture: skipped a transcript of an unknown format version', { source: this.source.name, version: String(parsed.unsupportedVersion) });
        }
        return 0;
      }
      let seen = this.#seen.get(file);
      if (seen === undefined) {
        seen = new Set();
        this.#seen.set(file, seen);
      }
      let enqueued = 0;
      for (const turn of parsed.turns) {
        if (seen.has(turn.id)) continue;
        seen.add(turn.id);
        if (this.source.skip?.(turn) === true) continue;
        this.enqueue(turn);
        enqueued += 1;
      }
      if (enqueued > 0) this.logger.info('capture: turns enqueued', { source: this.source.name, turns: enqueued });
      return enqueued;
    } catch (error) {
      this.logger.warn('capture: a transcript could not be read', { source: this.source.name, errorClass: error instanceof Error ? error.name : 'unknown' });
      return 0;
    }
  }
}
