// Copilot agent mode's session transcript, as VS Code's Copilot Chat writes it for hooks
// (`transcript_path`): JSONL lines `{type, data, id, timestamp, parentId}` — `session.start`,
// `user.message`, `assistant.turn_start`, `assistant.message`, `tool.execution_start`,
// `tool.execution_complete`, `assistant.turn_end`. A turn is one user message plus the assistant's
// messages until the next user message; its id is the user line's `id`, so re-reading dedupes.
// Copilot writes `assistant.turn_end` after every round of its agent loop, tool rounds included, so
// a turn is finished only by a round whose last message requests no tools (the final reply), or by
// the next user message; a transcript read mid-loop holds no finished last turn. GitHub's Copilot
// CLI writes the same log (`~/.copilot/session-state/<session>/events.jsonl`, `hook.*` lines
// beside): `user.message`'s `content` is the user's words (`transformedContent`, with our context
// in `<system_reminder>`, is never read).
import type { ChatTurn } from '../ports.js';
import { asRecord } from './json-lines-reader.js';
import { firstLine, parseJsonObject } from './line-splitter.js';
import { filterPrompt, filterReply, resolveTranscriptFilter, type TranscriptFilterOption } from './transcript-filter.js';

/** The participant recorded on turns of this format. */
export const COPILOT_AGENT_PARTICIPANT = 'copilot-agent';

export interface CopilotAgentTranscriptOptions {
  /** Session id when the file has no `session.start` line. */
  readonly sessionId?: string;
  /** Keep the last turn even when it is not finished (no final reply yet; default false). */
  readonly includeUnfinished?: boolean;
  /** What to keep of prompts and replies (code blocks in replies: one line each); default preset `compact`. */
  readonly filter?: TranscriptFilterOption;
  /** The participant recorded on the turns (Copilot CLI writes the same format: `copilot-cli`); default `copilot-agent`. */
  readonly participant?: string;
}

export interface CopilotAgentTranscriptResult {
  readonly turns: ChatTurn[];
  readonly sessionId: string | undefined;
  /** Lines that were not JSON objects with a `type`; never fatal. */
  readonly malformedLines: number;
}

interface TurnInProgress {
  readonly id: string;
  readonly userText: string;
  readonly userTimestamp: string;
  readonly assistant: string[];
  assistantTimestamp: string | undefined;
  /** The last assistant message asked for tools: the loop goes on after their results. */
  awaitingTools: boolean;
  finished: boolean;
}

/** True when the text looks like this format: its first line is a `session.start` of `copilot-agent`. */
export function isCopilotAgentTranscript(text: string): boolean {
  const line = parseJsonObject(firstLine(text));
  if (line === undefined) return false;
  const data = asRecord(line['data']);
  return line['type'] === 'session.start' && (data?.['producer'] === COPILOT_AGENT_PARTICIPANT || typeof data?.['sessionId'] === 'string');
}

/** Parses the whole transcript; never throws. */
export function parseCopilotAgentTranscript(text: string, options: CopilotAgentTranscriptOptions = {}): CopilotAgentTranscriptResult {
  const turns: ChatTurn[] = [];
  let sessionId = options.sessionId;
  let malformedLines = 0;
  let current: TurnInProgress | undefined;
  const filter = resolveTranscriptFilter(options.filter);
  const finish = (): void => {
    if (current !== undefined && (current.finished || options.includeUnfinished === true) && sessionId !== undefined) {
      const assistantText = filterReply(current.assistant.join('\n\n'), filter).trim();
      turns.push({
        id: current.id,
        sessionId,
        user: { text: filterPrompt(current.userText, filter), timestamp: current.userTimestamp },
        ...(assistantText === '' ? {} : { assistant: { text: assistantText, timestamp: current.assistantTimestamp ?? current.userTimestamp } }),
        participant: options.participant ?? COPILOT_AGENT_PARTICIPANT,
      });
    }
    current = undefined;
  };
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    const line = parseJsonObject(raw);
    if (line === undefined) {
      // A last line without its line break is a write in progress, not damage.
      if (index !== lines.length - 1) malformedLines++;
      continue;
    }
    const data = asRecord(line['data']) ?? {};
    const timestamp = typeof line['timestamp'] === 'string' ? line['timestamp'] : new Date(0).toISOString();
    switch (line['type']) {
      case 'session.start':
        if (sessionId === undefined && typeof data['sessionId'] === 'string') sessionId = data['sessionId'];
        break;
      case 'user.message': {
        // The user moved on: the turn before is as finished as it will get.
        if (current !== undefined) current.finished = true;
        finish();
        const content = typeof data['content'] === 'string' ? data['content'].trim() : '';
        const id = typeof line['id'] === 'string' ? line['id'] : undefined;
        if (content === '' || id === undefined) {
          malformedLines += id === undefined ? 1 : 0;
          break;
        }
        current = { id, userText: content, userTimestamp: timestamp, assistant: [], assistantTimestamp: undefined, awaitingTools: false, finished: false };
        break;
      }
      case 'assistant.message': {
        const content = typeof data['content'] === 'string' ? data['content'].trim() : '';
        if (current === undefined) break;
        if (content !== '') {
          current.assistant.push(content);
          current.assistantTimestamp = timestamp;
        }
        current.awaitingTools = Array.isArray(data['toolRequests']) && data['toolRequests'].length > 0;
        current.finished = false;
        break;
      }
      case 'assistant.turn_end':
        // The end of a tool round is not the end of the turn.
        if (current !== undefined && !current.awaitingTools) current.finished = true;
        break;
      case undefined:
        malformedLines++;
        break;
      default:
        // Tool lines and kinds this version does not know: not part of the conversation text.
        break;
    }
  }
  finish();
  return { turns, sessionId, malformedLines };
}
