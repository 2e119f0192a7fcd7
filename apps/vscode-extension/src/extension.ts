// Entry point of the Graphiti Memory extension (dist/extension.cjs): small on purpose. It registers
// every contribution and loads the memory runtime (dist/runtime.cjs, the composition root) only when
// memory is on in a trusted workspace or when a feature is first used; see entry/activate-entry.ts.
import type * as vscode from 'vscode';
import { activateEntry, type GraphitiMemoryApi } from './entry/activate-entry.js';
import type { RuntimeModule } from './entry/runtime-module.js';

export type { GraphitiMemoryApi } from './entry/activate-entry.js';

/** The runtime bundle, next to this one in dist/; esbuild leaves this `require` alone. */
const RUNTIME_BUNDLE = './runtime.cjs';

export function activate(context: vscode.ExtensionContext): GraphitiMemoryApi {
  // Synchronous on purpose: a feature used before the runtime is loaded runs in the same turn.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return activateEntry(context, { loadRuntime: () => require(RUNTIME_BUNDLE) as RuntimeModule });
}

export function deactivate(): void {
  // Subscriptions are disposed by VS Code; queued messages are journaled in the durable outbox.
}
