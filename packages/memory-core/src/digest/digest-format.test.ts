// What a digest's text is made of: each turn's speakers, short, one line break between turns;
// and, through the parser, the planner (secret guard) and ingestion, what a VS Code chat with code
// in its replies sends.
import { describe, expect, it } from 'vitest';
import { FakeClock, RecordingLogger } from '../../test-support/fakes.js';
import { FakeGraphiti } from '../../test-support/ingestion.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { InMemoryDeliveryLedger } from '../ingestion/in-memory-delivery-ledger.js';
import { InMemoryOutbox } from '../ingestion/in-memory-outbox.js';
import { IngestionService } from '../ingestion/ingestion-service.js';
import type { IngestionStorage, IngestionStore } from '../ports.js';
import { parseVsCodeChatSession } from '../transcripts/vscode-chat-session.js';
import { digestMessage, digestSpeaker } from './digest-format.js';
import type { DigestTurn } from './digest-segment-store.js';
import { InMemoryDigestSegmentStore } from './digest-segment-store.js';

const turn = (id: string, question: string, answer: string, speaker: string): DigestTurn => ({
  id,
  keys: [],
  messages: [
    { content: question, role_type: 'user', role: 'user', name: `graphiti-memory.turn.${id}.user` },
    { content: answer, role_type: 'assistant', role: speaker, name: `graphiti-memory.turn.${id}.assistant` },
  ],
});

describe('digestSpeaker', () => {
  it('names a VS Code participant by its extension and leaves other speakers as they are', () => {
    expect(digestSpeaker('github.copilot.editsAgent')).toBe('copilot');
    expect(digestSpeaker('graphiti-memory.memory')).toBe('memory');
    for (const speaker of ['user', 'claude-code', 'copilot-agent', 'gpt-4.1', 'claude-3.5-sonnet', 'system', 'GitHub Copilot']) {
      expect(digestSpeaker(speaker)).toBe(speaker);
    }
  });
});

describe('digestMessage', () => {
  it('writes each turn as speaker lines, one line break apart, reply paragraphs kept', () => {
    const message = digestMessage(
      's1',
      [turn('t0', 'Which port?', 'Port 8000.\n\nIt is in the README.', 'github.copilot.editsAgent'), turn('t1', 'And the host?', 'Localhost only.', 'claude-code')],
      10_000,
    );
    expect(message.content).toBe('user: Which port?\ncopilot: Port 8000.\n\nIt is in the README.\nuser: And the host?\nclaude-code: Localhost only.');
  });

  it('gives a long turn the room short turns leave, cutting it only as far as the whole exceeds the cap', () => {
    const long = 'x'.repeat(2_500);
    const shortTurns = Array.from({ length: 5 }, (_, index) => turn(`t${index + 1}`, `Question ${index}?`, `Answer ${index}.`, 'claude-code'));
    // maxMessageChars 1000: a 3000-character digest, an equal share of 500 a turn.
    const fits = digestMessage('s1', [turn('t0', 'Show it.', long, 'claude-code'), ...shortTurns], 1_000);
    expect(fits.content).toContain(long);
    const over = digestMessage('s1', [turn('t0', 'Show it.', `${long}${long}`, 'claude-code'), ...shortTurns], 1_000);
    expect(over.content.length).toBeLessThanOrEqual(3_000);
    expect(over.content.length).toBeGreaterThan(2_950);
    expect(over.content).toMatch(/… \[truncated \d+ characters\]\nuser: Question 0\?/);
    for (let index = 0; index < 5; index++) expect(over.content).toContain(`user: Question ${index}?\nclaude-code: Answer ${index}.`);
  });
});

describe('a VS Code chat digest with code in its replies', () => {
  const awsKeyId = 'AKIAZ7Q2XKJ4NV6PWM3B';
  const reply = (paragraphs: readonly string[]): object[] => paragraphs.map((value) => ({ value }));
  const code = (lines: number, first = 'export const a = 1;'): string =>
    ['```ts', '// filepath: src/config/settings.ts', first, ...Array.from({ length: lines - 2 }, (_, index) => `export const limit${index} = ${index};`), '```'].join('\n');
  const session = [
    { kind: 0, v: { version: 3, sessionId: 'chat-1', creationDate: Date.UTC(2026, 10, 21), requests: [] } },
    {
      kind: 2,
      k: ['requests'],
      v: [
        {
          requestId: 'r0',
          timestamp: Date.UTC(2026, 10, 21),
          agent: { id: 'github.copilot.editsAgent' },
          message: { text: `This fails with my key:\n\`\`\`sh\naws s3 ls --access-key ${awsKeyId}\n\`\`\`` },
          modelState: { value: 1 },
          response: reply(['Read the key from the environment:\n\n', code(30, `export const keyId = '${awsKeyId}';`), '\n\nThen run it again.']),
        },
      ],
    },
  ]
    .map((line) => JSON.stringify(line))
    .join('\n');

  it('sends one line per code block, the prompt with its code, speakers kept, and the secret guard on what is sent', async () => {
    const clock = new FakeClock();
    const policy = createPolicyServices({ api: new FakeGraphiti(), clock, settings: { enabled: true, endpoint: 'http://localhost:8000', scopes: 'session' } });
    const store: IngestionStore = { outbox: new InMemoryOutbox(policy.configuration, clock), ledger: new InMemoryDeliveryLedger(), segments: new InMemoryDigestSegmentStore() };
    const storage: IngestionStorage = { open: () => Promise.resolve(store), current: () => store, close: () => Promise.resolve() };
    const service = new IngestionService(policy.planner, storage, policy.connection, policy.gate, policy.configuration, clock, new RecordingLogger(), policy.telemetry, { random: () => 0.5 });
    for (const parsed of parseVsCodeChatSession(session).turns) service.enqueue(parsed);
    service.endSession('chat-1');
    await service.settled();
    const [digest, ...others] = await store.outbox.pending(10);
    expect(others).toEqual([]);
    const content = digest?.message.content ?? '';
    expect(content).toMatch(/^user: This fails with my key:\n```sh\naws s3 ls --access-key \[REDACTED:[^\]]+\]\n```\ncopilot: Read the key from the environment:\n\n\[code: ts, 30 lines, src\/config\/settings\.ts\]\n\nThen run it again\.$/);
    expect(content).not.toContain(awsKeyId);
    expect(content).not.toContain('limit0');
    await service.dispose();
  });
});
