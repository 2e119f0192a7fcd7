// The memory runtime: the container with memory-core, the adapters and every feature, built when
// the entry first needs it (memory on and trusted, or a command, the participant, a tool or the
// view used). This module and what it imports make up the second bundle, dist/runtime.cjs.
import type { Container } from 'inversify';
import { Ingestion } from '@graphiti-memory/memory-core';
import type * as vscode from 'vscode';
import { ApiKeyStore } from '../adapters/api-key-store.js';
import { ContributionPoints } from '../entry/contribution-points.js';
import type { MemoryRuntime } from '../entry/runtime-module.js';
import { MemoryStatus } from '../status/memory-status.js';
import { createContainer, registerContributions } from './create-container.js';

export interface MemoryRuntimeOptions {
  readonly context: vscode.ExtensionContext;
  readonly channel: vscode.LogOutputChannel;
  readonly points: ContributionPoints;
  /** Re-binds before anything is resolved (tests shorten timings). */
  readonly configure?: (container: Container) => void;
}

export function startMemoryRuntime({ context, channel, points, configure }: MemoryRuntimeOptions): MemoryRuntime & { readonly container: Container } {
  const container = createContainer(context, channel);
  container.bind(ContributionPoints).toConstantValue(points);
  configure?.(container);
  // The composition root resolves what it needs once; features get everything injected.
  const apiKeys = container.get<ApiKeyStore>(ApiKeyStore);
  // The key is read in the background; the connection picks it up when it arrives.
  void apiKeys.load().catch(() => undefined);
  // Disposed last (subscriptions end in reverse): staged turns are appended, the outbox it opened
  // is closed, and a caller awaiting disposal (tests, shutdown) sees it closed.
  const ingestion = container.get<Ingestion>(Ingestion);
  context.subscriptions.push({ dispose: () => ingestion.dispose() });
  registerContributions(container, context, channel);
  const status = container.get<MemoryStatus>(MemoryStatus);
  return { status: () => status.snapshot(), container };
}
