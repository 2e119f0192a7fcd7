// Claude Code session transcripts (`~/.claude/projects/<project>/<session>.jsonl`): one JSON
// object a line, `type` user / assistant / summary / system (and bookkeeping types such as
// `file-history-snapshot`, ignored). A turn is a real user prompt — not a tool result, a meta
// line, a compaction summary or an interruption notice — plus everything the assistant did until
// the next prompt. Subagent lines (`isSidechain`) are excluded by default; lines repeated with the
// same `uuid` (resumed sessions) count once.
import type { ChatTurn, TurnToolCall } from '../ports.js';
import { asRecord, asString, isoTimestamp, JsonLinesReader, type CollectMoment } from './json-lines-reader.js';
import {
  filterPrompt,
  filterReply,
  fullToolCall,
  resolveTranscriptFilter,
  summarizeToolCall,
  summarizeToolResult,
  type TranscriptFilter,
  type TranscriptFilterOption,
} from './transcript-filter.js';
import type { TranscriptParseResult } from './transcript-types.js';

export interface ClaudeCodeTranscriptOptions {
  /** What to keep of tool calls, tool results, thinking and code in replies; default preset `compact`. */
  readonly filter?: TranscriptFilterOption;
  /** Include subagent (sidechain) prompts as turns of their own; default false. */
  readonly includeSidechains?: boolean;
  /** Session id for lines that carry none (default: the file's own `sessionId`). */
  readonly sessionId?: string;
  /** Longer lines are dropped and counted as too long; default 32 Mi characters. */
  readonly maxLineLength?: number;
  /**
   * At the end of input, keep the last turn even when it has not visibly ended (default true: a
   * whole file is a finished session). False for a session still running: a turn whose last
   * assistant line waits for a tool, or has no terminal stop reason, is left out until it ends.
   */
  readonly includeUnfinished?: boolean;
}

export const CLAUDE_CODE_PARTICIPANT = 'claude-code';

// Stop reasons that end a turn (not `tool_use`, not `pause_turn`, not null).
const TERMINAL_STOP_REASONS = new Set(['end_turn', 'stop_sequence', 'max_tokens', 'refusal']);
// User lines that are not prompts: local command output, caveats, interruption notices.
const NOT_A_PROMPT = /^\s*(?:<local-command-(?:stdout|stderr|caveat)>|<command-(?:stdout|stderr)>|\[Request interrupted by user)/;
const COMMAND_NAME = /<command-name>([\s\S]*?)<\/command-name>/;
const COMMAND_ARGUMENTS = /<command-args>([\s\S]*?)<\/command-args>/;

interface Part {
  readonly text: string;
  /** Tool lines are joined with single line breaks, prose with blank lines. */
  readonly tool: boolean;
}

interface TurnInProgress {
  readonly id: string;
  readonly sessionId: string;
  readonly userText: string;
  readonly userTimestamp: string;
  readonly parts: Part[];
  assistantTimestamp?: string;
  /** Characters of everything the turn held, before filtering. */
  fullCharacters: number;
  /** The last assistant line ended the turn (terminal stop reason), or a turn-end marker followed. */
  looksComplete: boolean;
  /** For the structured mirror: each tool call (by its `tool_use` id) and its result. */
  readonly toolCalls: Array<TurnToolCall & { readonly useId: string | undefined }>;
  /** The earlier turn this prompt continues from when that is not the turn just before it (a rewind). */
  readonly replayParent: string | undefined;
}

export class ClaudeCodeTranscriptReader extends JsonLinesReader {
  readonly format = 'claude-code' as const;
  private readonly filter: TranscriptFilter;
  private readonly seenUuids = new Set<string>();
  private readonly fullSizes = new WeakMap<ChatTurn, number>();
  private readonly ready: ChatTurn[] = [];
  /** The open turn of the main thread, and of the subagent (sidechain) thread when included. */
  private main: TurnInProgress | undefined;
  private sidechain: TurnInProgress | undefined;
  private lastTimestamp: string | undefined;
  /** Main-thread line uuid → the turn it belongs to: how a rewound prompt finds the turn it continues. */
  private readonly lineTurns = new Map<string, string>();
  private lastTurnId: string | undefined;
  private cwd: string | undefined;
  private skipped = 0;

  constructor(private readonly options: ClaudeCodeTranscriptOptions = {}) {
    super(options.maxLineLength);
    this.filter = resolveTranscriptFilter(options.filter);
  }

  protected handle(line: Record<string, unknown>): boolean {
    const type = asString(line['type']);
    if (type === undefined) return false;
    const uuid = asString(line['uuid']);
    if (uuid !== undefined) {
      if (this.seenUuids.has(uuid)) return true;
      this.seenUuids.add(uuid);
    }
    const timestamp = line['timestamp'];
    if (timestamp !== undefined) this.lastTimestamp = isoTimestamp(timestamp, this.lastTimestamp);
    this.cwd = asString(line['cwd']) ?? this.cwd;
    if (type === 'user' || type === 'assistant') {
      const message = asRecord(line['message']);
      if (message === undefined) return false;
      const sidechain = line['isSidechain'] === true;
      if (sidechain && this.options.includeSidechains !== true) {
        if (type === 'user' && promptText(message['content']) !== undefined && line['isMeta'] !== true) this.skipped += 1;
        return true;
      }
      if (type === 'user') this.handleUser(line, message, uuid, sidechain);
      else this.handleAssistant(line, message, sidechain);
      if (!sidechain && uuid !== undefined && this.main !== undefined) this.lineTurns.set(uuid, this.main.id);
      return true;
    }
    if (type === 'system' && this.main !== undefined && line['isSidechain'] !== true) {
      // Claude Code writes these after the assistant finished a turn.
      const subtype = asString(line['subtype']);
      if (subtype === 'turn_duration' || subtype === 'stop_hook_summary') this.main.looksComplete = true;
    }
    return true;
  }

  private handleUser(line: Record<string, unknown>, message: Record<string, unknown>, uuid: string | undefined, sidechain: boolean): void {
    const content = message['content'];
    if (Array.isArray(content)) {
      // A tool result on the main thread means any subagent it waited for has finished.
      if (!sidechain && content.some((block) => asRecord(block)?.['type'] === 'tool_result')) this.finish(true);
      this.addToolResults(content, sidechain);
    }
    if (line['isMeta'] === true || line['isCompactSummary'] === true) return;
    const text = promptText(content);
    if (text === undefined) return;
    this.finish(sidechain);
    const timestamp = isoTimestamp(line['timestamp'], this.lastTimestamp);
    const parentLine = asString(line['parentUuid']);
    const continues = sidechain || parentLine === undefined ? undefined : this.lineTurns.get(parentLine);
    const turn: TurnInProgress = {
      toolCalls: [],
      replayParent: continues !== undefined && continues !== this.lastTurnId ? continues : undefined,
      id: uuid ?? `line-${timestamp}-${this.seenUuids.size}`,
      sessionId: asString(line['sessionId']) ?? this.options.sessionId ?? 'claude-code-session',
      userText: text,
      userTimestamp: timestamp,
      parts: [],
      fullCharacters: text.length,
      looksComplete: false,
    };
    if (sidechain) this.sidechain = turn;
    else this.main = turn;
  }

  private handleAssistant(line: Record<string, unknown>, message: Record<string, unknown>, sidechain: boolean): void {
    const turn = sidechain ? this.sidechain : this.main;
    if (turn === undefined || line['isApiErrorMessage'] === true) return;
    turn.assistantTimestamp = isoTimestamp(line['timestamp'], this.lastTimestamp);
    const content = message['content'];
    const blocks: unknown[] = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
    for (const value of blocks) {
      const block = asRecord(value);
      if (block === undefined) continue;
      switch (block['type']) {
        case 'text': {
          const text = asString(block['text']) ?? '';
          turn.fullCharacters += text.length;
          const kept = filterReply(text, this.filter);
          if (kept.trim() !== '') turn.parts.push({ text: kept, tool: false });
          break;
        }
        case 'tool_use': {
          const name = asString(block['name']) ?? 'tool';
          const full = fullToolCall(name, block['input']);
          turn.fullCharacters += full.length;
          turn.toolCalls.push({ useId: asString(block['id']), name, summary: summarizeToolCall(name, block['input'], this.cwd) });
          if (this.filter.toolCalls === 'full') turn.parts.push({ text: full, tool: true });
          else if (this.filter.toolCalls === 'summary') turn.parts.push({ text: summarizeToolCall(name, block['input'], this.cwd), tool: true });
          break;
        }
        case 'thinking': {
          const thinking = asString(block['thinking']) ?? '';
          turn.fullCharacters += thinking.length;
          if (this.filter.thinking === 'full' && thinking.trim() !== '') turn.parts.push({ text: thinking, tool: false });
          else if (this.filter.thinking === 'summary') turn.parts.push({ text: '[thinking]', tool: true });
          break;
        }
        default:
          break;
      }
    }
    const stopReason = asString(message['stop_reason']);
    turn.looksComplete = stopReason !== undefined && TERMINAL_STOP_REASONS.has(stopReason);
  }

  private addToolResults(content: readonly unknown[], sidechain: boolean): void {
    const turn = sidechain ? this.sidechain : this.main;
    if (turn === undefined) return;
    for (const value of content) {
      const block = asRecord(value);
      if (block?.['type'] !== 'tool_result') continue;
      const text = toolResultText(block['content']);
      turn.fullCharacters += text.length;
      const useId = asString(block['tool_use_id']);
      const index = turn.toolCalls.findIndex((call) => call.useId !== undefined && call.useId === useId && call.result === undefined);
      const call = turn.toolCalls[index];
      if (call !== undefined) turn.toolCalls[index] = { ...call, result: { text, isError: block['is_error'] === true } };
      turn.looksComplete = false;
      if (this.filter.toolResults === 'full') {
        if (text.trim() !== '') turn.parts.push({ text, tool: true });
      } else if (this.filter.toolResults === 'summary') {
        turn.parts.push({ text: summarizeToolResult(text, block['is_error'] === true), tool: true });
      }
    }
  }

  private finish(sidechain: boolean): void {
    const turn = sidechain ? this.sidechain : this.main;
    if (turn === undefined) return;
    if (sidechain) this.sidechain = undefined;
    else {
      this.main = undefined;
      this.lastTurnId = turn.id;
    }
    const userText = filterPrompt(turn.userText, this.filter);
    const assistantText = joinParts(turn.parts);
    const chatTurn: ChatTurn = {
      id: turn.id,
      sessionId: turn.sessionId,
      user: { text: userText, timestamp: turn.userTimestamp },
      ...(assistantText === ''
        ? {}
        : { assistant: { text: assistantText, timestamp: turn.assistantTimestamp ?? turn.userTimestamp } }),
      participant: CLAUDE_CODE_PARTICIPANT,
      ...structureOf(turn),
    };
    this.fullSizes.set(chatTurn, turn.fullCharacters);
    this.ready.push(chatTurn);
  }

  protected collect(moment: CollectMoment): ChatTurn[] {
    // A turn ends at the next prompt; at idle only when it visibly ended; at the end of input
    // always, unless the session may still be running (`includeUnfinished: false`).
    const always = moment === 'end' && this.options.includeUnfinished !== false;
    const ifEnded = moment !== 'push';
    if (always || (ifEnded && this.sidechain?.looksComplete === true)) this.finish(true);
    if (always || (ifEnded && this.main?.looksComplete === true)) this.finish(false);
    return this.ready.splice(0, this.ready.length);
  }

  protected skippedTurns(): number {
    return this.skipped;
  }

  protected override fullCharacters(turn: ChatTurn): number {
    return this.fullSizes.get(turn) ?? super.fullCharacters(turn);
  }
}

/** What the structured mirror reads of a turn: its tool calls (name, summary, result) and a rewind's parent. */
function structureOf(turn: TurnInProgress): Pick<ChatTurn, 'structure'> {
  if (turn.toolCalls.length === 0 && turn.replayParent === undefined) return {};
  const toolCalls = turn.toolCalls.map(({ useId: _useId, ...call }) => call);
  return { structure: { ...(toolCalls.length === 0 ? {} : { toolCalls }), ...(turn.replayParent === undefined ? {} : { replayParent: turn.replayParent }) } };
}

/** The prompt text of a user line's content, or `undefined` when the line is not a prompt. */
function promptText(content: unknown): string | undefined {
  let text: string;
  if (typeof content === 'string') {
    text = content;
  } else if (Array.isArray(content)) {
    if (content.some((block) => asRecord(block)?.['type'] === 'tool_result')) return undefined;
    text = content
      .map((block) => {
        const record = asRecord(block);
        return record?.['type'] === 'text' ? (asString(record['text']) ?? '') : '';
      })
      .filter((part) => part.trim() !== '')
      .join('\n\n');
  } else {
    return undefined;
  }
  if (text.trim() === '' || NOT_A_PROMPT.test(text)) return undefined;
  // A slash command: keep what the user typed (`/review src`), not the wrapper tags.
  const command = COMMAND_NAME.exec(text);
  if (command) {
    const commandArguments = COMMAND_ARGUMENTS.exec(text)?.[1]?.trim() ?? '';
    return `${command[1]?.trim() ?? ''}${commandArguments === '' ? '' : ` ${commandArguments}`}`.trim() || undefined;
  }
  return text.trim();
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => {
      const record = asRecord(block);
      return record?.['type'] === 'text' ? (asString(record['text']) ?? '') : '';
    })
    .join('\n');
}

function joinParts(parts: readonly Part[]): string {
  let text = '';
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index];
    if (part === undefined) continue;
    if (index > 0) text += part.tool && parts[index - 1]?.tool === true ? '\n' : '\n\n';
    text += part.text;
  }
  return text.trim();
}

/** Parses a whole Claude Code transcript. Never throws. */
export function parseClaudeCodeTranscript(text: string, options?: ClaudeCodeTranscriptOptions): TranscriptParseResult {
  return new ClaudeCodeTranscriptReader(options).parseAll(text);
}
