// Gemini CLI's chat file (`~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`, the hooks'
// `transcript_path`): a header line `{sessionId, projectHash, startTime, lastUpdated, kind}` (again
// on each resume), `{"$set": …}` patches of the header (their `messages` replay Gemini's own
// setup context, never the user's words), and message records `{id, timestamp, type, content}`:
// `user` (content a list of `{text}` parts) and `gemini` (content a string, or parts). A turn is a
// user record and the `gemini` replies after it; the next user record or a reply finishes it (the
// chat has no turn-end record: a reply that is written is whole). Its id is the user record's `id`.
// Gemini puts our own hook context into the user's record as `<hook_context>…</hook_context>`
// parts: those are removed, so our brief is never captured back as the user's words.
import type { ChatTurn } from '../ports.js';
import { asRecord } from './json-lines-reader.js';
import { firstLine, parseJsonObject } from './line-splitter.js';
import { filterPrompt, filterReply, resolveTranscriptFilter, type TranscriptFilterOption } from './transcript-filter.js';

export const GEMINI_CLI_PARTICIPANT = 'gemini-cli';

/** Where Gemini CLI wraps hook context (SessionStart's into the prompt, BeforeAgent's as a part of its own). */
const HOOK_CONTEXT = /<hook_context>[\s\S]*?<\/hook_context>/g;

export interface GeminiChatOptions {
  readonly sessionId?: string;
  /** Keep a last user record without a reply (default false). */
  readonly includeUnfinished?: boolean;
  readonly filter?: TranscriptFilterOption;
}

/** The user's words of a Gemini prompt or user record: hook context blocks removed. */
export function withoutGeminiHookContext(text: string): string {
  return text.replace(HOOK_CONTEXT, '').trim();
}

/** True when the text is a Gemini CLI chat file: its first line is the header (`sessionId`, `projectHash`). */
export function isGeminiChat(text: string): boolean {
  const line = parseJsonObject(firstLine(text));
  return typeof line?.['sessionId'] === 'string' && typeof line['projectHash'] === 'string';
}

export function parseGeminiChat(text: string, options: GeminiChatOptions = {}): ChatTurn[] {
  const filter = resolveTranscriptFilter(options.filter);
  const turns: ChatTurn[] = [];
  const seen = new Set<string>();
  let sessionId = options.sessionId;
  let current: { id: string; user: string; userTimestamp: string; assistant: string[]; assistantTimestamp: string | undefined } | undefined;
  const finish = (finished: boolean): void => {
    if (current !== undefined && sessionId !== undefined && (finished || options.includeUnfinished === true) && !seen.has(current.id)) {
      seen.add(current.id);
      const assistantText = filterReply(current.assistant.join('\n\n'), filter).trim();
      turns.push({
        id: current.id,
        sessionId,
        user: { text: filterPrompt(current.user, filter), timestamp: current.userTimestamp },
        ...(assistantText === '' ? {} : { assistant: { text: assistantText, timestamp: current.assistantTimestamp ?? current.userTimestamp } }),
        participant: GEMINI_CLI_PARTICIPANT,
      });
    }
    current = undefined;
  };
  for (const raw of text.split('\n')) {
    const line = parseJsonObject(raw);
    if (line === undefined || '$set' in line) continue;
    if (typeof line['sessionId'] === 'string' && typeof line['projectHash'] === 'string') {
      sessionId ??= line['sessionId'];
      continue;
    }
    const id = line['id'];
    const timestamp = typeof line['timestamp'] === 'string' ? line['timestamp'] : new Date(0).toISOString();
    if (typeof id !== 'string') continue;
    if (line['type'] === 'user') {
      const words = withoutGeminiHookContext(textOf(line['content']));
      // A record of hook context alone, or of nothing, is no prompt.
      if (words === '') continue;
      // The previous prompt got no reply before this one: as finished as it will get.
      finish(current !== undefined);
      current = { id, user: words, userTimestamp: timestamp, assistant: [], assistantTimestamp: undefined };
    } else if (line['type'] === 'gemini' && current !== undefined) {
      const reply = textOf(line['content']);
      if (reply !== '') {
        current.assistant.push(reply);
        current.assistantTimestamp = timestamp;
      }
    }
  }
  finish(current !== undefined && current.assistant.length > 0);
  return turns;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content.trim();
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => asRecord(part)?.['text'])
    .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
    .join('\n\n')
    .trim();
}
