// Splits appended text into complete lines without rescanning or re-copying what was seen:
// transcript lines can be hundreds of kilobytes and arrive in many chunks.

export class LineSplitter {
  private pending = '';
  /** How far `pending` was already searched for a line break. */
  private scanned = 0;
  /** Dropping an over-long line until its line break arrives. */
  private discarding = false;
  /** Lines dropped for being longer than the cap. */
  droppedLines = 0;

  /** @param maxLineLength longer lines are dropped (and counted), so memory stays bounded. */
  constructor(private readonly maxLineLength = 32 * 1024 * 1024) {}

  /** Adds a chunk; returns the lines it completed, without their line breaks (`\r\n` too). */
  push(chunk: string): string[] {
    if (chunk === '') return [];
    this.pending = this.pending === '' ? chunk : this.pending + chunk;
    const lines: string[] = [];
    let start = 0;
    let newline = this.pending.indexOf('\n', this.scanned);
    while (newline !== -1) {
      if (this.discarding || newline - start > this.maxLineLength) {
        this.discarding = false;
        this.droppedLines += 1;
      } else {
        const end = newline > start && this.pending.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
        lines.push(this.pending.slice(start, end));
      }
      start = newline + 1;
      newline = this.pending.indexOf('\n', start);
    }
    this.pending = start === 0 ? this.pending : this.pending.slice(start);
    if (this.pending.length > this.maxLineLength) {
      this.discarding = true;
      this.pending = '';
    }
    this.scanned = this.pending.length;
    return lines;
  }

  /** The text after the last line break (a line still being written, or a file without a final newline). */
  get partial(): string {
    return this.discarding ? '' : this.pending;
  }

  /** Takes the partial line out (after it turned out to be complete, or torn). */
  takePartial(): string {
    const partial = this.partial;
    if (this.discarding) this.droppedLines += 1;
    this.pending = '';
    this.scanned = 0;
    this.discarding = false;
    return partial;
  }
}

/** Parses a JSON line; `undefined` for blank lines, non-JSON and anything but an object. */
export function parseJsonObject(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed[0] !== '{') return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a partial last line is a complete JSON object (a file that does not end with a newline). */
export function isCompleteJsonObject(line: string): boolean {
  return parseJsonObject(line) !== undefined;
}

/** The text up to its first newline (all of it when there is none): where a transcript says what it is. */
export function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}
