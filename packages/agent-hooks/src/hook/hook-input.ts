// One hook event as an assistant passes it on stdin, read through that assistant's descriptor
// (assistants/): the field names it uses, where the event's name comes from, the reply its turn
// end names, and our own earlier context it wraps into the prompt. The command line names the
// assistant (`--agent`); lines written before that run as Claude Code's (VS Code sends the same).
import type { AssistantDescriptor, HandlerEvent } from '../assistants/assistant-descriptor.js';
import { HANDLER_EVENTS } from '../assistants/assistant-descriptor.js';
import { assistantOfCommandLine, assistantOfInput, handlerOfEvent, type AgentHookTarget } from '../assistants/assistant-registry.js';

export const HOOK_EVENT_NAMES = HANDLER_EVENTS;
export type HookEventName = HandlerEvent;

export interface HookEvent {
  /** Our handler for the event. */
  readonly event: HookEventName;
  /** The assistant whose input this is (its descriptor's target); absent: Claude Code's (DEFAULT_ASSISTANT). */
  readonly assistant?: AgentHookTarget;
  /** The event as the assistant names it (its input's name, else its hook file's): what its output must say back; absent: `event`. */
  readonly hostEvent?: string;
  readonly sessionId: string | undefined;
  readonly transcriptPath: string | undefined;
  readonly cwd: string | undefined;
  /** The user's words: the assistant's wrapping of our own earlier context removed. */
  readonly prompt: string | undefined;
  /** The turn end's reply the assistant finished with, which its transcript may not hold yet. */
  readonly lastAssistantMessage?: string;
  /** SessionStart: why the session starts (Claude Code: startup, resume, clear, compact; Copilot: new). */
  readonly source?: string;
  /** When the assistant sent the event (epoch ms; Copilot CLI and Gemini CLI say it, Claude Code does not). */
  readonly sentAt?: number;
}

export type HookInputRead = { readonly ok: true; readonly hook: HookEvent } | { readonly ok: false; readonly reason: 'bad-json' | 'unknown-event' | 'unknown-agent' | 'prompt-too-large' };

/** Stdin larger than this is not read (a prompt is at most a few hundred kB; recall searches a few KB of it). */
export const MAX_HOOK_INPUT_BYTES = 4 * 1024 * 1024;

/**
 * What `readHookStdin` hands on for an input over MAX_HOOK_INPUT_BYTES (never valid JSON, so no
 * event is mistaken for it): the run is logged as a prompt too large, not as bad JSON. A string,
 * so it travels to the hook server like any event.
 */
export const HOOK_INPUT_TOO_LARGE = '\u0000graphiti-memory: hook input too large';

/**
 * Parses stdin; `fallbackEvent` (the command's `--event`) serves assistants that do not name the
 * event, `agent` (the command's `--agent`) names the assistant.
 */
export function parseHookInput(text: string, fallbackEvent?: string, agent?: string): HookInputRead {
  if (text === HOOK_INPUT_TOO_LARGE) return { ok: false, reason: 'prompt-too-large' };
  const installedFor = assistantOfCommandLine(agent);
  if (installedFor === undefined) return { ok: false, reason: 'unknown-agent' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'bad-json' };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, reason: 'bad-json' };
  const record = raw as Record<string, unknown>;
  const assistant = assistantOfInput(installedFor, record);
  const { input } = assistant;
  const named = firstString(record, input.eventName) ?? fallbackEvent;
  const event = handlerOfEvent(assistant, named);
  if (event === undefined || named === undefined) return { ok: false, reason: 'unknown-event' };
  const source = firstString(record, ['source']);
  const prompt = firstText(record, input.prompt);
  const lastReply = firstString(record, input.lastReply);
  const sentAt = timestampOf(record['timestamp']);
  return {
    ok: true,
    hook: {
      event,
      assistant: assistant.target,
      hostEvent: firstString(record, input.eventName) ?? assistant.events[event] ?? event,
      sessionId: firstString(record, input.sessionId),
      transcriptPath: firstString(record, input.transcriptPath),
      cwd: firstString(record, input.cwd),
      prompt: prompt === undefined ? undefined : withoutOwnContext(prompt, assistant),
      ...(source === undefined ? {} : { source }),
      ...(lastReply === undefined ? {} : { lastAssistantMessage: lastReply }),
      ...(sentAt === undefined ? {} : { sentAt }),
    },
  };
}

/**
 * The prompt without the blocks the assistant wrapped our own earlier context in (Gemini CLI puts
 * SessionStart's context into the prompt as `<hook_context>…</hook_context>`): recall searches the
 * user's words, not our brief. An unclosed tag is left as it is (it is the user's text then).
 */
export function withoutOwnContext(prompt: string, assistant: Pick<AssistantDescriptor, 'input'>): string {
  let text = prompt;
  for (const tag of assistant.input.ownContextTags) {
    text = text.replace(new RegExp(`<${tag}>[\\s\\S]*?</${tag}>`, 'g'), '');
  }
  return text === prompt ? prompt : text.trim();
}

/** The first of `keys` holding a non-blank string. */
function firstString(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** The first of `keys` holding a string, blank or not (a prompt is the user's, as typed). */
function firstText(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** Epoch ms of a `timestamp` given in ms or as an ISO string. */
function timestampOf(value: unknown): number | undefined {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}
