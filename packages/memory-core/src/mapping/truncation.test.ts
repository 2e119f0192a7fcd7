import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncateText } from './truncation.js';

describe('truncateText', () => {
  it('leaves text that fits alone', () => {
    expect(truncateText('hello', 200)).toBe('hello');
    expect(truncateText('x'.repeat(200), 200)).toBe('x'.repeat(200));
  });

  it('cuts with a visible marker that counts the removed characters', () => {
    const result = truncateText('x'.repeat(1000), 200);
    expect(result).toHaveLength(200);
    expect(result).toMatch(/^x+\n… \[truncated (\d+) characters\]$/);
    const removed = Number(/truncated (\d+)/.exec(result)?.[1]);
    expect(result.indexOf('\n') + removed).toBe(1000);
  });

  it('never splits a surrogate pair', () => {
    const result = truncateText('😀'.repeat(500), 201);
    const kept = result.slice(0, result.indexOf('\n'));
    expect(kept).toBe('😀'.repeat(kept.length / 2));
  });

  it('refuses a limit with no room for the marker', () => {
    expect(() => truncateText('x'.repeat(100), 10)).toThrow(/leaves no room for the truncation marker/);
  });

  it('keeps within the limit, keeps a prefix and reports exactly what was cut (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'é', '😀', '\n', ' ', 'z'), maxLength: 3000 }),
        fc.integer({ min: 200, max: 2000 }),
        (text, max) => {
          const result = truncateText(text, max);
          expect(result.length).toBeLessThanOrEqual(max);
          if (text.length <= max) {
            expect(result).toBe(text);
            return;
          }
          const match = /\n… \[truncated (\d+) characters\]$/.exec(result);
          expect(match).not.toBeNull();
          const kept = result.slice(0, match?.index);
          expect(text.startsWith(kept)).toBe(true);
          expect(kept.length + Number(match?.[1])).toBe(text.length);
        },
      ),
    );
  });
});
