// What runs each hook event, loaded only when that event comes. The full core knows every event
// (hook-events.ts); the lean prompt core only UserPromptSubmit, through the same entry below, so
// both cores run the one handler.
import type { HandlerResult } from './handler-result.js';
import type { HookContext } from './hook-context.js';
import type * as HookDrainer from './hook-drainer.js';
import type { HookEventName } from './hook-input.js';
import { openRecallHookMemory, type HookMemory, type HookMemoryOptions } from './hook-memory.js';

export type HookEventHandler = (context: HookContext, memory: HookMemory, startedAt: number, now: () => Date) => Promise<HandlerResult>;

export type HookMemoryOpener = (options: HookMemoryOptions) => Promise<HookMemory>;

export interface HookHandlers {
  /** Loads an event's handler; an event without one is logged as `unknown-event`. */
  readonly events: Partial<Record<HookEventName, () => Promise<HookEventHandler>>>;
  /** How memory opens for an event: what the core opens is all it bundles of memory-core. */
  readonly openMemory: (event: HookEventName) => HookMemoryOpener;
  /** The background drainer (`--drain`, and the events that ask for it); absent in the lean prompt core. */
  readonly drainer?: () => Promise<typeof HookDrainer>;
}

/** UserPromptSubmit alone: what the lean prompt core carries. */
export const promptSubmitHandlers: HookHandlers = {
  events: { UserPromptSubmit: async () => (await import('./prompt-submit.js')).handlePromptSubmit },
  // A prompt only recalls: memory-core's recall side alone, so the lean core leaves the send side out.
  openMemory: () => openRecallHookMemory,
};
