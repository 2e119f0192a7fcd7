// One hook event as Claude Code and VS Code's Copilot agent mode pass it on stdin: the same event
// names and snake_case fields (`hook_event_name`, `session_id`, `transcript_path`, `cwd`, `prompt`).

export const HOOK_EVENT_NAMES = ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd'] as const;
export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

export interface HookEvent {
  readonly event: HookEventName;
  readonly sessionId: string | undefined;
  readonly transcriptPath: string | undefined;
  readonly cwd: string | undefined;
  readonly prompt: string | undefined;
  /** Stop (Claude Code): the text of the reply it stopped with, which its transcript may not hold yet. */
  readonly lastAssistantMessage?: string;
  /** SessionStart: why the session starts (Claude Code: startup, resume, clear, compact; Copilot: new). */
  readonly source?: string;
}

export type HookInputRead = { readonly ok: true; readonly hook: HookEvent } | { readonly ok: false; readonly reason: 'bad-json' | 'unknown-event' | 'prompt-too-large' };

/** Stdin larger than this is not read (a prompt is at most a few hundred kB; recall searches a few KB of it). */
export const MAX_HOOK_INPUT_BYTES = 4 * 1024 * 1024;

/**
 * What `readHookStdin` hands on for an input over MAX_HOOK_INPUT_BYTES (never valid JSON, so no
 * event is mistaken for it): the run is logged as a prompt too large, not as bad JSON. A string,
 * so it travels to the hook server like any event.
 */
export const HOOK_INPUT_TOO_LARGE = '\u0000graphiti-memory: hook input too large';

/** Parses stdin; `fallbackEvent` (the command's `--event`) serves hosts that do not name the event. */
export function parseHookInput(text: string, fallbackEvent?: string): HookInputRead {
  if (text === HOOK_INPUT_TOO_LARGE) return { ok: false, reason: 'prompt-too-large' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'bad-json' };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, reason: 'bad-json' };
  const record = raw as Record<string, unknown>;
  const named = stringField(record, 'hook_event_name') ?? stringField(record, 'hookEventName') ?? fallbackEvent;
  const event = HOOK_EVENT_NAMES.find((candidate) => candidate === named);
  if (event === undefined) return { ok: false, reason: 'unknown-event' };
  const source = stringField(record, 'source');
  return {
    ok: true,
    hook: {
      event,
      sessionId: stringField(record, 'session_id') ?? stringField(record, 'sessionId'),
      transcriptPath: stringField(record, 'transcript_path') ?? stringField(record, 'transcriptPath'),
      cwd: stringField(record, 'cwd'),
      prompt: typeof record['prompt'] === 'string' ? record['prompt'] : undefined,
      ...(source === undefined ? {} : { source }),
      ...(typeof record['last_assistant_message'] === 'string' && record['last_assistant_message'].trim() !== '' ? { lastAssistantMessage: record['last_assistant_message'] } : {}),
    },
  };
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
