// Builds the container of one activation. Nothing is resolved here: services are created when a
// contribution needs them, and delivery starts only once memory is on.
import { Container } from 'inversify';
import type * as vscode from 'vscode';
import { createMemoryModule } from '@graphiti-memory/memory-core';
import { createExtensionModule } from './extension-module.js';
import { rebindTrustServices } from '../trust/trust-services.js';
import { Contribution } from './tokens.js';

export function createContainer(context: vscode.ExtensionContext, channel: vscode.LogOutputChannel): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  // memory-core's services; IngestionService is re-bound in the child container that owns the
  // durable outbox (see ingestion-factory.ts), so the parent's binding is never resolved.
  container.loadSync(createMemoryModule(), createExtensionModule({ context, channel, container }));
  rebindTrustServices(container);
  return container;
}

/** Registers every contribution, in order; one that fails is logged and the others still register. */
export function registerContributions(container: Container, context: vscode.ExtensionContext, channel: vscode.LogOutputChannel): void {
  for (const contribution of container.getAll<Contribution>(Contribution)) {
    try {
      contribution.register(context);
    } catch (error) {
      channel.error(`a feature failed to start: ${contribution.constructor.name} (${error instanceof Error ? error.name : 'unknown'})`);
    }
  }
}
