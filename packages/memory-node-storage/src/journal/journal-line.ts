// One journal line: `<crc32 as 8 hex digits> <json>\n`. The checksum covers the JSON text, so a
// line cut short by a crash, or damaged on disk, is recognised and skipped instead of replayed.
import { crc32 } from './crc32.js';

export function encodeJournalLine(value: unknown): string {
  const json = JSON.stringify(value);
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

export type DecodedLine = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

/** Decodes one line without its line break. */
export function decodeJournalLine(line: string): DecodedLine {
  if (line.length < 10 || line[8] !== ' ') return { ok: false };
  const checksum = Number.parseInt(line.slice(0, 8), 16);
  const json = line.slice(9);
  if (!Number.isFinite(checksum) || crc32(json) !== checksum) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(json) as unknown };
  } catch {
    return { ok: false };
  }
}

export interface JournalScan {
  /** Decoded values of the good lines, in file order. */
  readonly values: unknown[];
  /** Complete lines (ending in a line break) whose checksum or JSON was wrong. */
  readonly corruptLines: number;
  /** 1 when the file ended in a partial line (a write cut short), else 0. */
  readonly tornLines: number;
  /** Bytes up to and including the last line break: where appending may continue. */
  readonly validLength: number;
  readonly lineCount: number;
}

/** Splits a journal's bytes into lines and decodes them; never throws on bad content. */
export function scanJournal(content: Buffer): JournalScan {
  const values: unknown[] = [];
  let corruptLines = 0;
  let lineCount = 0;
  let start = 0;
  for (;;) {
    const end = content.indexOf(0x0a, start);
    if (end === -1) break;
    const decoded = decodeJournalLine(content.toString('utf8', start, end));
    if (decoded.ok) values.push(decoded.value);
    else corruptLines++;
    lineCount++;
    start = end + 1;
  }
  return { values, corruptLines, tornLines: start < content.length ? 1 : 0, validLength: start, lineCount };
}
