// One transcript folder captured through memory-node-storage's TranscriptWatcher (offsets and turn
// ids handed over persist in the given store, so a window reload neither re-ingests nor skips).
// Starting and stopping a watcher is asynchronous, so switches run one after another toward the
// latest wish. A folder that does not exist yet is looked for again later, never created: it
// belongs to VS Code or Claude Code. Never throws into the host.
import { promises as fs } from 'node:fs';
import { errorClassOf, type ChatTurn, type KeyValueStore, type Logger, type TranscriptFilterOption, type TranscriptFormat } from '@graphiti-memory/memory-core';
import { TranscriptWatcher, type SessionIdleEvent } from '@graphiti-memory/memory-node-storage';

export interface TranscriptSource {
  /** Short, content-free name for logs: `vscode-chat`, `claude-code`. */
  readonly name: string;
  readonly folder: string;
  readonly format: TranscriptFormat;
  /** Quiet time after the last write before a session's new turns are read. */
  readonly idleMs: number;
  /** Turns to leave out (the extension's own participant, enqueued already). */
  skip?(turn: ChatTurn): boolean;
}

export interface TranscriptCaptureOptions {
  readonly offsets: KeyValueStore;
  readonly enqueue: (turn: ChatTurn) => void;
  readonly logger: Logger;
  /** Changes closer than this are read together. */
  readonly debounceMs: number;
  /** How often a folder that does not exist yet is looked for. */
  readonly folderCheckMs: number;
  /** Turns of a session met for the first time that are ingested (the newest; `capture.backfillTurns`), read at each start. */
  readonly backfillTurns: () => number;
  /** What of each turn is kept (`graphitiMemory.filter`), read at each start. */
  readonly filter?: () => TranscriptFilterOption;
}

export class TranscriptCapture {
  #wanted = false;
  #watcher: TranscriptWatcher | undefined;
  #switching: Promise<void> = Promise.resolve();
  #folderCheck: NodeJS.Timeout | undefined;
  /** A failed start is logged once, not at every retry. */
  #startFailing = false;

  constructor(
    private readonly source: TranscriptSource,
    private readonly options: TranscriptCaptureOptions,
  ) {}

  /** Switches capture on or off; resolves once the watcher follows (never rejects). */
  set(on: boolean): Promise<void> {
    // The gate's status changes often (queue depth): nothing to do unless the wish changed.
    if (on === this.#wanted) return this.#switching;
    this.#wanted = on;
    return this.#switch();
  }

  /** Reads every transcript now without waiting for quiet; resolves with the turns handed over (0 while off). */
  async scanNow(): Promise<number> {
    // A folder created since the last look is picked up first.
    await this.#switch();
    return (await this.#watcher?.processAll()) ?? 0;
  }

  /**
   * Starts a running capture again, so it reads with the settings in force (a changed filter).
   * Nothing is lost: what was read but not handed over is read again from the stored offsets.
   */
  restart(): Promise<void> {
    if (!this.#wanted) return this.#switching;
    this.#switching = this.#switching
      .then(async () => {
        const watcher = this.#watcher;
        this.#watcher = undefined;
        await watcher?.close();
      })
      .catch((error: unknown) => this.options.logger.warn('capture could not restart', { source: this.source.name, errorClass: errorClassOf(error) }));
    return this.#switch();
  }

  #switch(): Promise<void> {
    this.#switching = this.#switching
      .then(() => this.#apply())
      .catch((error: unknown) => this.options.logger.warn('capture could not switch', { source: this.source.name, errorClass: errorClassOf(error) }));
    return this.#switching;
  }

  async #apply(): Promise<void> {
    clearTimeout(this.#folderCheck);
    this.#folderCheck = undefined;
    if (!this.#wanted) {
      const watcher = this.#watcher;
      if (watcher === undefined) return;
      this.#watcher = undefined;
      await watcher.close();
      this.options.logger.info('capture stopped', { source: this.source.name });
      return;
    }
    if (this.#watcher !== undefined) return;
    if (!(await isFolder(this.source.folder))) {
      this.#lookAgainLater();
      return;
    }
    try {
      this.#watcher = await TranscriptWatcher.start({
        root: this.source.folder,
        offsets: this.options.offsets,
        format: this.source.format,
        idleMs: this.source.idleMs,
        debounceMs: this.options.debounceMs,
        // What the folder holds already is read too, from the stored offsets: capture covers
        // the workspace's earlier chats, and what was written while capture was off.
        existingFiles: 'read',
        // ...but of a session met for the first time, only its newest turns.
        backfillTurns: this.options.backfillTurns(),
        ...(this.options.filter === undefined ? {} : { transcriptOptions: { filter: this.options.filter() } }),
        logger: this.options.logger,
        onSessionIdle: (event) => this.#handOver(event),
      });
      this.#startFailing = false;
      this.options.logger.info('capture started', { source: this.source.name });
    } catch (error) {
      if (!this.#startFailing) this.options.logger.warn('capture could not start; will try again', { source: this.source.name, errorClass: errorClassOf(error) });
      this.#startFailing = true;
      this.#lookAgainLater();
    }
  }

  #lookAgainLater(): void {
    this.#folderCheck = setTimeout(() => void this.#switch(), this.options.folderCheckMs);
    this.#folderCheck.unref();
  }

  /** A throw here keeps the offset where it was, so the watcher hands the turns over again later. */
  #handOver(event: SessionIdleEvent): void {
    let enqueued = 0;
    for (const turn of event.newTurns) {
      if (this.source.skip?.(turn) === true) continue;
      this.options.enqueue(turn);
      enqueued += 1;
    }
    if (enqueued > 0) this.options.logger.info('capture: turns enqueued', { source: this.source.name, turns: enqueued });
  }
}

async function isFolder(folder: string): Promise<boolean> {
  try {
    return (await fs.stat(folder)).isDirectory();
  } catch {
    return false;
  }
}
