// Shared shapes of the transcript parsers and readers.
import type { ChatTurn } from '../ports.js';

export type TranscriptFormat = 'claude-code' | 'vscode-chat' | 'jsonl';
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = ['claude-code', 'vscode-chat', 'jsonl'];

/** Estimated tokens (⌈characters / 4⌉) of the kept turns, before and after filtering. */
export interface TokenReduction {
  readonly before: number;
  readonly after: number;
  /** `(before - after) / before`, between 0 and 1; 0 when there was nothing. */
  readonly reduction: number;
}

export interface TranscriptParseResult {
  readonly format: TranscriptFormat;
  /** Finalized turns, in file order. */
  readonly turns: ChatTurn[];
  /** Lines that were not JSON objects of the format, or could not be applied. Never fatal. */
  readonly malformedLines: number;
  /** Lines longer than the reader's limit (`maxLineLength`), skipped unread. Never fatal. */
  readonly tooLongLines: number;
  /** Turns seen but not returned: unfinished, cancelled, failed, subagent, without user text. */
  readonly skippedTurns: number;
  /** Set when the file declares a version this parser does not know; `turns` is then empty. */
  readonly unsupportedVersion?: number | string;
  /** The last line had no line break and was not valid JSON: a write in progress, skipped. */
  readonly tornLastLine: boolean;
  readonly tokens: TokenReduction;
}

/**
 * Incremental parsing for watchers: feed appended text as it arrives. Keep one reader per file
 * and offset; when the file shrinks or is rewritten (VS Code compacts its logs into one snapshot
 * line), start a new reader from the beginning — turn ids are stable, so re-emitted turns dedupe.
 */
export interface TranscriptReader {
  readonly format: TranscriptFormat;
  /** Feeds the next chunk; returns the turns known to be complete now. A partial last line is kept. */
  push(chunk: string): ChatTurn[];
  /** The writer went idle: returns held turns that are complete; a partial line is still kept. */
  flush(): ChatTurn[];
  /** End of input: returns every remaining turn; a partial last line that is not JSON is torn. */
  end(): ChatTurn[];
  /** Counters so far (the same fields as a parse result, without the turns). */
  stats(): Omit<TranscriptParseResult, 'turns'>;
}

export function tokenEstimate(characters: number): number {
  return Math.ceil(characters / 4);
}

export function tokenReduction(charactersBefore: number, charactersAfter: number): TokenReduction {
  const before = tokenEstimate(charactersBefore);
  const after = tokenEstimate(charactersAfter);
  return { before, after, reduction: before === 0 ? 0 : Math.max(0, (before - after) / before) };
}

/** Characters of a turn's text as sent: user, assistant and system text. */
export function turnCharacters(turn: ChatTurn): number {
  return turn.user.text.length + (turn.assistant?.text.length ?? 0) + (turn.system?.length ?? 0);
}
