// Builds the container of one activation. Nothing is resolved here: services are created when a
// contribution needs them, and delivery starts only once memory is on.
import path from 'node:path';
import { Container, type ContainerModule } from 'inversify';
import type * as vscode from 'vscode';
import { createMemoryModule, errorClassOf } from '@graphiti-memory/memory-core';
import { createNodeStorageModule } from '@graphiti-memory/memory-node-storage';
import { createExtensionModule } from './extension-module.js';
import { Contribution } from './tokens.js';

export function createContainer(context: vscode.ExtensionContext, channel: vscode.LogOutputChannel): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.loadSync(createMemoryModule(), createIngestionStorageModule(context), createExtensionModule({ context, channel }));
  return container;
}

/**
 * Ingestion's storage: memory-node-storage's durable outbox in global storage (its delivery ledger
 * shared with every other window and hook under the outbox's lock), opened by ingestion on first
 * need; in memory, with one log line, when the folder cannot be used.
 */
function createIngestionStorageModule(context: vscode.ExtensionContext): ContainerModule {
  const storageFolder = context.globalStorageUri?.fsPath;
  return createNodeStorageModule({
    ...(storageFolder === undefined
      ? {}
      : {
          outbox: {
            directory: path.join(storageFolder, 'outbox'),
            // Where earlier versions kept the ledger: imported once, so an upgrade sends nothing twice.
            legacyLedgerFile: path.join(storageFolder, 'delivery-ledger.journal'),
          },
        }),
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

