import fc from 'fast-check';
import type { ChatTurn } from '../ports.js';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_TRANSCRIPT } from '../../test-support/transcript-fixtures/claude-code-session.js';
import { JSONL_TRANSCRIPT } from '../../test-support/transcript-fixtures/jsonl-transcript.js';
import { VSCODE_CHAT_LOG } from '../../test-support/transcript-fixtures/vscode-chat-session.js';
import { createTranscriptReader, parseTranscript, type TranscriptFormat } from './index.js';

const FORMATS: readonly TranscriptFormat[] = ['claude-code', 'vscode-chat', 'jsonl'];
const SAMPLES: Readonly<Record<TranscriptFormat, string>> = {
  'claude-code': CLAUDE_CODE_TRANSCRIPT,
  'vscode-chat': VSCODE_CHAT_LOG,
  jsonl: JSONL_TRANSCRIPT,
};

// JSON-ish lines built from fragments of the real formats, to reach the parsers' branches.
const jsonish = fc
  .array(
    fc.oneof(
      fc.json(),
      fc.constantFrom('{"kind":2,"k":["requests"],"v":[', '{"type":"user","message":{"content":', '{"role":"user","content":', '}', ']', '\n', '"x"', 'null', '0'),
    ),
    { maxLength: 20 },
  )
  .map((parts) => parts.join(''));

describe('transcript parsers', () => {
  it('never throw and keep their invariants on arbitrary input', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORMATS), fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), jsonish), (format, text) => {
        const result = parseTranscript(text, format);
        expect(result).toBeDefined();
        expect(result?.malformedLines).toBeGreaterThanOrEqual(0);
        for (const turn of result?.turns ?? []) {
          expect(typeof turn.id).toBe('string');
          expect(typeof turn.sessionId).toBe('string');
          expect(Number.isNaN(Date.parse(turn.user.timestamp))).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('give the same turns however the input is split into chunks', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORMATS), fc.array(fc.nat(), { maxLength: 12 }), (format, cuts) => {
        const text = SAMPLES[format];
        const positions = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((left, right) => left - right);
        const reader = createTranscriptReader(format);
        const turns = [];
        let previous = 0;
        for (const position of [...positions, text.length]) {
          turns.push(...reader.push(text.slice(previous, position)));
          previous = position;
        }
        turns.push(...reader.end());
        // A conversation's title (mirror structure) is the one known when the turn was emitted: chunking moves that moment.
        const untitled = (list: readonly ChatTurn[] | undefined): unknown =>
          list?.map(({ structure, ...turn }) => {
            const { title: _title, ...rest } = structure ?? {};
            return structure === undefined || Object.keys(rest).length === 0 ? turn : { ...turn, structure: rest };
          });
        expect(untitled(turns)).toEqual(untitled(parseTranscript(text, format)?.turns));
      }),
      { numRuns: 100 },
    );
  });
});
