import { describe, expect, it } from 'vitest';
import { JSONL_TRANSCRIPT } from '../../test-support/transcript-fixtures/jsonl-transcript.js';
import { JsonlTranscriptReader, parseJsonlTranscript } from './index.js';

describe('parseJsonlTranscript', () => {
  it('pairs user and assistant lines into turns, with the system prompt on the next turn', () => {
    const result = parseJsonlTranscript(JSONL_TRANSCRIPT, { sessionId: 'export-1', participant: 'chatgpt' });
    expect(result.turns.map((turn) => [turn.user.text, turn.assistant?.text, turn.system])).toEqual([
      ['What is Graphiti?', 'A temporal knowledge graph.\n\nIt stores facts with validity dates.', 'You are a helpful assistant.'],
      ['Thanks!', 'You are welcome.', undefined],
      ['Thanks!', 'Again, welcome.', undefined],
      ['Last question without an answer', undefined, undefined],
    ]);
    expect(result.turns[0]?.user.timestamp).toBe('2026-11-05T10:00:01.000Z');
    expect(result.turns[0]?.assistant?.timestamp).toBe('2026-11-05T10:00:04.000Z');
    expect(result.turns[1]?.user.timestamp).toBe(new Date(1_793_872_805_000).toISOString());
    expect(result.turns.every((turn) => turn.sessionId === 'export-1' && turn.participant === 'chatgpt')).toBe(true);
    expect(result.malformedLines).toBe(2);
  });

  it('derives stable, distinct ids from the content', () => {
    const first = parseJsonlTranscript(JSONL_TRANSCRIPT).turns.map((turn) => turn.id);
    const second = parseJsonlTranscript(JSONL_TRANSCRIPT).turns.map((turn) => turn.id);
    expect(first).toEqual(second);
    expect(new Set(first).size).toBe(first.length);
    expect(first[2]).toBe(`${first[1]}-2`);
    // Appending lines does not change the ids of earlier turns.
    const appended = parseJsonlTranscript(`${JSONL_TRANSCRIPT}\n${JSON.stringify({ role: 'user', content: 'more' })}`);
    expect(appended.turns.slice(0, 4).map((turn) => turn.id)).toEqual(first);
    // Another session id gives other ids.
    expect(parseJsonlTranscript(JSONL_TRANSCRIPT, { sessionId: 'other' }).turns[0]?.id).not.toBe(first[0]);
  });

  it('uses explicit ids and counts answers without a question', () => {
    const text = [{ role: 'assistant', content: 'orphan' }, { role: 'user', content: 'q', id: 42 }, { role: 'assistant', content: 'a' }]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const result = parseJsonlTranscript(text);
    expect(result.turns.map((turn) => turn.id)).toEqual(['42']);
    expect(result.skippedTurns).toBe(1);
  });

  it('holds the last turn at idle until it has an answer', () => {
    const reader = new JsonlTranscriptReader({ sessionId: 's' });
    expect(reader.push(`${JSON.stringify({ role: 'user', content: 'q1' })}\n`)).toEqual([]);
    expect(reader.flush()).toEqual([]);
    expect(reader.push(`${JSON.stringify({ role: 'assistant', content: 'a1' })}\n`)).toEqual([]);
    expect(reader.flush().map((turn) => turn.user.text)).toEqual(['q1']);
    expect(reader.end()).toEqual([]);
  });
});

describe('the filter on a plain JSONL transcript', () => {
  const code = ['```ts', ...Array.from({ length: 12 }, (_, index) => `export const value${index} = ${index};`), '```'].join('\n');
  const text = [
    { role: 'user', content: 'Where do the settings live?', timestamp: '2026-11-05T10:00:00Z' },
    { role: 'assistant', content: `In one module:\n\n${code}\n\nRead it first.`, timestamp: '2026-11-05T10:00:01Z' },
  ]
    .map((line) => JSON.stringify(line))
    .join('\n');

  it('summarises code in replies by default and keeps it whole under full, with the same turn id', () => {
    const compact = parseJsonlTranscript(text);
    expect(compact.turns[0]?.assistant?.text).toBe('In one module:\n\n[code: ts, 12 lines]\n\nRead it first.');
    expect(compact.tokens.after).toBeLessThan(compact.tokens.before);
    const full = parseJsonlTranscript(text, { filter: 'full' });
    expect(full.turns[0]?.assistant?.text).toBe(`In one module:\n\n${code}\n\nRead it first.`);
    expect(full.turns[0]?.id).toBe(compact.turns[0]?.id);
  });

  it('applies per-kind modes: code omitted, the prompt kept', () => {
    const turn = parseJsonlTranscript(text, { filter: { preset: 'compact', code: 'omit' } }).turns[0];
    expect(turn?.assistant?.text).toBe('In one module:\n\nRead it first.');
    expect(turn?.user.text).toBe('Where do the settings live?');
  });
});
