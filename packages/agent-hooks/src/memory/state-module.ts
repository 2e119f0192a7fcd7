// The stores of the shared state folder, bound the one way every tool binds them: `openMemory`
// (each harness command, each hook run) and the extension's runtime load these modules. Each store
// opens on first use, in the folder `stateDirectory()` names and (for delivery state) for the
// endpoint the settings name at that moment: nothing touches the disk while memory is off.
import { AuditLog, EpisodeSources, ForgetLedger, GroupRegistry, InstructionImports, LocalTierStore, Logger, LoopStore, MemoryConfiguration, normaliseEndpoint, PendingMemoryStore, type MemorySettings } from '@graphiti-memory/memory-core';
import { createNodeStorageModule, FileInstructionLedger, FileLocalTierStore, FileLoopStore, relocateOutboxJournals, sharedStateFiles, stateLayout, type FileOutboxOptions } from '@graphiti-memory/memory-node-storage';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { EndpointEpisodeSources } from './endpoint-episode-sources.js';
import { EndpointForgetLedger, EndpointGroupRegistry, sharedAuditLog, sharedPendingMemoryStore } from './shared-stores.js';

export interface StateModuleOptions {
  /** The shared state folder, found when a store first opens (the extension reads the configuration then). */
  readonly stateDirectory: () => Promise<string>;
  readonly logger?: Logger;
  /** The endpoint's durable outbox and delivery ledger, opened by ingestion at first need; omitted: none. */
  readonly outbox?: Pick<FileOutboxOptions, 'maxQueueSize' | 'staleLockMs'> & {
    /** In memory, with one log line, when the folder cannot be used (the extension: chat goes on). */
    readonly inMemoryFallback?: boolean;
  };
  /**
   * The folder an earlier version kept its own records in (the extension's global storage: its
   * outbox, delivery ledger, pending memories and audit log): moved into the shared files once.
   */
  readonly legacyFolder?: string;
}

/** AuditLog, PendingMemoryStore, GroupRegistry, EpisodeSources, ForgetLedger and LocalTierStore of the shared folder; with `outbox`, IngestionStorage and FileOutbox too. */
export function createStateModules(options: StateModuleOptions): ContainerModule[] {
  const stores = createSharedStoresModule(options);
  const outbox = options.outbox;
  if (outbox === undefined) return [stores];
  const { stateDirectory, legacyFolder } = options;
  const storage = createNodeStorageModule({
    outbox: async (settings) => {
      const endpoint = endpointOf(settings);
      if (endpoint === undefined) return undefined;
      const layout = stateLayout(await stateDirectory(), '', endpoint);
      if (legacyFolder !== undefined) await relocateOutboxJournals(path.join(legacyFolder, 'outbox'), layout.outboxDirectory);
      return {
        directory: layout.outboxDirectory,
        // Named beside the journals: an endpoint change tells a typo's queue from a real server's.
        endpoint,
        ...(outbox.maxQueueSize === undefined ? {} : { maxQueueSize: outbox.maxQueueSize }),
        ...(outbox.staleLockMs === undefined ? {} : { staleLockMs: outbox.staleLockMs }),
        // Where earlier versions kept the ledger: imported once, so an upgrade sends nothing twice.
        legacyLedgerFile: legacyFolder === undefined ? layout.legacyLedgerFile : path.join(legacyFolder, 'delivery-ledger.journal'),
      };
    },
    ...(outbox.inMemoryFallback === undefined ? {} : { inMemoryFallback: outbox.inMemoryFallback }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  return [stores, storage];
}

/**
 * The shared folder's stores alone (no outbox): what a recall-only run (`openRecallMemory`) loads,
 * so it bundles none of the outbox's journal code; `createStateModules` loads it with the outbox.
 */
export function createSharedStoresModule(options: Omit<StateModuleOptions, 'outbox'>): ContainerModule {
  const { stateDirectory, legacyFolder } = options;
  return new ContainerModule(({ bind }) => {
    bind(AuditLog)
      .toResolvedValue((logger: Logger) => sharedAuditLog(stateDirectory, legacyFolder, options.logger ?? logger), [Logger])
      .inSingletonScope();
    bind(PendingMemoryStore)
      .toResolvedValue((logger: Logger) => sharedPendingMemoryStore(stateDirectory, legacyFolder, options.logger ?? logger), [Logger])
      .inSingletonScope();
    // Stores kept per endpoint: each reads the endpoint the settings name at the moment it is used.
    const perEndpoint =
      <T>(open: (endpoint: () => string, logger: Logger) => T) =>
      (configuration: MemoryConfiguration, logger: Logger): T =>
        open(() => endpointOf(configuration.current()) ?? '', options.logger ?? logger);
    bind(GroupRegistry)
      .toResolvedValue(perEndpoint((endpoint, logger) => new EndpointGroupRegistry(stateDirectory, endpoint, logger)), [MemoryConfiguration, Logger])
      .inSingletonScope();
    // What confirmation learns of each delivered episode, and what recall cites facts from.
    bind(EpisodeSources)
      .toResolvedValue(perEndpoint((endpoint, logger) => new EndpointEpisodeSources(stateDirectory, endpoint, logger)), [MemoryConfiguration, Logger])
      .inSingletonScope();
    // What forgets owe (group deletes) and keep forgotten (turns), read before anything is sent.
    bind(ForgetLedger)
      .toResolvedValue(perEndpoint((endpoint, logger) => new EndpointForgetLedger(stateDirectory, endpoint, logger)), [MemoryConfiguration, Logger])
      .inSingletonScope();
    // The local tier (one file per endpoint and workspace group): memory-core's LocalTier keeps it current for every tool.
    bind(LocalTierStore).toConstantValue(new FileLocalTierStore(stateDirectory));
    // Open loops of every workspace: what a turn opened, the brief nudges about and forget takes.
    bind(LoopStore)
      .toResolvedValue((logger: Logger) => new FileLoopStore({ filePath: async () => sharedStateFiles(await stateDirectory()).loops, logger: options.logger ?? logger }), [Logger])
      .inSingletonScope();
    // What import-instructions sent: every tool's forget lets go of what it deletes (a later import sends it again).
    bind(InstructionImports).toConstantValue(new FileInstructionLedger(async () => sharedStateFiles(await stateDirectory()).instructionImports));
  });
}

function endpointOf(settings: MemorySettings): string | undefined {
  const endpoint = normaliseEndpoint(settings.endpoint);
  return endpoint === undefined || endpoint === '' ? undefined : endpoint;
}

