// What a hook prints, in the one shape its assistant reads (its descriptor's output): anything else
// counts as a failed hook in some of them (Codex), or is ignored (Gemini CLI ignores a flat
// `additionalContext`, Copilot CLI a `hookSpecificOutput`). Nothing is printed for an event whose
// context the assistant does not read, and no `systemMessage` where it shows none.
import { assistantDescriptor, DEFAULT_ASSISTANT } from '../assistants/assistant-registry.js';
import type { HandlerResult } from './handler-result.js';
import type { HookEvent } from './hook-input.js';

/** The line to print (with its line break), or `undefined` for nothing. */
export function hookOutput(hook: Pick<HookEvent, 'event' | 'assistant' | 'hostEvent'>, result: Pick<HandlerResult, 'context' | 'systemMessage'>): string | undefined {
  const { output } = assistantDescriptor(hook.assistant ?? DEFAULT_ASSISTANT);
  const context = result.context !== undefined && output.contextOn.includes(hook.event) ? result.context : undefined;
  const systemMessage = output.systemMessage ? result.systemMessage : undefined;
  if (context === undefined && systemMessage === undefined) return undefined;
  const message = systemMessage === undefined ? {} : { systemMessage };
  const printed = context === undefined ? message : output.shape === 'flat' ? { ...message, additionalContext: context } : { ...message, hookSpecificOutput: { hookEventName: hook.hostEvent ?? hook.event, additionalContext: context } };
  return `${JSON.stringify(printed)}\n`;
}
