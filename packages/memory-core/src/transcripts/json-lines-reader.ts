// The shared mechanics of the transcript readers: lines from chunks, malformed lines counted,
// a partial last line kept until it completes (or declared torn at the end), token accounting.
import type { ChatTurn } from '../ports.js';
import { LineSplitter, parseJsonObject } from './line-splitter.js';
import {
  tokenReduction,
  turnCharacters,
  type TranscriptFormat,
  type TranscriptParseResult,
  type TranscriptReader,
} from './transcript-types.js';

/** When a reader is asked for turns: after a chunk, after the writer went idle, at the end of input. */
export type CollectMoment = 'push' | 'idle' | 'end';

export abstract class JsonLinesReader implements TranscriptReader {
  abstract readonly format: TranscriptFormat;
  private readonly lines: LineSplitter;
  private malformed = 0;
  private torn = false;
  private charactersBefore = 0;
  private charactersAfter = 0;

  constructor(maxLineLength?: number) {
    this.lines = new LineSplitter(maxLineLength);
  }

  push(chunk: string): ChatTurn[] {
    if (typeof chunk !== 'string') return [];
    for (const line of this.lines.push(chunk)) this.consume(line);
    if (chunk !== '') this.torn = false;
    return this.account(this.collect('push', this.lines.partial === ''));
  }

  flush(): ChatTurn[] {
    // A partial line that is already a whole JSON object is a file without a final newline.
    if (this.lines.partial !== '' && parseJsonObject(this.lines.partial) !== undefined) {
      this.consume(this.lines.takePartial());
    }
    return this.account(this.collect('idle', this.lines.partial === ''));
  }

  end(): ChatTurn[] {
    const partial = this.lines.takePartial();
    if (partial.trim() !== '') {
      if (parseJsonObject(partial) === undefined) this.torn = true;
      else this.consume(partial);
    }
    return this.account(this.collect('end', true));
  }

  stats(): Omit<TranscriptParseResult, 'turns'> {
    const unsupportedVersion = this.unsupportedVersion();
    return {
      format: this.format,
      malformedLines: this.malformed,
      tooLongLines: this.lines.droppedLines,
      skippedTurns: this.skippedTurns(),
      tornLastLine: this.torn,
      tokens: tokenReduction(this.charactersBefore, this.charactersAfter),
      ...(unsupportedVersion === undefined ? {} : { unsupportedVersion }),
    };
  }

  /** Reads everything and returns the parse result. */
  parseAll(text: string): TranscriptParseResult {
    const turns = [...this.push(typeof text === 'string' ? text : ''), ...this.end()];
    return { ...this.stats(), turns };
  }

  private consume(line: string): void {
    if (line.trim() === '') return;
    const object = parseJsonObject(line);
    if (object === undefined || !this.handle(object)) this.malformed += 1;
  }

  private account(turns: ChatTurn[]): ChatTurn[] {
    for (const turn of turns) {
      this.charactersAfter += turnCharacters(turn);
      this.charactersBefore += this.fullCharacters(turn);
    }
    return turns;
  }

  /** Applies one JSON line; `false` when it is malformed for this format. */
  protected abstract handle(line: Record<string, unknown>): boolean;
  /**
   * The turns to hand out now. `atLineBoundary` is false while a line is still partial, that is,
   * while a write may be in progress.
   */
  protected abstract collect(moment: CollectMoment, atLineBoundary: boolean): ChatTurn[];
  protected abstract skippedTurns(): number;
  protected unsupportedVersion(): number | string | undefined {
    return undefined;
  }
  /** Characters of the turn before filtering; readers without filters return the turn's own size. */
  protected fullCharacters(turn: ChatTurn): number {
    return turnCharacters(turn);
  }
}

const EPOCH = '1970-01-01T00:00:00.000Z';

/** An ISO timestamp from an ISO string or epoch milliseconds, else the fallback. */
export function isoTimestamp(value: unknown, fallback: string | undefined): string {
  if (typeof value === 'string' || typeof value === 'number') {
    const time = typeof value === 'number' ? value : Date.parse(value);
    if (Number.isFinite(time) && Math.abs(time) <= 8.64e15) return new Date(time).toISOString();
  }
  return fallback ?? EPOCH;
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
