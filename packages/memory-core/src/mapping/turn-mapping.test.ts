import { messageSchema } from '@graphiti-memory/graphiti-client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../ports.js';
import { isoTimestamp, parseTurnMessageName, sanitiseTurnId, sourceDescription, turnMessageName, turnToMessages, type TurnMappingOptions } from './turn-mapping.js';

const options: TurnMappingOptions = {
  app: 'graphiti-memory',
  maxMessageChars: 4000,
  includeSystemMessages: false,
  includeGitMetadata: false,
};

const turn: ChatTurn = {
  id: 'request_42',
  sessionId: 'session-1',
  user: { text: 'How do we build?', timestamp: '2026-01-02T03:04:05Z' },
  assistant: { text: 'Run pnpm build.', timestamp: '2026-01-02T03:04:09.5+01:00' },
  participant: 'copilot',
  system: 'You are a helpful assistant.',
};

describe('turnToMessages', () => {
  it('maps a turn to a user and an assistant message', () => {
    expect(turnToMessages(turn, options)).toEqual([
      {
        content: 'How do we build?',
        role_type: 'user',
        role: 'user',
        name: 'graphiti-memory.turn.request_42.user',
        timestamp: '2026-01-02T03:04:05.000Z',
        source_description: 'graphiti-memory chat',
      },
      {
        content: 'Run pnpm build.',
        role_type: 'assistant',
        role: 'copilot',
        name: 'graphiti-memory.turn.request_42.assistant',
        timestamp: '2026-01-02T02:04:09.500Z',
        source_description: 'graphiti-memory chat',
      },
    ]);
  });

  it('sends only the user message for a turn without an answer, and "assistant" without a participant', () => {
    const { assistant: _assistant, ...unanswered } = turn;
    expect(turnToMessages(unanswered, options).map((message) => message.role_type)).toEqual(['user']);
    const { participant: _participant, ...anonymous } = turn;
    expect(turnToMessages(anonymous, options)[1]?.role).toBe('assistant');
  });

  it('adds the system prompt only when enabled, with a null role', () => {
    expect(turnToMessages(turn, options).some((message) => message.role_type === 'system')).toBe(false);
    const [system] = turnToMessages(turn, { ...options, includeSystemMessages: true });
    expect(system).toMatchObject({
      role_type: 'system',
      role: null,
      name: 'graphiti-memory.turn.request_42.system',
      content: 'You are a helpful assistant.',
    });
  });

  it('adds git metadata only when enabled, never a path', () => {
    const git = { branch: 'main', commit: 'abc1234def567890', dirty: false };
    expect(turnToMessages(turn, { ...options, gitMetadata: git })[0]?.source_description).toBe('graphiti-memory chat');
    expect(turnToMessages(turn, { ...options, includeGitMetadata: true, gitMetadata: git })[0]?.source_description).toBe(
      'graphiti-memory chat; branch=main; commit=abc1234; dirty=false',
    );
  });

  it('truncates long content with the visible marker', () => {
    const long = { ...turn, user: { ...turn.user, text: 'y'.repeat(5000) } };
    const [user] = turnToMessages(long, { ...options, maxMessageChars: 300 });
    expect(user?.content.length).toBeLessThanOrEqual(300);
    expect(user?.content).toMatch(/… \[truncated \d+ characters\]$/);
  });

  it('sanitises the turn id in names and omits unreadable timestamps', () => {
    const odd = { ...turn, id: 'a/b c', user: { text: 'hi', timestamp: 'yesterday' } };
    const [user] = turnToMessages(odd, options);
    expect(user?.name).toMatch(/^graphiti-memory\.turn\.a_b_c-[0-9a-f]{16}\.user$/);
    expect(user).not.toHaveProperty('timestamp');
  });

  it('produces valid wire messages with stable, unique names and no uuid (property)', () => {
    const turns = fc.record({
      id: fc.string({ minLength: 1, maxLength: 200 }),
      sessionId: fc.string(),
      user: fc.record({ text: fc.string({ minLength: 1, maxLength: 6000 }), timestamp: fc.date({ noInvalidDate: true, min: new Date(0), max: new Date('2100-01-01') }).map((date) => date.toISOString()) }),
      assistant: fc.option(fc.record({ text: fc.string({ maxLength: 6000 }), timestamp: fc.constant('2026-01-02T03:04:05Z') }), { nil: undefined }),
      participant: fc.option(fc.string(), { nil: undefined }),
      system: fc.option(fc.string(), { nil: undefined }),
    });
    fc.assert(
      fc.property(turns, fc.integer({ min: 200, max: 5000 }), fc.boolean(), (generated, max, includeSystemMessages) => {
        const chatTurn = JSON.parse(JSON.stringify(generated)) as ChatTurn;
        const mapped = turnToMessages(chatTurn, { ...options, maxMessageChars: max, includeSystemMessages });
        const again = turnToMessages(chatTurn, { ...options, maxMessageChars: max, includeSystemMessages });
        expect(again).toEqual(mapped);
        expect(new Set(mapped.map((message) => message.name)).size).toBe(mapped.length);
        for (const message of mapped) {
          expect(messageSchema.safeParse(message).success).toBe(true);
          expect(message).not.toHaveProperty('uuid');
          expect(message.content.length).toBeLessThanOrEqual(max);
          expect(message.name).toMatch(/^graphiti-memory\.turn\.[a-zA-Z0-9._-]+\.(user|assistant|system)$/);
        }
      }),
    );
  });
});

describe('sanitiseTurnId', () => {
  it('keeps safe ids and separates ids that sanitise alike', () => {
    expect(sanitiseTurnId('request_42.a-b')).toBe('request_42.a-b');
    expect(sanitiseTurnId('a/b')).not.toBe(sanitiseTurnId('a:b'));
    expect(sanitiseTurnId('x'.repeat(500)).length).toBeLessThanOrEqual(96);
  });
});

describe('sourceDescription', () => {
  it('cannot be made to carry another field', () => {
    expect(sourceDescription('graphiti-memory', { branch: 'x; commit=evil\nmore', commit: 'zz12' })).toBe(
      'graphiti-memory chat; branch=x__commit_evil_more; commit=12',
    );
  });
});

describe('isoTimestamp', () => {
  it('reads naive timestamps as UTC', () => {
    expect(isoTimestamp('2026-01-02T03:04:05')).toBe('2026-01-02T03:04:05.000Z');
    expect(isoTimestamp('')).toBeUndefined();
    expect(isoTimestamp(undefined)).toBeUndefined();
  });
});

describe('parseTurnMessageName', () => {
  it('reads back every name turnMessageName makes: the app, the turn id as the name carries it, the role', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 150 }), fc.constantFrom('user', 'assistant', 'system' as const), (turnId, role) => {
        expect(parseTurnMessageName(turnMessageName('graphiti-memory', turnId, role))).toEqual({ app: 'graphiti-memory', turnId: sanitiseTurnId(turnId), role });
      }),
    );
    expect(parseTurnMessageName('graphiti-memory.turn.a.turn.b.user')).toEqual({ app: 'graphiti-memory', turnId: 'a.turn.b', role: 'user' });
  });

  it('gives nothing for the other episodes of the product', () => {
    for (const name of ['graphiti-memory.promotion.cdf3b3d5', 'graphiti-memory.digest.gm_session_1.s1.t1', 'graphiti-memory.turn.t1.tool', '.turn.t1.user', 'turn.t1.user']) {
      expect(parseTurnMessageName(name)).toBeUndefined();
    }
  });
});
