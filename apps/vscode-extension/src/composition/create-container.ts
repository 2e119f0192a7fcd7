// Builds the container of one activation. Nothing is resolved here: services are created when a
// contribution needs them, and delivery starts only once memory is on.
import path from 'node:path';
import { Container, type ContainerModule } from 'inversify';
import type * as vscode from 'vscode';
import { createMemoryModule, errorClassOf, normaliseEndpoint } from '@graphiti-memory/memory-core';
import { createNodeStorageModule, relocateOutboxJournals, sharedStateDirectory, stateLayout } from '@graphiti-memory/memory-node-storage';
import { createExtensionModule } from './extension-module.js';
import { Contribution } from './tokens.js';

export function createContainer(context: vscode.ExtensionContext, channel: vscode.LogOutputChannel): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.loadSync(createMemoryModule(), createIngestionStorageModule(context), createExtensionModule({ context, channel }));
  return container;
}

/**
 * Ingestion's storage: memory-node-storage's durable outbox in the state folder every tool shares
 * (`endpoints/<hash>/outbox` of the endpoint in force when ingestion first opens it; its delivery
 * ledger checked under the outbox's lock with the harness's and the hooks'), opened by ingestion on
 * first need. The outbox earlier versions kept in global storage is moved there first. In memory,
 * with one log line, when the folder cannot be used.
 */
function createIngestionStorageModule(context: vscode.ExtensionContext): ContainerModule {
  const storageFolder = context.globalStorageUri?.fsPath;
  return createNodeStorageModule({
    outbox: async (settings) => {
      const endpoint = normaliseEndpoint(settings.endpoint);
      if (endpoint === undefined || endpoint === '') return undefined;
      const layout = stateLayout(await sharedStateDirectory(), '', endpoint);
      if (storageFolder !== undefined) await relocateOutboxJournals(path.join(storageFolder, 'outbox'), layout.outboxDirectory);
      return {
        directory: layout.outboxDirectory,
        // Where earlier versions kept the ledger: imported once, so an upgrade sends nothing twice.
        ...(storageFolder === undefined ? {} : { legacyLedgerFile: path.join(storageFolder, 'delivery-ledger.journal') }),
      };
    },
    inMemoryFallback: true,
  });
}

/** Registers every contribution, in order; one that fails is logged and the others still register. */
export function registerContributions(container: Container, context: vscode.ExtensionContext, channel: vscode.LogOutputChannel): void {
  for (const contribution of container.getAll<Contribution>(Contribution)) {
    try {
      contribution.register(context);
    } catch (error) {
      channel.error(`a feature failed to start: ${contribution.constructor.name} (${errorClassOf(error)})`);
    }
  }
}

