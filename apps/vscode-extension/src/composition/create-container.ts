// Builds the container of one activation. Nothing is resolved here: services are created when a
// contribution needs them, and delivery starts only once memory is on.
import { Container, type ContainerModule } from 'inversify';
import type * as vscode from 'vscode';
import { createStateModules, type EndpointGroupRegistry } from '@graphiti-memory/agent-hooks';
import { AuditLog, createMemoryModule, EpisodeSources, errorClassOf, GroupRegistry } from '@graphiti-memory/memory-core';
import { sharedStateDirectory } from '@graphiti-memory/memory-node-storage';
import { createExtensionModule } from './extension-module.js';
import { Contribution } from './tokens.js';

export function createContainer(context: vscode.ExtensionContext, channel: vscode.LogOutputChannel): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.loadSync(createMemoryModule(), ...createSharedStateModules(context), createExtensionModule({ context, channel }));
  // Written in the background: finish the last writes when the extension stops (nothing opened, nothing to do).
  context.subscriptions.push({
    dispose: () =>
      Promise.allSettled([
        container.get<AuditLog>(AuditLog).flush(),
        (container.get<GroupRegistry>(GroupRegistry) as Partial<EndpointGroupRegistry>).flushOpened?.(),
        // Flushes only the records already opened: nothing is opened at shutdown.
        container.get<EpisodeSources>(EpisodeSources).flush(),
      ]),
  });
  return container;
}

/**
 * The stores of the state folder every tool shares, bound as the harness and the hooks bind them
 * (agent-hooks' state modules): the audit log, pending memories, the group registry and ingestion's
 * durable outbox (`endpoints/<hash>/outbox` of the endpoint in force when ingestion first opens it;
 * its delivery ledger checked under the outbox's lock with the harness's and the hooks'). What an
 * earlier version kept in global storage is moved there first. The outbox falls back to memory,
 * with one log line, when the folder cannot be used.
 */
function createSharedStateModules(context: vscode.ExtensionContext): ContainerModule[] {
  const storageFolder = context.globalStorageUri?.fsPath;
  return createStateModules({
    stateDirectory: () => sharedStateDirectory(),
    outbox: { inMemoryFallback: true },
    ...(storageFolder === undefined ? {} : { legacyFolder: storageFolder }),
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

