// What the runtime bundle (dist/runtime.cjs) gives the entry. Types only: the entry must not pull
// the runtime's modules into its own bundle.
import type * as vscode from 'vscode';
import type { StatusSnapshot } from '../status/memory-status.js';
import type { ContributionPoints } from './contribution-points.js';

export interface MemoryRuntime {
  status(): StatusSnapshot;
}

export interface RuntimeModule {
  startMemoryRuntime(options: {
    readonly context: vscode.ExtensionContext;
    readonly channel: vscode.LogOutputChannel;
    readonly points: ContributionPoints;
  }): MemoryRuntime;
  /**
   * Records the window's trust for the agent hooks (the shared memory switches) without starting
   * the runtime: an untrusted window never starts it. Never rejects.
   */
  recordWorkspaceTrust?(trusted: boolean, folders: readonly string[]): Promise<void>;
}
