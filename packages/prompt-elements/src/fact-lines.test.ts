// Fitting lines into one memory block: the header counts, whole lines only, and what happens to a
// line that does not fit (stop there, or skip it and go on).
import { describe, expect, it } from 'vitest';
import { fitMemoryLines, memoryBlock } from './fact-lines.js';

const characters = (text: string): number => text.length;

describe('fitMemoryLines', () => {
  const header = ['Brief:'];
  const base = memoryBlock([...header, '- a']).length;

  it('keeps whole lines after the header while they fit, and stops at the first that does not', async () => {
    const fitted = await fitMemoryLines(['- a', '- a very long line that does not fit', '- b'], base + 4, characters, { header });
    expect(fitted).toEqual({ text: memoryBlock([...header, '- a']), kept: 1, dropped: 2 });
  });

  it('with overflow skip, leaves out a line that does not fit and keeps the later ones that do', async () => {
    const fitted = await fitMemoryLines(['- a', '- a very long line that does not fit', '- b'], base + 4, characters, { header, overflow: 'skip' });
    expect(fitted).toEqual({ text: memoryBlock([...header, '- a', '- b']), kept: 2, dropped: 1 });
  });

  it('renders nothing when not even one line fits (the header alone is no block)', async () => {
    expect(await fitMemoryLines(['- a'], base - 1, characters, { header })).toBeUndefined();
    expect(await fitMemoryLines([], 10_000, characters, { header })).toBeUndefined();
  });
});
