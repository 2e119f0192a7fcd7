// memory-node-storage's own inversify ContainerModule: the durable stores, bound to memory-core's
// port tokens, opened on first (async) resolution. Apps load it next to `createMemoryModule()` and
// resolve with `getAsync` (or await `FileOutbox` first); they close the outbox when they stop.
import { ConsentStore, DeliveryLedger, GlobalStore, Outbox, WorkspaceStore, type Logger } from '@graphiti-memory/memory-core';
import { ContainerModule } from 'inversify';
import { FileOutbox, type FileOutboxOptions } from '../outbox/file-outbox.js';
import { FileConsentStore } from '../stores/file-consent-store.js';
import { FileKeyValueStore } from '../stores/file-key-value-store.js';

export interface NodeStorageModuleOptions {
  /** The durable outbox (and its delivery ledger). */
  readonly outbox: FileOutboxOptions;
  /** File of the GlobalStore (user-scope key); not bound when omitted. */
  readonly globalStoreFile?: string;
  /** File of the WorkspaceStore (consent, ownership marks); with it, ConsentStore is bound too. */
  readonly workspaceStoreFile?: string;
  readonly logger?: Logger;
}

/**
 * Binds `FileOutbox` (the opened outbox, for stats, recovery and close), `Outbox` and
 * `DeliveryLedger` (the outbox's own ledger: one ledger, checked under the outbox's lock), and
 * when files are given `GlobalStore`, `WorkspaceStore` and `ConsentStore`. All are singletons.
 */
export function createNodeStorageModule(options: NodeStorageModuleOptions): ContainerModule {
  const logger = options.logger;
  return new ContainerModule(({ bind }) => {
    bind(FileOutbox)
      .toResolvedValue(() => FileOutbox.open({ ...(logger === undefined ? {} : { logger }), ...options.outbox }))
      .inSingletonScope();
    bind(Outbox).toService(FileOutbox);
    bind(DeliveryLedger)
      .toResolvedValue((outbox: FileOutbox) => outbox.deliveryLedger, [FileOutbox])
      .inSingletonScope();
    const { globalStoreFile, workspaceStoreFile } = options;
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
