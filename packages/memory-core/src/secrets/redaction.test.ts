import { describe, expect, it } from 'vitest';
import { applyRedactions } from './redaction.js';

describe('applyRedactions', () => {
  it('returns the text itself when there is nothing to redact', () => {
    expect(applyRedactions('plain', [])).toEqual({ text: 'plain', findings: [] });
  });

  it('merges overlapping spans into one marker of the most specific kind', () => {
    const text = 'a SECRETVALUE b';
    const result = applyRedactions(text, [
      { start: 2, end: 8, kind: 'high-entropy', priority: 1 },
      { start: 4, end: 13, kind: 'github-token', priority: 4 },
      { start: 2, end: 13, kind: 'secret', priority: 2 },
    ]);
    expect(result).toEqual({ text: 'a [REDACTED:github-token] b', findings: [{ kind: 'github-token', count: 1 }] });
  });

  it('keeps adjacent spans separate and sorts findings by kind', () => {
    const result = applyRedactions('xxyyzz', [
      { start: 4, end: 6, kind: 'b-kind', priority: 1 },
      { start: 0, end: 2, kind: 'b-kind', priority: 1 },
      { start: 2, end: 4, kind: 'a-kind', priority: 1 },
    ]);
    expect(result.text).toBe('[REDACTED:b-kind][REDACTED:a-kind][REDACTED:b-kind]');
    expect(result.findings).toEqual([
      { kind: 'a-kind', count: 1 },
      { kind: 'b-kind', count: 2 },
    ]);
  });

  it('ignores empty and out-of-range spans', () => {
    expect(
      applyRedactions('abc', [
        { start: 1, end: 1, kind: 'x', priority: 1 },
        { start: 2, end: 9, kind: 'x', priority: 1 },
        { start: -1, end: 2, kind: 'x', priority: 1 },
      ]),
    ).toEqual({ text: 'abc', findings: [] });
  });
});
