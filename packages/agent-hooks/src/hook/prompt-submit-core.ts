// The lean core of the bundled hook runner (dist/hook-runner-prompt-<build>.cjs): a cold
// UserPromptSubmit, and nothing else — no hook server, drainer, capture or session handlers — so
// the first prompt after the server has gone loads less. It runs the same `runHookWith` as the full
// core (hook-core.ts) with UserPromptSubmit's handler alone; the runner entry hands it only that
// event, and falls back to the full core when this file is missing or does not load.
import { promptSubmitHandlers } from './hook-handlers.js';
import { runHookWith, type HookIo, type HookRunSummary } from './run-hook.js';

export function runInProcess(io: HookIo): Promise<HookRunSummary> {
  return runHookWith({ ...io, via: 'in-process' }, promptSubmitHandlers);
}
