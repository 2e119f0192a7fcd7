// How long the context a hook prints stays in front of the model, which decides what say-it-once
// may leave out: the assistant's descriptor says (transcript.contextLifetime).
import type { ContextLifetime } from '../assistants/assistant-descriptor.js';
import { assistantDescriptor, DEFAULT_ASSISTANT } from '../assistants/assistant-registry.js';
import type { HookEvent } from './hook-input.js';

export type { ContextLifetime };

export function contextLifetime(hook: Pick<HookEvent, 'transcriptPath' | 'assistant'>): ContextLifetime {
  return assistantDescriptor(hook.assistant ?? DEFAULT_ASSISTANT).transcript.contextLifetime(hook);
}
