import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32, crc32Fallback } from './crc32.js';
import { decodeJournalLine, encodeJournalLine, scanJournal } from './journal-line.js';

describe('crc32', () => {
  it('matches the standard check value and the built-in implementation', () => {
    expect(crc32Fallback('123456789')).toBe(0xcbf43926);
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => crc32Fallback(text) === crc32(text)));
  });
});

describe('journal lines', () => {
  it('round-trips values and rejects any single changed character', () => {
    const line = encodeJournalLine({ t: 'confirmed', ids: ['a-1', 'a-2'] });
    expect(decodeJournalLine(line.slice(0, -1))).toEqual({ ok: true, value: { t: 'confirmed', ids: ['a-1', 'a-2'] } });
    for (let index = 0; index < line.length - 1; index++) {
      const damaged = line.slice(0, index) + (line[index] === 'x' ? 'y' : 'x') + line.slice(index + 1, -1);
      expect(decodeJournalLine(damaged).ok).toBe(false);
    }
  });

  it('counts a torn tail and corrupt lines, and reports where appending may continue', () => {
    const good = encodeJournalLine({ n: 1 }) + encodeJournalLine({ n: 2 });
    const corrupt = '0000dead {"n":3}\n';
    const torn = encodeJournalLine({ n: 4 }).slice(0, 7);
    const scan = scanJournal(Buffer.from(good + corrupt + torn));
    expect(scan.values).toEqual([{ n: 1 }, { n: 2 }]);
    expect(scan.corruptLines).toBe(1);
    expect(scan.tornLines).toBe(1);
    expect(scan.validLength).toBe(Buffer.byteLength(good + corrupt));
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const scan = scanJournal(Buffer.from(bytes));
        return scan.validLength <= bytes.length && scan.tornLines <= 1;
      }),
    );
  });
});
