// OpenAI Codex's rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl`, the
// hooks' `transcript_path`): JSONL lines `{timestamp, ordinal, type, payload}` — `session_meta`,
// `turn_context`, `response_item` (what the model sees: developer messages, among them our own hook
// context, Codex's `<environment_context>` as a user message), `event_msg`. A turn is read from
// Codex's own record of it: `event_msg` `task_started` opens it, `item_completed` with a
// `UserMessage` / `AgentMessage` item (older versions: `user_message` / `agent_message`) carries the
// user's words and the replies, and `task_complete` finishes it. Its id is Codex's `turn_id`, so
// re-reading dedupes. Our hook context never counts as the user's words (it is a developer message).
import type { ChatTurn } from '../ports.js';
import { asRecord } from './json-lines-reader.js';
import { firstLine, parseJsonObject } from './line-splitter.js';
import { filterPrompt, filterReply, resolveTranscriptFilter, type TranscriptFilterOption } from './transcript-filter.js';

export const CODEX_PARTICIPANT = 'codex';

export interface CodexRolloutOptions {
  readonly sessionId?: string;
  /** Keep the last turn even when no `task_complete` ended it yet (default false). */
  readonly includeUnfinished?: boolean;
  readonly filter?: TranscriptFilterOption;
}

interface TurnInProgress {
  readonly id: string;
  readonly user: string[];
  userTimestamp: string | undefined;
  readonly assistant: string[];
  assistantTimestamp: string | undefined;
  finished: boolean;
}

/** True when the text is a Codex rollout: its first line is a `session_meta` record. */
export function isCodexRollout(text: string): boolean {
  const line = parseJsonObject(firstLine(text));
  return line?.['type'] === 'session_meta' && asRecord(line['payload']) !== undefined;
}

/** The finished turns, in file order; never throws (lines it cannot read are skipped). */
export function parseCodexRollout(text: string, options: CodexRolloutOptions = {}): ChatTurn[] {
  const filter = resolveTranscriptFilter(options.filter);
  const turns: ChatTurn[] = [];
  let sessionId = options.sessionId;
  let current: TurnInProgress | undefined;
  const finish = (): void => {
    if (current !== undefined && sessionId !== undefined && (current.finished || options.includeUnfinished === true)) {
      const userText = current.user.join('\n\n').trim();
      const assistantText = filterReply(current.assistant.join('\n\n'), filter).trim();
      if (userText !== '') {
        turns.push({
          id: current.id,
          sessionId,
          user: { text: filterPrompt(userText, filter), timestamp: current.userTimestamp ?? new Date(0).toISOString() },
          ...(assistantText === '' ? {} : { assistant: { text: assistantText, timestamp: current.assistantTimestamp ?? current.userTimestamp ?? new Date(0).toISOString() } }),
          participant: CODEX_PARTICIPANT,
        });
      }
    }
    current = undefined;
  };
  const open = (id: string): TurnInProgress => {
    if (current !== undefined && current.id === id) return current;
    finish();
    current = { id, user: [], userTimestamp: undefined, assistant: [], assistantTimestamp: undefined, finished: false };
    return current;
  };
  for (const raw of text.split('\n')) {
    const line = parseJsonObject(raw);
    const payload = asRecord(line?.['payload']);
    if (line === undefined || payload === undefined) continue;
    const timestamp = typeof line['timestamp'] === 'string' ? line['timestamp'] : undefined;
    if (line['type'] === 'session_meta') {
      const id = payload['id'] ?? payload['session_id'];
      if (sessionId === undefined && typeof id === 'string') sessionId = id;
      continue;
    }
    if (line['type'] !== 'event_msg') continue;
    const turnId = typeof payload['turn_id'] === 'string' ? payload['turn_id'] : current?.id;
    switch (payload['type']) {
      case 'task_started':
        if (turnId !== undefined) open(turnId);
        break;
      case 'item_completed': {
        const item = asRecord(payload['item']);
        const words = textOf(item?.['content']);
        if (turnId === undefined || words === '') break;
        const turn = open(turnId);
        if (item?.['type'] === 'UserMessage') {
          turn.user.push(words);
          turn.userTimestamp ??= timestamp;
        } else if (item?.['type'] === 'AgentMessage') {
          turn.assistant.push(words);
          turn.assistantTimestamp = timestamp;
        }
        break;
      }
      case 'user_message':
        if (turnId !== undefined && typeof payload['message'] === 'string' && payload['message'].trim() !== '') {
          const turn = open(turnId);
          turn.user.push(payload['message'].trim());
          turn.userTimestamp ??= timestamp;
        }
        break;
      case 'agent_message':
        if (current !== undefined && typeof payload['message'] === 'string' && payload['message'].trim() !== '') {
          current.assistant.push(payload['message'].trim());
          current.assistantTimestamp = timestamp;
        }
        break;
      case 'task_complete':
        if (current !== undefined && (turnId === undefined || turnId === current.id)) {
          const last = payload['last_agent_message'];
          if (current.assistant.length === 0 && typeof last === 'string' && last.trim() !== '') {
            current.assistant.push(last.trim());
            current.assistantTimestamp = timestamp;
          }
          current.finished = true;
          finish();
        }
        break;
      default:
        break;
    }
  }
  finish();
  return turns;
}

/** The text of a content list (`[{type: "text"|"Text", text}]`) or a string. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content.trim();
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => asRecord(part)?.['text'])
    .filter((text): text is string => typeof text === 'string')
    .join('\n')
    .trim();
}
