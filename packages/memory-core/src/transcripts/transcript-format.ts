// Which parser a file needs, and one entry point for all of them.
import { ClaudeCodeTranscriptReader, parseClaudeCodeTranscript, type ClaudeCodeTranscriptOptions } from './claude-code-transcript.js';
import { asString } from './json-lines-reader.js';
import { JsonlTranscriptReader, parseJsonlTranscript, type JsonlTranscriptOptions } from './jsonl-transcript.js';
import { parseJsonObject } from './line-splitter.js';
import type { TranscriptFormat, TranscriptParseResult, TranscriptReader } from './transcript-types.js';
import { parseVsCodeChatSession, VsCodeChatSessionReader, type VsCodeChatSessionOptions } from './vscode-chat-session.js';

export type TranscriptOptions = ClaudeCodeTranscriptOptions & VsCodeChatSessionOptions & JsonlTranscriptOptions;

const CLAUDE_CODE_TYPES = new Set(['user', 'assistant', 'summary', 'system', 'file-history-snapshot', 'queue-operation', 'progress']);
const LINES_TO_INSPECT = 50;

/**
 * Recognises a transcript by its path (VS Code `chatSessions` folders, `~/.claude/projects`) or
 * by its first lines. `undefined` when it is none of the known formats.
 */
export function detectTranscriptFormat(text: string, fileName?: string): TranscriptFormat | undefined {
  if (fileName !== undefined) {
    if (/(?:^|[\\/])(?:chatSessions|emptyWindowChatSessions)[\\/][^\\/]+\.jsonl?$/.test(fileName)) return 'vscode-chat';
    if (/(?:^|[\\/])\.claude[\\/]projects[\\/]/.test(fileName)) return 'claude-code';
  }
  if (typeof text !== 'string') return undefined;
  let start = 0;
  for (let inspected = 0; inspected < LINES_TO_INSPECT && start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const line = text.slice(start, newline === -1 ? text.length : newline);
    start = newline === -1 ? text.length : newline + 1;
    if (line.trim() === '') continue;
    inspected += 1;
    const format = formatOfLine(parseJsonObject(line));
    if (format !== undefined) return format;
  }
  // The flat `.json` session object, possibly pretty-printed.
  const whole = text.trimStart().startsWith('{') ? parseJsonObject(text) : undefined;
  return whole !== undefined && Array.isArray(whole['requests']) ? 'vscode-chat' : undefined;
}

function formatOfLine(line: Record<string, unknown> | undefined): TranscriptFormat | undefined {
  if (line === undefined) return undefined;
  const kind = line['kind'];
  if (typeof kind === 'number' && kind >= 0 && kind <= 3 && ('v' in line || 'k' in line)) return 'vscode-chat';
  if (!('kind' in line) && Array.isArray(line['requests'])) return 'vscode-chat';
  const type = asString(line['type']);
  if (type !== undefined && CLAUDE_CODE_TYPES.has(type) && ('uuid' in line || 'sessionId' in line || 'leafUuid' in line || 'messageId' in line)) {
    return 'claude-code';
  }
  if (typeof line['role'] === 'string' && ('content' in line || 'text' in line)) return 'jsonl';
  return undefined;
}

/**
 * Parses a transcript of the given format, or of the detected one with `'auto'` (using
 * `options.fileName` as a hint). `undefined` when `'auto'` recognises nothing. Never throws.
 */
export function parseTranscript(
  text: string,
  format: TranscriptFormat | 'auto',
  options: TranscriptOptions & { readonly fileName?: string } = {},
): TranscriptParseResult | undefined {
  const resolved = format === 'auto' ? detectTranscriptFormat(text, options.fileName) : format;
  switch (resolved) {
    case 'claude-code':
      return parseClaudeCodeTranscript(text, options);
    case 'vscode-chat':
      return parseVsCodeChatSession(text, options);
    case 'jsonl':
      return parseJsonlTranscript(text, options);
    default:
      return undefined;
  }
}

/**
 * An incremental reader for watchers (see `TranscriptReader`). For the flat VS Code `.json`
 * variant, which is rewritten as a whole, re-parse the file with `parseVsCodeChatSession` instead.
 */
export function createTranscriptReader(format: TranscriptFormat, options: TranscriptOptions = {}): TranscriptReader {
  switch (format) {
    case 'claude-code':
      return new ClaudeCodeTranscriptReader(options);
    case 'vscode-chat':
      return new VsCodeChatSessionReader(options);
    case 'jsonl':
      return new JsonlTranscriptReader(options);
    default:
      throw new TypeError(
        `createTranscriptReader: unknown format ${JSON.stringify(format)}; use one of claude-code, vscode-chat, jsonl (or detectTranscriptFormat first).`,
      );
  }
}
