import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../ports.js';
import {
  VSCODE_CHAT_CREATED,
  VSCODE_CHAT_FLAT_JSON,
  VSCODE_CHAT_LEGACY_JSON,
  VSCODE_CHAT_LOG,
  VSCODE_CHAT_LOG_LINES,
  VSCODE_CHAT_SESSION_ID,
} from '../../test-support/transcript-fixtures/vscode-chat-session.js';
import { parseVsCodeChatSession, VsCodeChatSessionReader } from './index.js';
import { readInChunks } from '../../test-support/transcripts.js';

const iso = (offset: number): string => new Date(VSCODE_CHAT_CREATED + offset).toISOString();

describe('parseVsCodeChatSession', () => {
  const result = parseVsCodeChatSession(VSCODE_CHAT_LOG);

  it('replays the log and keeps only finished turns', () => {
    // The structure (for the mirror) has its own test below.
    expect(result.turns.map(({ structure: _structure, ...turn }) => turn)).toEqual<ChatTurn[]>([
      {
        id: 'request_0',
        sessionId: VSCODE_CHAT_SESSION_ID,
        user: { text: '@workspace how do I validate settings?', timestamp: iso(0) },
        assistant: { text: 'Use  a zod schema. Never log the key.', timestamp: iso(4_000) },
        participant: 'github.copilot.editsAgent',
      },
      {
        id: 'request_1',
        sessionId: VSCODE_CHAT_SESSION_ID,
        user: { text: 'and the defaults?', timestamp: iso(60_000) },
        assistant: { text: 'All features are off by default.', timestamp: iso(70_000) },
        participant: 'github.copilot.editsAgent',
      },
      {
        id: 'request_7',
        sessionId: VSCODE_CHAT_SESSION_ID,
        user: { text: 'second attempt', timestamp: iso(420_000) },
        assistant: { text: 'Done on the second attempt.', timestamp: iso(430_000) },
        participant: 'github.copilot.editsAgent',
      },
    ]);
  });

  it('skips cancelled, failed, waiting, in-progress and replaced requests, and never the draft', () => {
    // request_2 cancelled, _3 failed, _4 complete with errorDetails, _5 waiting, _8 in progress.
    expect(result.skippedTurns).toBe(5);
    expect(JSON.stringify(result.turns)).not.toContain('first attempt');
    expect(JSON.stringify(result.turns)).not.toContain('draft');
  });

  it('counts lines that are not log entries or cannot be applied, and skips the torn last line', () => {
    expect(result.malformedLines).toBe(2);
    expect(result.tornLastLine).toBe(true);
    expect(result.format).toBe('vscode-chat');
    expect(result.tokens.before).toBe(result.tokens.after);
  });

  it('reads the flat .json variant and legacy files', () => {
    const flat = parseVsCodeChatSession(VSCODE_CHAT_FLAT_JSON);
    expect(flat.turns.map((turn) => [turn.id, turn.user.text, turn.assistant?.text])).toEqual([['request_0', 'flat question', 'Flat answer.']]);
    expect(flat.skippedTurns).toBe(1);
    const legacy = parseVsCodeChatSession(VSCODE_CHAT_LEGACY_JSON);
    expect(legacy.turns.map((turn) => [turn.id, turn.assistant?.text, turn.participant])).toEqual([
      ['request_legacy_0', 'Legacy answer.', 'GitHub Copilot'],
    ]);
    expect(legacy.skippedTurns).toBe(1);
  });

  it('reports an unknown version without turns and without throwing', () => {
    const future = [{ kind: 0, v: { version: 99, sessionId: 's', requests: [] } }, { kind: 2, k: ['requests'], v: [{ requestId: 'r', message: { text: 'q' }, modelState: { value: 1 }, response: [{ value: 'a' }] }] }]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const parsed = parseVsCodeChatSession(future);
    expect(parsed.unsupportedVersion).toBe(99);
    expect(parsed.turns).toEqual([]);
    expect(parseVsCodeChatSession(JSON.stringify({ kind: 0, v: { version: '4.0', requests: [] } })).unsupportedVersion).toBe('4.0');
  });

  it('never throws on hostile or broken input', () => {
    const inputs = [
      '',
      'not json',
      '{"kind":1,"k":["requests",0,"x"],"v":1}',
      '{"kind":0,"v":null}',
      '{"kind":0,"v":{"requests":{}}}\n{"kind":2,"k":["requests"],"v":[1]}',
      '{"kind":0,"v":{"requests":[]}}\n{"kind":1,"k":["__proto__","polluted"],"v":true}',
      '{"kind":0,"v":{"requests":[]}}\n{"kind":2,"k":["requests"],"i":-1}\n{"kind":1,"k":["requests",999999999],"v":{}}',
      '{"kind":0,"v":{"requests":[null,"x",{"requestId":5}]}}',
    ];
    for (const input of inputs) expect(() => parseVsCodeChatSession(input)).not.toThrow();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(parseVsCodeChatSession(inputs[5] ?? '').malformedLines).toBe(1);
    expect(parseVsCodeChatSession(inputs[6] ?? '').malformedLines).toBe(2);
  });
});

describe('VsCodeChatSessionReader', () => {
  const lines = VSCODE_CHAT_LOG_LINES.map((line) => `${JSON.stringify(line)}\n`);

  it('holds a request sealed by the last line of a chunk until its response lines arrive', () => {
    const reader = new VsCodeChatSessionReader();
    expect(reader.push(lines.slice(0, 2).join('')).map((turn) => turn.id)).toEqual(['request_0']);
    expect(reader.push(lines.slice(2, 4).join(''))).toEqual([]);
    const turns = reader.push(lines.slice(4, 6).join(''));
    expect(turns.map((turn) => turn.assistant?.text)).toEqual(['All features are off by default.']);
  });

  it('waits while a line is partial and releases held turns at idle', () => {
    const reader = new VsCodeChatSessionReader();
    const text = lines.slice(0, 2).join('');
    expect(reader.push(text.slice(0, -40))).toEqual([]);
    expect(reader.push(text.slice(-40)).map((turn) => turn.id)).toEqual(['request_0']);
    expect(reader.push(lines.slice(2, 4).join(''))).toEqual([]);
    expect(reader.flush().map((turn) => turn.assistant?.text)).toEqual(['All features']);
  });

  it('emits each request once, however the log is chunked', () => {
    const whole = parseVsCodeChatSession(VSCODE_CHAT_LOG);
    for (const size of [1, 13, 256]) {
      const reader = new VsCodeChatSessionReader();
      // The title in a turn's structure is the one known when it was emitted: chunking moves that moment.
      const withoutTitle = (turns: readonly ChatTurn[]): unknown[] =>
        turns.map(({ structure, ...turn }) => ({ ...turn, references: structure?.references, toolCalls: structure?.toolCalls }));
      expect(withoutTitle(readInChunks(reader, VSCODE_CHAT_LOG, size))).toEqual(withoutTitle(whole.turns));
      expect(reader.stats().skippedTurns).toBe(5);
    }
  });
});

describe('parseVsCodeChatSession with a filter', () => {
  const code = ['```ts', ...Array.from({ length: 30 }, (_, index) => `export const limit${index} = ${index};`), '```'].join('\n');
  const session = [
    { kind: 0, v: { version: 3, sessionId: 'code-session', creationDate: VSCODE_CHAT_CREATED, requests: [] } },
    {
      kind: 2,
      k: ['requests'],
      v: [{ requestId: 'r0', timestamp: VSCODE_CHAT_CREATED, message: { text: `Why is this slow?\n${code}` }, modelState: { value: 1 }, response: [{ value: `Cache it:\n\n${code}\n\nThen measure again.` }] }],
    },
  ]
    .map((line) => JSON.stringify(line))
    .join('\n');

  it('summarises code in replies under the default compact, keeps the prompt, and counts the text before filtering', () => {
    const result = parseVsCodeChatSession(session);
    expect(result.turns[0]?.assistant?.text).toBe('Cache it:\n\n[code: ts, 30 lines]\n\nThen measure again.');
    expect(result.turns[0]?.user.text).toBe(`Why is this slow?\n${code}`);
    expect(result.tokens.after).toBeLessThan(result.tokens.before * 0.6);
  });

  it('keeps code with the full and conversation presets, also when read incrementally', () => {
    for (const filter of ['full', 'conversation'] as const) {
      expect(parseVsCodeChatSession(session, { filter }).turns[0]?.assistant?.text).toBe(`Cache it:\n\n${code}\n\nThen measure again.`);
    }
    const reader = new VsCodeChatSessionReader({ filter: 'full' });
    expect(readInChunks(reader, `${session}\n`, 64)[0]?.assistant?.text).toContain(code);
  });
});

describe('the turn structure the mirror reads', () => {
  it('keeps attachments and references by URI (inline content only when the session holds it), tool invocations and the title', () => {
    const request = {
      requestId: 'request_a',
      timestamp: VSCODE_CHAT_CREATED,
      message: { text: 'Why does validation fail?' },
      variableData: {
        variables: [
          { id: 'file:///home/ada/engine/src/settings.ts', name: 'settings.ts', kind: 'file', value: { $mid: 1, scheme: 'file', path: '/home/ada/engine/src/settings.ts' } },
          { id: 'vscode.selection', name: 'selection', kind: 'text', value: { uri: { $mid: 1, scheme: 'file', path: '/home/ada/engine/src/schema.ts' }, range: {} } },
        ],
      },
      contentReferences: [{ kind: 'reference', reference: { $mid: 1, scheme: 'file', path: '/home/ada/engine/README.md', external: 'file:///home/ada/engine/README.md' } }],
      response: [
        { kind: 'toolInvocationSerialized', toolId: 'copilot_readFile', pastTenseMessage: { value: 'Read settings.ts' }, isComplete: true },
        { value: 'The schema rejects empty endpoints.' },
        { kind: 'inlineReference', inlineReference: { $mid: 1, scheme: 'file', path: '/home/ada/engine/src/settings.ts' } },
      ],
      modelState: { value: 1 },
    };
    const log = JSON.stringify({ kind: 0, v: { version: 3, sessionId: 's-attach', creationDate: VSCODE_CHAT_CREATED, customTitle: 'Validation', requests: [request] } });
    const [turn] = parseVsCodeChatSession(log).turns;
    expect(turn?.structure).toEqual({
      title: 'Validation',
      toolCalls: [{ name: 'copilot_readFile', summary: 'Read settings.ts' }],
      references: [
        { kind: 'attachment', uri: 'file:///home/ada/engine/src/settings.ts' },
        { kind: 'attachment', uri: 'file:///home/ada/engine/src/schema.ts' },
        { kind: 'reference', uri: 'file:///home/ada/engine/README.md' },
        { kind: 'reference', uri: 'file:///home/ada/engine/src/settings.ts' },
      ],
    });
  });
});
