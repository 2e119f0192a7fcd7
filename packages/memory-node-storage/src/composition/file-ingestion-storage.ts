// Ingestion's durable storage: a FileOutbox (with its own delivery ledger) in the host's folder,
// opened when ingestion first needs it — never at composition, so nothing touches the disk while
// memory is off. With `inMemoryFallback`, a folder that cannot be opened gives in-memory storage
// instead, said once in the log: chat goes on, queued messages just do not survive a reload.
import {
  errorClassOf,
  InMemoryDeliveryLedger,
  InMemoryOutbox,
  type Clock,
  type IngestionStorage,
  type IngestionStore,
  type Logger,
  type OutboxLimits,
} from '@graphiti-memory/memory-core';
import { FileDigestSegmentStore } from '../digest/file-digest-segment-store.js';
import { FileOutbox, type FileOutboxOptions } from '../outbox/file-outbox.js';

/** Where the outbox lies, decided when it is first opened (the extension: the endpoint in force then). */
export type OutboxLocation = () => Promise<FileOutboxOptions | undefined>;

export interface FileIngestionStorageOptions {
  /** The durable outbox; `undefined` when the host has no folder for it (then only the fallback can open). */
  readonly outbox: FileOutboxOptions | OutboxLocation | undefined;
  /** Use in-memory storage (with one warning) when the durable outbox cannot be opened, instead of failing. */
  readonly inMemoryFallback?: boolean;
  readonly logger?: Logger;
  /** The settings: `maxQueueSize` follows them when the outbox options do not fix it. */
  readonly limits?: OutboxLimits;
  readonly clock?: Pick<Clock, 'now'>;
}

/** Queue bound of the fallback when no settings are bound (FileOutbox's own default). */
const DEFAULT_LIMITS: OutboxLimits = { current: () => ({ maxQueueSize: 10_000 }) };

export class FileIngestionStorage implements IngestionStorage {
  #opening: Promise<IngestionStore> | undefined;
  #store: IngestionStore | undefined;

  constructor(private readonly options: FileIngestionStorageOptions) {}

  open(): Promise<IngestionStore> {
    // A failed open is not remembered: the next need tries again.
    this.#opening ??= this.#open().then(
      (store) => (this.#store = store),
      (error: unknown) => {
        this.#opening = undefined;
        throw error;
      },
    );
    return this.#opening;
  }

  current(): IngestionStore | undefined {
    return this.#store;
  }

  /** The durable outbox itself (recovery, stats, adoption); rejects when storage fell back to memory. */
  async fileOutbox(): Promise<FileOutbox> {
    const { outbox } = await this.open();
    if (!(outbox instanceof FileOutbox)) throw new Error('the durable outbox could not be opened; ingestion uses in-memory storage (see the log)');
    return outbox;
  }

  async close(): Promise<void> {
    const store = await this.#opening?.catch(() => undefined);
    await store?.outbox.close();
  }

  async #open(): Promise<IngestionStore> {
    const { inMemoryFallback, logger, limits } = this.options;
    try {
      const outbox = typeof this.options.outbox === 'function' ? await this.options.outbox() : this.options.outbox;
      if (outbox === undefined) throw new Error('no folder was given for the durable outbox');
      const fileOutbox = await FileOutbox.open({
        ...(logger === undefined ? {} : { logger }),
        ...(limits === undefined ? {} : { maxQueueSize: () => limits.current().maxQueueSize }),
        ...outbox,
      });
      // Open digest segments live beside the journals: the same folder, the same owner-only files.
      return { outbox: fileOutbox, ledger: fileOutbox.deliveryLedger, segments: new FileDigestSegmentStore(outbox.directory, logger) };
    } catch (error) {
      if (inMemoryFallback !== true) throw error;
      logger?.warn('durable outbox unavailable; queued messages will not survive a reload', {
        errorClass: errorClassOf(error),
      });
      return { outbox: new InMemoryOutbox(limits ?? DEFAULT_LIMITS, this.options.clock ?? Date), ledger: new InMemoryDeliveryLedger() };
    }
  }
}
