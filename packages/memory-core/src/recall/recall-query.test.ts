import { describe, expect, it } from 'vitest';
import { MAX_RECALL_QUERY_CHARS, RECALL_QUERY_GAP_MARKER, RECALL_QUERY_HEAD_CHARS, RECALL_QUERY_TAIL_CHARS, recallQueryOf } from './recall-query.js';

describe('recallQueryOf', () => {
  it('keeps a prompt that fits as it is (trimmed)', () => {
    expect(recallQueryOf('  which port does the cache use?  ')).toBe('which port does the cache use?');
    const fits = 'x'.repeat(MAX_RECALL_QUERY_CHARS);
    expect(recallQueryOf(fits)).toBe(fits);
  });

  it('keeps the start and the end of a 3 MB prompt, with a marker between, and nothing of the middle', () => {
    const start = `why does the deploy fail? ${'a'.repeat(RECALL_QUERY_HEAD_CHARS)}`;
    const middle = 'MIDDLE'.repeat(500_000);
    const end = `${'z'.repeat(RECALL_QUERY_TAIL_CHARS)} the last line asks about port 8443`;
    const query = recallQueryOf(`${start}${middle}${end}`);
    expect(query.length).toBeLessThanOrEqual(MAX_RECALL_QUERY_CHARS);
    expect(query.startsWith('why does the deploy fail?')).toBe(true);
    expect(query.endsWith('the last line asks about port 8443')).toBe(true);
    expect(query).toContain(RECALL_QUERY_GAP_MARKER);
    expect(query).not.toContain('MIDDLE');
  });

  it('never leaves half of a surrogate pair at either cut', () => {
    const emoji = '😀';
    const prompt = `${'a'.repeat(RECALL_QUERY_HEAD_CHARS - 1)}${emoji}${'m'.repeat(10_000)}${emoji}${'b'.repeat(RECALL_QUERY_TAIL_CHARS - 1)}`;
    const query = recallQueryOf(prompt);
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    expect(loneSurrogate.test(query)).toBe(false);
    // The cut at the head fell inside the emoji: it is dropped whole, as is the tail's.
    expect(query.startsWith('a'.repeat(RECALL_QUERY_HEAD_CHARS - 1))).toBe(true);
  });
});
