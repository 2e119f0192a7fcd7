// What a hook event handler reports: an outcome for the run log, and the text to print, if any.
import type { HookContext } from './hook-context.js';
import type { HookMemory } from './hook-memory.js';
import { tierFile } from '@graphiti-memory/memory-node-storage';

export interface HandlerResult {
  readonly outcome: string;
  /** `additionalContext` to print. */
  readonly context?: string;
  readonly detail?: string;
  /** Start the background drainer after printing (deliveries, or a stale tier to refresh). */
  readonly drain?: boolean;
}

/** The local tier file of the event's workspace; `undefined` when the workspace has no identity. */
export async function workspaceTierFile(context: HookContext, memory: HookMemory): Promise<string | undefined> {
  const workspace = await memory.groups.resolve('workspace');
  return workspace === undefined ? undefined : tierFile(context.stateDirectory, context.endpoint, workspace);
}
