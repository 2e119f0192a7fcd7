// Ingestion whose durable storage opens in the background: activation and the chat path never
// wait for the file system. Until the outbox is open, turns are staged here (bounded) and handed
// over in order; if the durable outbox cannot be opened, an in-memory one is used instead.
import { emptyCounters, type ChatTurn, type IngestionStats, type Logger, type OutboxEntry, type QueuedGroups } from '@graphiti-memory/memory-core';
import type { MemoryIngestion } from './memory-services.js';

/** The part of memory-core's IngestionService used here. */
export interface IngestionPipeline {
  enqueue(turn: ChatTurn): void;
  enqueueEntries(entries: readonly OutboxEntry[]): void;
  start(): void;
  /** One delivery pass (tests and shutdown). */
  drain(): Promise<void>;
  stats(): IngestionStats;
  retryDeadLetters(): number;
  dispose(): Promise<void>;
}

/** Opens storage and builds the pipeline on it; `close` releases the storage afterwards. */
export type PipelineFactory = () => Promise<{ readonly pipeline: IngestionPipeline; readonly queued?: QueuedGroups; close(): Promise<void> }>;

type Staged = { readonly turn: ChatTurn } | { readonly entries: readonly OutboxEntry[] };

/** More staged items than this while storage opens means something is wrong: drop the oldest. */
export const MAX_STAGED = 1000;

const EMPTY_COUNTERS: IngestionStats['counters'] = emptyCounters();

export class DeferredIngestion implements MemoryIngestion {
  #pipeline: IngestionPipeline | undefined;
  #close: (() => Promise<void>) | undefined;
  #queued: QueuedGroups | undefined;
  #opening: Promise<void> | undefined;
  #staged: Staged[] = [];
  #disposed = false;

  constructor(
    private readonly factory: PipelineFactory,
    private readonly logger: Logger,
  ) {}

  enqueue(turn: ChatTurn): void {
    if (this.#pipeline) this.#pipeline.enqueue(turn);
    else this.#stage({ turn });
  }

  enqueueEntries(entries: readonly OutboxEntry[]): void {
    if (this.#pipeline) this.#pipeline.enqueueEntries(entries);
    else this.#stage({ entries });
  }

  start(): void {
    if (this.#opening !== undefined || this.#disposed) return;
    this.#opening = this.factory().then(
      ({ pipeline, queued, close }) => {
        if (this.#disposed) {
          void pipeline.dispose().then(close);
          return;
        }
        this.#pipeline = pipeline;
        this.#close = close;
        this.#queued = queued;
        pipeline.start();
        for (const item of this.#staged.splice(0)) {
          if ('turn' in item) pipeline.enqueue(item.turn);
          else pipeline.enqueueEntries(item.entries);
        }
      },
      (error: unknown) => {
        this.logger.error('ingestion could not start', { errorClass: error instanceof Error ? error.name : 'unknown' });
      },
    );
  }

  /** Resolves once storage is open and staged items were handed over (tests, shutdown). */
  async ready(): Promise<IngestionPipeline | undefined> {
    this.start();
    await this.#opening;
    return this.#pipeline;
  }

  /** Drops every queued message of `groupIds` (forget), once storage is open and staged items are in it. */
  async dequeue(groupIds: readonly string[]): Promise<number> {
    await this.ready();
    return (await this.#queued?.dequeue(groupIds)) ?? 0;
  }

  stats(): IngestionStats {
    if (this.#pipeline) return this.#pipeline.stats();
    return {
      state: this.#staged.length > 0 ? 'sending' : 'idle',
      queueDepth: this.#staged.length,
      inFlight: 0,
      sending: 0,
      staged: this.#staged.length,
      waiting: 0,
      deadLetters: 0,
      counters: EMPTY_COUNTERS,
    };
  }

  /** Dead letters live in the outbox: none before it is open. */
  retryDeadLetters(): number {
    return this.#pipeline?.retryDeadLetters() ?? 0;
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    await this.#opening;
    const pipeline = this.#pipeline;
    this.#pipeline = undefined;
    if (pipeline) await pipeline.dispose();
    await this.#close?.();
  }

  #stage(item: Staged): void {
    this.#staged.push(item);
    if (this.#staged.length > MAX_STAGED) {
      this.#staged.shift();
      this.logger.warn('ingestion: dropped a staged item while storage was opening', { staged: this.#staged.length });
    }
    this.start();
  }
}
