import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../ports.js';
import { CLAUDE_CODE_LINES, CLAUDE_CODE_SESSION_ID, CLAUDE_CODE_TRANSCRIPT } from '../../test-support/transcript-fixtures/claude-code-session.js';
import { ClaudeCodeTranscriptReader, parseClaudeCodeTranscript } from './index.js';
import { readInChunks } from '../../test-support/transcripts.js';

const at = (second: number): string => new Date(Date.UTC(2026, 10, 3, 9, 0, second)).toISOString();

describe('parseClaudeCodeTranscript', () => {
  const result = parseClaudeCodeTranscript(CLAUDE_CODE_TRANSCRIPT);

  it('groups a prompt and the assistant work until the next prompt into one turn', () => {
    // The structure (tool calls for the mirror) has its own test below.
    expect(result.turns.map(({ structure: _structure, ...turn }) => turn)).toEqual<ChatTurn[]>([
      {
        id: 'u-0001',
        sessionId: CLAUDE_CODE_SESSION_ID,
        user: { text: 'Why does the outbox test fail?', timestamp: at(0) },
        assistant: {
          text:
            "I'll read the test first.\n\n" +
            'Read(src/a.ts)\n→ 120 lines\nBash(npm test -- outbox)\n→ error, 3 lines\n\n' +
            'The test reads before the journal is flushed; await `outbox.flush()` first.',
          timestamp: at(12),
        },
        participant: 'claude-code',
      },
      {
        id: 'u-0005',
        sessionId: CLAUDE_CODE_SESSION_ID,
        user: { text: '/review src/a.ts', timestamp: at(21) },
        assistant: { text: 'Task(Review src/a.ts)\n→ 1 line\n\nThe review found no other races.', timestamp: at(33) },
        participant: 'claude-code',
      },
      {
        id: 'u-0008',
        sessionId: CLAUDE_CODE_SESSION_ID,
        user: { text: 'Now add a regression test.', timestamp: at(50) },
        assistant: { text: 'Added `outbox.flush.test.ts`.\n\nWrite(src/outbox.flush.test.ts)', timestamp: at(55) },
        participant: 'claude-code',
      },
    ]);
  });

  it('counts malformed lines, the subagent prompt it skipped and the torn last line', () => {
    expect(result.format).toBe('claude-code');
    expect(result.malformedLines).toBe(2);
    expect(result.skippedTurns).toBe(1);
    expect(result.tornLastLine).toBe(true);
    expect(result.unsupportedVersion).toBeUndefined();
    expect(JSON.stringify(result.turns)).not.toContain('SUBAGENT');
  });

  it('includes subagent prompts as their own turns on request', () => {
    const withSidechains = parseClaudeCodeTranscript(CLAUDE_CODE_TRANSCRIPT, { includeSidechains: true });
    // The subagent's turn ends when the main thread receives the Task result.
    expect(withSidechains.turns.map((turn) => turn.id)).toEqual(['u-0001', 'u-side-1', 'u-0005', 'u-0008']);
    expect(withSidechains.turns[1]?.assistant?.text).toBe('SUBAGENT: no other races found.');
    expect(withSidechains.turns[2]).toEqual(result.turns[1]);
    expect(withSidechains.skippedTurns).toBe(0);
  });

  it('applies filter presets and reports the token reduction', () => {
    const full = parseClaudeCodeTranscript(CLAUDE_CODE_TRANSCRIPT, { filter: 'full' });
    const conversation = parseClaudeCodeTranscript(CLAUDE_CODE_TRANSCRIPT, { filter: 'conversation' });
    const first = full.turns[0]?.assistant?.text ?? '';
    expect(first).toContain('The test probably races the journal flush.');
    expect(first).toContain('Read({"file_path":"/home/ada/projects/engine/src/a.ts"})');
    expect(first).toContain('line 120 of src/a.ts');
    expect(conversation.turns[0]?.assistant?.text).toBe(
      "I'll read the test first.\n\nThe test reads before the journal is flushed; await `outbox.flush()` first.",
    );
    expect(full.tokens.before).toBe(result.tokens.before);
    expect(full.tokens.reduction).toBe(0);
    expect(result.tokens.after).toBeLessThan(result.tokens.before / 3);
    expect(result.tokens.reduction).toBeCloseTo((result.tokens.before - result.tokens.after) / result.tokens.before, 10);
    expect(conversation.tokens.after).toBeLessThan(result.tokens.after);
    const totalCharacters = result.turns.reduce((sum, turn) => sum + turn.user.text.length + (turn.assistant?.text.length ?? 0), 0);
    expect(result.tokens.after).toBe(Math.ceil(totalCharacters / 4));
  });

  it('accepts per-kind modes on top of the default preset', () => {
    const omitted = parseClaudeCodeTranscript(CLAUDE_CODE_TRANSCRIPT, { filter: { toolResults: 'omit', thinking: 'summary' } });
    expect(omitted.turns[0]?.assistant?.text).toBe(
      "[thinking]\n\nI'll read the test first.\n\nRead(src/a.ts)\nBash(npm test -- outbox)\n\n" +
        'The test reads before the journal is flushed; await `outbox.flush()` first.',
    );
  });

  it('summarises code in a reply under compact and keeps it with full', () => {
    const code = ['```ts', 'const entry = await enqueue(turn);', 'await outbox.flush();', 'const read = await outbox.pending(10);', 'expect(read).toEqual([entry]);', '```'].join('\n');
    const text = [
      { type: 'user', uuid: 'u-1', sessionId: 's', timestamp: at(0), message: { role: 'user', content: 'Fix the test.' } },
      { type: 'assistant', uuid: 'a-1', sessionId: 's', timestamp: at(1), message: { role: 'assistant', content: [{ type: 'text', text: `Flush first:\n\n${code}` }], stop_reason: 'end_turn' } },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    expect(parseClaudeCodeTranscript(text).turns[0]?.assistant?.text).toBe('Flush first:\n\n[code: ts, 4 lines]');
    expect(parseClaudeCodeTranscript(text, { filter: 'full' }).turns[0]?.assistant?.text).toBe(`Flush first:\n\n${code}`);
  });

  it('never throws and returns nothing for empty or foreign input', () => {
    for (const input of ['', '\n\n', 'garbage', '{"role":"user","content":"x"}', '[]', '{"type":"user"}']) {
      const parsed = parseClaudeCodeTranscript(input);
      expect(parsed.turns).toEqual([]);
    }
    expect(parseClaudeCodeTranscript('{"type":"user"}\n').malformedLines).toBe(1);
    expect(parseClaudeCodeTranscript(undefined as unknown as string).turns).toEqual([]);
  });
});

describe('ClaudeCodeTranscriptReader', () => {
  it('emits a turn when the next prompt arrives, or at idle once the turn visibly ended', () => {
    const reader = new ClaudeCodeTranscriptReader();
    const lines = CLAUDE_CODE_LINES.map((line) => `${JSON.stringify(line)}\n`);
    // Up to the assistant's final answer of the first turn: nothing yet.
    expect(reader.push(lines.slice(0, 10).join(''))).toEqual([]);
    // The turn_duration marker follows: complete at idle.
    expect(reader.push(lines[10] ?? '')).toEqual([]);
    expect(reader.flush().map((turn) => turn.id)).toEqual(['u-0001']);
    // The /review turn: still running while the subagent works, ended by its end_turn answer.
    expect(reader.push(lines.slice(11, 16).join(''))).toEqual([]);
    expect(reader.flush()).toEqual([]);
    expect(reader.push(lines.slice(16, 19).join(''))).toEqual([]);
    expect(reader.flush().map((turn) => turn.id)).toEqual(['u-0005']);
    expect(reader.push(lines.slice(19).join(''))).toEqual([]);
    // The last turn is still running (stop_reason tool_use): held at idle, released at the end.
    expect(reader.flush()).toEqual([]);
    expect(reader.end().map((turn) => turn.id)).toEqual(['u-0008']);
  });

  it('leaves an unfinished last turn out with includeUnfinished: false (a session still running)', () => {
    const all = parseClaudeCodeTranscript(CLAUDE_CODE_TRANSCRIPT).turns.map((turn) => turn.id);
    // The fixture's last turn waits for its Write tool (stop_reason tool_use).
    expect(parseClaudeCodeTranscript(CLAUDE_CODE_TRANSCRIPT, { includeUnfinished: false }).turns.map((turn) => turn.id)).toEqual(all.slice(0, -1));
    const base = { sessionId: 's', isSidechain: false };
    const prompt = { ...base, type: 'user', uuid: 'u1', timestamp: at(0), message: { role: 'user', content: 'Run the tests.' } };
    const toolCall = { ...base, type: 'assistant', uuid: 'a1', timestamp: at(1), message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'pnpm test' } }], stop_reason: 'tool_use' } };
    const toolResult = { ...base, type: 'user', uuid: 'u2', timestamp: at(2), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } };
    const reply = { ...base, type: 'assistant', uuid: 'a2', timestamp: at(3), message: { role: 'assistant', content: [{ type: 'text', text: 'All tests pass.' }], stop_reason: 'end_turn' } };
    const streamed = { ...reply, uuid: 'a3', message: { ...reply.message, stop_reason: null } };
    const read = (...lines: object[]) => parseClaudeCodeTranscript(lines.map((line) => JSON.stringify(line)).join('\n') + '\n', { includeUnfinished: false }).turns;
    expect(read(prompt)).toEqual([]);
    expect(read(prompt, toolCall)).toEqual([]);
    expect(read(prompt, toolCall, toolResult)).toEqual([]);
    expect(read(prompt, toolCall, toolResult, streamed)).toEqual([]);
    expect(read(prompt, toolCall, toolResult, reply).map((turn) => [turn.id, turn.assistant?.text])).toEqual([['u1', 'Bash(pnpm test)\n→ 1 line\n\nAll tests pass.']]);
  });

  it('reassembles lines split across chunks at any position', () => {
    const whole = parseClaudeCodeTranscript(CLAUDE_CODE_TRANSCRIPT);
    for (const size of [1, 7, 64, 1000]) {
      const reader = new ClaudeCodeTranscriptReader();
      expect(readInChunks(reader, CLAUDE_CODE_TRANSCRIPT, size)).toEqual(whole.turns);
      expect(reader.stats().malformedLines).toBe(2);
      expect(reader.stats().tornLastLine).toBe(true);
    }
  });

  it('handles CRLF line endings and a final line without a line break', () => {
    const text = CLAUDE_CODE_LINES.slice(0, 11)
      .map((line) => JSON.stringify(line))
      .join('\r\n');
    const parsed = parseClaudeCodeTranscript(text);
    expect(parsed.turns.map((turn) => turn.id)).toEqual(['u-0001']);
    expect(parsed.malformedLines).toBe(0);
    expect(parsed.tornLastLine).toBe(false);
  });

  it('handles lines of hundreds of kilobytes', () => {
    const big = 'x'.repeat(400_000);
    const text = [
      { type: 'user', uuid: 'u1', sessionId: 's', timestamp: at(0), message: { role: 'user', content: 'dump it' } },
      { type: 'assistant', uuid: 'a1', sessionId: 's', timestamp: at(1), message: { role: 'assistant', content: [{ type: 'text', text: big }] } },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const reader = new ClaudeCodeTranscriptReader();
    for (let offset = 0; offset < text.length; offset += 8192) reader.push(text.slice(offset, offset + 8192));
    expect(reader.end()[0]?.assistant?.text.length).toBe(400_000);
    const capped = parseClaudeCodeTranscript(text, { maxLineLength: 100_000 });
    expect([capped.malformedLines, capped.tooLongLines]).toEqual([0, 1]);
    expect(capped.turns[0]?.assistant).toBeUndefined();
  });
});

describe('the turn structure the mirror reads', () => {
  it('pairs each tool call (name, one-line summary) with its result by tool_use id', () => {
    const [first] = parseClaudeCodeTranscript(CLAUDE_CODE_TRANSCRIPT).turns;
    const calls = first?.structure?.toolCalls ?? [];
    expect(calls.map((call) => [call.name, call.summary, call.result?.isError])).toEqual([
      ['Read', 'Read(src/a.ts)', false],
      ['Bash', 'Bash(npm test -- outbox)', true],
    ]);
    expect(calls[1]?.result?.text).toBe('FAIL outbox.test.ts\n  expected 2 records\n  received 1');
  });

  it('names the turn a rewound prompt continues from, and none for a prompt that follows the turn before it', () => {
    const line = (uuid: string, parentUuid: string | null, type: 'user' | 'assistant', text: string, second: number): string =>
      JSON.stringify({
        type,
        uuid,
        parentUuid,
        sessionId: 's-rewind',
        timestamp: at(second),
        message: type === 'user' ? { role: 'user', content: text } : { role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn' },
      });
    const text = [
      line('p1', null, 'user', 'first prompt', 1),
      line('r1', 'p1', 'assistant', 'first answer', 2),
      line('p2', 'r1', 'user', 'second prompt', 3),
      line('r2', 'p2', 'assistant', 'second answer', 4),
      // The user rewinds to after the first answer and asks again.
      line('p3', 'r1', 'user', 'second prompt, edited', 5),
      line('r3', 'p3', 'assistant', 'another answer', 6),
    ].join('\n');
    const turns = parseClaudeCodeTranscript(text).turns;
    expect(turns.map((turn) => [turn.id, turn.structure?.replayParent])).toEqual([
      ['p1', undefined],
      ['p2', undefined],
      ['p3', 'p1'],
    ]);
  });
});
