// Every hook event's handler, for the full core, the hook server and `graphiti-harness hook`.
import type { HookEventHandler, HookHandlers } from './hook-handlers.js';
import { promptSubmitHandlers } from './hook-handlers.js';
import { openHookMemory } from './hook-memory.js';

const sessionStop = async (): Promise<HookEventHandler> => {
  const { handleSessionStop } = await import('./session-stop.js');
  return (context, memory) => handleSessionStop(context, memory);
};

export const everyHookEvent: HookHandlers = {
  events: {
    ...promptSubmitHandlers.events,
    SessionStart: async () => (await import('./session-start.js')).handleSessionStart,
    Stop: sessionStop,
    SessionEnd: sessionStop,
  },
  // UserPromptSubmit opens memory as in the lean prompt core: both cores give the same answer and records.
  openMemory: (event) => (event === 'UserPromptSubmit' ? promptSubmitHandlers.openMemory(event) : openHookMemory),
  drainer: () => import('./hook-drainer.js'),
};
