import { describe, expect, it } from 'vitest';
import { isCopilotAgentTranscript, parseCopilotAgentTranscript } from './copilot-agent-transcript.js';

// Lines in the shape VS Code's Copilot Chat (code-server 4.139.1) writes to `transcript_path`.
function line(type: string, id: string, data: Record<string, unknown>, timestamp = '2026-11-23T10:00:00.000Z'): string {
  return JSON.stringify({ type, data, id, timestamp, parentId: null });
}
const start = line('session.start', 'e0', { sessionId: 'sess-1', version: 1, producer: 'copilot-agent', startTime: '2026-11-23T10:00:00.000Z' });
const firstTurn = [
  line('user.message', 'u1', { content: 'Which package manager do we use?', attachments: [] }),
  line('assistant.turn_start', 'e2', { turnId: '0.0' }),
  line('assistant.message', 'e3', { messageId: 'm1', content: '', toolRequests: [{ toolCallId: 't1', name: 'read_file', arguments: '{}', type: 'function' }] }),
  line('tool.execution_start', 'e4', { toolCallId: 't1', toolName: 'read_file', arguments: {} }),
  line('tool.execution_complete', 'e5', { toolCallId: 't1', success: true, result: { content: 'secret file text' } }),
  line('assistant.turn_end', 'e6', { turnId: '0.0' }),
  line('assistant.turn_start', 'e7', { turnId: '0.1' }),
  line('assistant.message', 'e8', { messageId: 'm2', content: 'We use pnpm.', toolRequests: [] }, '2026-11-23T10:00:05.000Z'),
  line('assistant.turn_end', 'e9', { turnId: '0.1' }),
];

describe('parseCopilotAgentTranscript', () => {
  it('turns a user message and the assistant rounds after it into one turn, tool output left out', () => {
    const text = [start, ...firstTurn].join('\n') + '\n';
    expect(isCopilotAgentTranscript(text)).toBe(true);
    const result = parseCopilotAgentTranscript(text);
    expect(result.sessionId).toBe('sess-1');
    expect(result.malformedLines).toBe(0);
    expect(result.turns).toEqual([
      {
        id: 'u1',
        sessionId: 'sess-1',
        user: { text: 'Which package manager do we use?', timestamp: '2026-11-23T10:00:00.000Z' },
        assistant: { text: 'We use pnpm.', timestamp: '2026-11-23T10:00:05.000Z' },
        participant: 'copilot-agent',
      },
    ]);
  });

  it('leaves out a turn still in progress, a torn last line and counts damaged lines', () => {
    const text = [start, ...firstTurn, 'not json', line('user.message', 'u2', { content: 'And the test runner?' }), '{"type":"assistant.mess'].join('\n');
    const result = parseCopilotAgentTranscript(text);
    expect(result.turns.map((turn) => turn.id)).toEqual(['u1']);
    expect(result.malformedLines).toBe(1);
    expect(parseCopilotAgentTranscript(text, { includeUnfinished: true }).turns.map((turn) => turn.id)).toEqual(['u1', 'u2']);
  });

  it('takes no turn read in the middle of the agent loop: a tool round ends with turn_end too', () => {
    // Copilot's first round: a tool request, its result, turn_end; the reply is yet to come.
    const midLoop = [start, ...firstTurn.slice(0, 6)].join('\n') + '\n';
    expect(parseCopilotAgentTranscript(midLoop).turns).toEqual([]);
    // Still running: the next round asked for another tool.
    const secondToolRound = [
      ...firstTurn.slice(0, 6),
      line('assistant.turn_start', 'e7', { turnId: '0.1' }),
      line('assistant.message', 'e8', { messageId: 'm2', content: 'Reading the lockfile too.', toolRequests: [{ toolCallId: 't2', name: 'read_file', arguments: '{}', type: 'function' }] }),
      line('tool.execution_complete', 'e9', { toolCallId: 't2', success: true, result: { content: 'lockfile' } }),
      line('assistant.turn_end', 'e10', { turnId: '0.1' }),
    ];
    expect(parseCopilotAgentTranscript([start, ...secondToolRound].join('\n') + '\n').turns).toEqual([]);
    // The final reply (no tool requests) finishes the turn: prompt and reply, once.
    const finished = [
      start,
      ...secondToolRound,
      line('assistant.turn_start', 'e11', { turnId: '0.2' }),
      line('assistant.message', 'e12', { messageId: 'm3', content: 'We use pnpm.', toolRequests: [] }, '2026-11-23T10:00:09.000Z'),
      line('assistant.turn_end', 'e13', { turnId: '0.2' }),
    ];
    expect(parseCopilotAgentTranscript(finished.join('\n') + '\n').turns).toEqual([
      {
        id: 'u1',
        sessionId: 'sess-1',
        user: { text: 'Which package manager do we use?', timestamp: '2026-11-23T10:00:00.000Z' },
        assistant: { text: 'Reading the lockfile too.\n\nWe use pnpm.', timestamp: '2026-11-23T10:00:09.000Z' },
        participant: 'copilot-agent',
      },
    ]);
  });

  it('counts a turn as finished when the next user message started, even mid-loop', () => {
    const text = [start, ...firstTurn.slice(0, 6), line('user.message', 'u2', { content: 'Never mind, which test runner?' })].join('\n') + '\n';
    const result = parseCopilotAgentTranscript(text);
    expect(result.turns.map((turn) => [turn.id, turn.assistant?.text])).toEqual([['u1', undefined]]);
    expect(parseCopilotAgentTranscript(text, { includeUnfinished: true }).turns.map((turn) => turn.id)).toEqual(['u1', 'u2']);
  });

  it('is not mistaken for a Claude Code transcript', () => {
    expect(isCopilotAgentTranscript('{"type":"user","uuid":"x","message":{"role":"user","content":"hi"}}\n')).toBe(false);
  });

  it('summarises code in the final reply under the default compact filter, and keeps it with full', () => {
    const code = ['```ts', 'export const retries = 3;', 'export const delay = 100;', 'export const jitter = 0.5;', 'export const cap = 30_000;', '```'].join('\n');
    const text = [
      start,
      line('user.message', 'u1', { content: 'Add the retry settings.' }),
      line('assistant.message', 'e2', { messageId: 'm1', content: `Added:\n\n${code}\n\nTests pass.`, toolRequests: [] }),
      line('assistant.turn_end', 'e3', { turnId: '0.0' }),
    ].join('\n');
    expect(parseCopilotAgentTranscript(text).turns[0]?.assistant?.text).toBe('Added:\n\n[code: ts, 4 lines]\n\nTests pass.');
    expect(parseCopilotAgentTranscript(text, { filter: 'full' }).turns[0]?.assistant?.text).toBe(`Added:\n\n${code}\n\nTests pass.`);
  });
});
