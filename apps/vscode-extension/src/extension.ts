// Entry point of the Graphiti Memory extension: the composition root. Activation creates the log
// channel and the container and registers the contributions; everything else is created lazily.
import * as vscode from 'vscode';
import { ApiKeyStore } from './adapters/api-key-store.js';
import { createContainer, registerContributions } from './composition/create-container.js';
import { MemoryStatus, type StatusSnapshot } from './status/memory-status.js';

/** What `activate` returns: for tests and for other extensions that want to show memory's state. */
export interface GraphitiMemoryApi {
  status(): StatusSnapshot;
}

export function activate(context: vscode.ExtensionContext): GraphitiMemoryApi {
  const channel = vscode.window.createOutputChannel('Graphiti Memory', { log: true });
  context.subscriptions.push(channel);
  const container = createContainer(context, channel);
  // The key is read in the background; the connection picks it up when it arrives.
  void container.get<ApiKeyStore>(ApiKeyStore).load().catch(() => undefined);
  registerContributions(container, context, channel);
  return { status: () => container.get<MemoryStatus>(MemoryStatus).snapshot() };
}

export function deactivate(): void {
  // Subscriptions are disposed by VS Code; queued messages are journaled in the durable outbox.
}
