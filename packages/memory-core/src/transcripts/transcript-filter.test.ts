// Code blocks under the filter: one line per block in compact replies, kept (and cut to 40 lines)
// in prompts, kept whole by `full` and `conversation`.
import { describe, expect, it } from 'vitest';
import { filterPrompt, filterReply, resolveTranscriptFilter, summarizeCodeBlock, TRANSCRIPT_FILTER_PRESETS } from './transcript-filter.js';

const block = (language: string, lines: number, fence = '```'): string =>
  [`${fence}${language}`, ...Array.from({ length: lines }, (_, index) => `const value${index} = ${index};`), fence].join('\n');

const compact = TRANSCRIPT_FILTER_PRESETS.compact;

describe('filterReply', () => {
  it('compact turns each fenced block of a reply into one line and keeps the prose around it', () => {
    const reply = `I added the limit to the schema:\n\n${block('ts', 42)}\n\nand a test for it:\n\n${block('', 5)}\n\nAll tests pass.`;
    expect(filterReply(reply, compact)).toBe(
      'I added the limit to the schema:\n\n[code: ts, 42 lines]\n\nand a test for it:\n\n[code: 5 lines]\n\nAll tests pass.',
    );
  });

  it('keeps a block of up to 3 short lines as written: a command costs what its summary would', () => {
    const reply = 'Then migrate:\n\n```sh\npnpm db:migrate\n```\n\nDone.';
    expect(filterReply(reply, compact)).toBe(reply);
    const long = `Then:\n\n\`\`\`sh\n${'x'.repeat(161)}\n\`\`\``;
    expect(filterReply(long, compact)).toBe('Then:\n\n[code: sh, 1 line]');
  });

  it('names the file a block says it belongs to, and keeps a list item indentation', () => {
    const lines = Array.from({ length: 4 }, (_, index) => `   export const a${index} = ${index};`);
    const reply = ['1. Change the reader:', '   ```typescript', '   // filepath: src/config/settings.ts', ...lines, '   ```', '2. Run the tests.'].join('\n');
    expect(filterReply(reply, compact)).toBe('1. Change the reader:\n   [code: typescript, 5 lines, src/config/settings.ts]\n2. Run the tests.');
  });

  it('reads fences as CommonMark does: ~~~, a longer fence around a shorter one, an unclosed block to the end', () => {
    expect(filterReply(`Before.\n${block('py', 4, '~~~')}\nAfter.`, compact)).toBe('Before.\n[code: py, 4 lines]\nAfter.');
    const nested = ['````md', 'A README holds:', '```sh', 'npm test', '```', '````', 'Done.'].join('\n');
    expect(filterReply(nested, compact)).toBe('[code: md, 4 lines]\nDone.');
    expect(filterReply('Start:\n```ts\nconst a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;', compact)).toBe('Start:\n[code: ts, 4 lines]');
    // One line of backticks around a word is inline code, not a fence.
    expect(filterReply('Use ```npm ci``` in CI.', compact)).toBe('Use ```npm ci``` in CI.');
  });

  it('gives no language for an info string that is not one word of a language name', () => {
    expect(summarizeCodeBlock({ opening: '```{{ AKIA secret }}', info: '{{ AKIA secret }}', body: ['x'], closing: '```' })).toBe('[code: 1 line]');
  });

  it('keeps code whole under full and conversation, and when code is set to full', () => {
    const reply = `Here:\n\n${block('ts', 12)}\n\nDone.`;
    expect(filterReply(reply, TRANSCRIPT_FILTER_PRESETS.full)).toBe(reply);
    expect(filterReply(reply, TRANSCRIPT_FILTER_PRESETS.conversation)).toBe(reply);
    expect(filterReply(reply, resolveTranscriptFilter({ code: 'full' }))).toBe(reply);
  });

  it('drops code under code omit, leaving one blank line, and applies the assistant mode after the code', () => {
    const reply = `Here:\n\n${block('ts', 12)}\n\nDone.`;
    expect(filterReply(reply, resolveTranscriptFilter({ code: 'omit' }))).toBe('Here:\n\nDone.');
    expect(filterReply(reply, resolveTranscriptFilter({ assistant: 'omit' }))).toBe('');
    // Summary keeps 280 characters: of the summarised text, so the prose after the code survives.
    const prose = 'Word '.repeat(40).trimEnd();
    const long = `${prose}\n\n${block('ts', 200)}\n\nThe end.`;
    expect(filterReply(long, resolveTranscriptFilter({ assistant: 'summary' }))).toBe(`${prose}\n\n[code: ts, 200 lines]\n\nThe end.`);
  });
});

describe('filterPrompt', () => {
  it('keeps code the user pasted, cut to its first 40 lines unless code is full', () => {
    const short = `Why does this fail?\n\n${block('ts', 10)}`;
    expect(filterPrompt(short, compact)).toBe(short);
    const pasted = `This log:\n${block('', 100)}\nwhat broke?`;
    const cut = filterPrompt(pasted, compact).split('\n');
    expect(cut).toHaveLength(1 + 1 + 40 + 1 + 1 + 1);
    expect(cut.slice(0, 3)).toEqual(['This log:', '```', 'const value0 = 0;']);
    expect(cut.slice(-4)).toEqual(['const value39 = 39;', '[… 60 more lines]', '```', 'what broke?']);
    expect(filterPrompt(pasted, TRANSCRIPT_FILTER_PRESETS.full)).toBe(pasted);
  });

  it('applies the user mode after the cut', () => {
    expect(filterPrompt('A question.', resolveTranscriptFilter({ user: 'omit' }))).toBe('');
  });
});
