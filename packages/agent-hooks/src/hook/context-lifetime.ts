// How long the context a hook prints stays in front of the model, which decides what say-it-once
// may leave out. Claude Code keeps SessionStart's and UserPromptSubmit's additionalContext in the
// conversation. Copilot's agent loop (Copilot Chat 0.67) appends both to the current turn's
// `additionalHookContext`, renders it into that turn's user message on every request of the turn
// (each tool round re-sends it), and leaves it out of later turns' history: there it lasts one turn.
import type { HookEvent } from './hook-input.js';

export type ContextLifetime = 'conversation' | 'turn';

/** Copilot agent mode's transcripts live under `…/GitHub.copilot-chat/transcripts/`. */
const COPILOT_TRANSCRIPT = /[\\/]github\.copilot-chat[\\/]/i;

export function contextLifetime(hook: Pick<HookEvent, 'transcriptPath'>): ContextLifetime {
  return hook.transcriptPath !== undefined && COPILOT_TRANSCRIPT.test(hook.transcriptPath) ? 'turn' : 'conversation';
}
