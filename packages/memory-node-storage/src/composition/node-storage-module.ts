// memory-node-storage's own inversify ContainerModule: ingestion's durable storage and the file
// stores, bound to memory-core's port tokens. Binding opens nothing: ingestion opens its storage on
// first need, the stores open on first (async) resolution. Both apps load it next to
// `createMemoryModule()`; ingestion closes the storage it opened when it is disposed.
import {
  Clock,
  ConsentStore,
  GlobalStore,
  IngestionStorage,
  Logger,
  MemoryConfiguration,
  WorkspaceStore,
  type MemorySettings,
} from '@graphiti-memory/memory-core';
import { ContainerModule } from 'inversify';
import { FileOutbox, type FileOutboxOptions } from '../outbox/file-outbox.js';
import { FileConsentStore } from '../stores/file-consent-store.js';
import { FileKeyValueStore } from '../stores/file-key-value-store.js';
import { FileIngestionStorage } from './file-ingestion-storage.js';

export interface NodeStorageModuleOptions {
  /**
   * The durable outbox (and its delivery ledger); omitted: none (only the in-memory fallback can open).
   * A function decides the folder from the settings when ingestion first opens its storage.
   */
  readonly outbox?: FileOutboxOptions | ((settings: MemorySettings) => Promise<FileOutboxOptions | undefined>);
  /** Use in-memory storage, with one warning, when the outbox cannot be opened (the extension: chat goes on). */
  readonly inMemoryFallback?: boolean;
  /** File of the GlobalStore (user-scope key); not bound when omitted. */
  readonly globalStoreFile?: string;
  /** File of the WorkspaceStore (consent, ownership marks); with it, ConsentStore is bound too. */
  readonly workspaceStoreFile?: string;
  /** Defaults to the container's Logger when one is bound. */
  readonly logger?: Logger;
}

/**
 * Binds `IngestionStorage` (a `FileIngestionStorage`: the FileOutbox and its own delivery ledger,
 * one ledger checked under the outbox's lock; `maxQueueSize` follows the settings unless given),
 * `FileOutbox` (the opened outbox, for recovery, stats and adoption; only with `outbox`), and when
 * files are given `GlobalStore`, `WorkspaceStore` and `ConsentStore`. All are singletons.
 */
export function createNodeStorageModule(options: NodeStorageModuleOptions): ContainerModule {
  const { outbox, globalStoreFile, workspaceStoreFile } = options;
  return new ContainerModule(({ bind }) => {
    bind(FileIngestionStorage)
      .toResolvedValue(
        (logger: Logger | undefined, configuration: MemoryConfiguration | undefined, clock: Clock | undefined) => {
          const log = options.logger ?? logger;
          return new FileIngestionStorage({
            outbox: typeof outbox === 'function' ? () => (configuration === undefined ? Promise.resolve(undefined) : outbox(configuration.current())) : outbox,
            ...(options.inMemoryFallback === undefined ? {} : { inMemoryFallback: options.inMemoryFallback }),
            ...(log === undefined ? {} : { logger: log }),
            ...(configuration === undefined ? {} : { limits: configuration }),
            ...(clock === undefined ? {} : { clock }),
          });
        },
        [
          { serviceIdentifier: Logger, optional: true },
          { serviceIdentifier: MemoryConfiguration, optional: true },
          { serviceIdentifier: Clock, optional: true },
        ],
      )
      .inSingletonScope();
    bind(IngestionStorage).toService(FileIngestionStorage);
    if (outbox !== undefined) {
      bind(FileOutbox)
        .toResolvedValue((storage: FileIngestionStorage) => storage.fileOutbox(), [FileIngestionStorage])
        .inSingletonScope();
    }
    const logger = options.logger;
    if (globalStoreFile !== undefined) {
      bind(GlobalStore)
        .toResolvedValue(() => FileKeyValueStore.open(globalStoreFile, logger === undefined ? {} : { logger }))
        .inSingletonScope();
    }
    if (workspaceStoreFile !== undefined) {
      bind(WorkspaceStore)
        .toResolvedValue(() => FileKeyValueStore.open(workspaceStoreFile, logger === undefined ? {} : { logger }))
        .inSingletonScope();
      bind(ConsentStore)
        .toResolvedValue((store: FileKeyValueStore) => new FileConsentStore(store), [WorkspaceStore])
        .inSingletonScope();
    }
  });
}
