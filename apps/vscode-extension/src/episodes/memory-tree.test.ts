import type { Episode } from '@graphiti-memory/graphiti-client';
import { digestMessage } from '@graphiti-memory/memory-core';
import { formatPromotionEpisode } from '@graphiti-memory/memory-core/episode-format';
import { formatDay } from '@graphiti-memory/prompt-elements';
import { describe, expect, it } from 'vitest';
import { curatedMemories, digestTurnsOf, factDates, factSource, turnsOf, type EpisodeSource } from './memory-tree.js';

function episode(name: string, validAt: string, content = name, uuid = `uuid-${name}-${validAt}`): Episode {
  return { uuid, name, group_id: 'g', labels: [], created_at: validAt, source: 'message', source_description: '', content, valid_at: validAt, entity_edges: [] };
}

const PROMOTION = 'graphiti-memory.promotion.0123456789abcdef0123456789abcdef';

/** A promotion as Graphiti stores it: no role, `role_type: "system"`, one episode block. */
function promotion(name: string, validAt: string, text = 'A memory.', uuid?: string): Episode {
  return episode(name, validAt, `(system): ${formatPromotionEpisode({ kind: 'preference', scope: 'workspace', text, at: new Date(validAt) })}`, uuid);
}

describe('curatedMemories', () => {
  it('keeps promotions only, each once across groups and retries, newest first', () => {
    const approvedDirective = promotion(PROMOTION, '2026-01-02T00:00:00Z', 'Tabs, not spaces.');
    const curated = curatedMemories([
      {
        scope: 'workspace',
        episodes: [
          // The question that carried the directive is a turn, not a memory.
          episode('graphiti-memory.turn.t1.user', '2026-01-01T00:00:00Z', 'user(user): preference: Tabs, not spaces.'),
          episode('graphiti-memory.turn.t1.assistant', '2026-01-01T00:00:01Z'),
          approvedDirective,
          // The same promotion stored again (a re-send after a lost confirmation) is the same memory.
          episode(PROMOTION, '2026-01-02T00:00:05Z', approvedDirective.content, 'uuid-resent'),
          promotion('graphiti-memory.promotion.ffffffffffffffffffffffffffffffff', '2026-01-03T00:00:00Z'),
        ],
      },
      { scope: 'user', episodes: [promotion('graphiti-memory.promotion.eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', '2025-12-31T00:00:00Z')] },
    ]);
    expect(curated.map((memory) => [memory.scope, memory.episode.name])).toEqual([
      ['workspace', 'graphiti-memory.promotion.ffffffffffffffffffffffffffffffff'],
      ['workspace', PROMOTION],
      ['user', 'graphiti-memory.promotion.eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'],
    ]);
    expect(curated[1]?.episode.uuid).toBe('uuid-resent');
  });

  it('takes a promotion as memory-core reads it: a look-alike name or a quoted block is not a curated memory', () => {
    const block = formatPromotionEpisode({ kind: 'decision', scope: 'workspace', text: 'We use zod.', at: new Date('2026-01-02T00:00:00Z') });
    const curated = curatedMemories([
      {
        scope: 'workspace',
        episodes: [
          // Another tool's episode whose name merely contains `.promotion.`.
          episode('notes.promotion.draft', '2026-01-02T00:00:00Z', `(system): ${block}`),
          // A promotion's name, but a user's message quoting the markup.
          episode('graphiti-memory.promotion.dddddddddddddddddddddddddddddddd', '2026-01-02T00:00:00Z', `user(user): ${block}`),
          promotion(PROMOTION, '2026-01-03T00:00:00Z', 'We use zod.'),
        ],
      },
    ]);
    expect(curated.map((memory) => memory.episode.name)).toEqual([PROMOTION]);
  });
});

describe('turnsOf', () => {
  it('puts each question with its answer, one turn per turn id, newest first, promotions left out', () => {
    const turns = turnsOf([
      episode('graphiti-memory.turn.a.user', '2026-01-01T10:00:00Z'),
      episode('graphiti-memory.turn.a.assistant', '2026-01-01T10:00:02Z'),
      promotion(PROMOTION, '2026-01-01T11:00:00Z'),
      episode('graphiti-memory.turn.b.user', '2026-01-02T10:00:00Z'),
      episode('graphiti-memory.turn.b.assistant', '2026-01-02T10:00:03Z'),
      episode('graphiti-memory.turn.c.user', '2026-01-03T10:00:00Z'),
    ]);
    expect(turns.map((turn) => [turn.key, turn.question?.name, turn.answer?.name, turn.at])).toEqual([
      ['c', 'graphiti-memory.turn.c.user', undefined, '2026-01-03T10:00:00Z'],
      ['b', 'graphiti-memory.turn.b.user', 'graphiti-memory.turn.b.assistant', '2026-01-02T10:00:03Z'],
      ['a', 'graphiti-memory.turn.a.user', 'graphiti-memory.turn.a.assistant', '2026-01-01T10:00:02Z'],
    ]);
    expect(turns[1]?.episodes.map((item) => item.name)).toEqual(['graphiti-memory.turn.b.user', 'graphiti-memory.turn.b.assistant']);
  });

  it('keeps an episode of another shape (a digest) as a turn of its own', () => {
    const turns = turnsOf([episode('graphiti-memory.digest.s1.0', '2026-01-01T00:00:00Z')]);
    expect(turns.map((turn) => [turn.key, turn.episodes.length])).toEqual([['graphiti-memory.digest.s1.0', 1]]);
  });
});

describe('factSource and factDates', () => {
  const known = new Map<string, EpisodeSource>([['e1', { scope: 'workspace', title: 'We deploy with Fly.io.', at: '2026-01-02T03:04:05Z' }]]);

  it('names the cited episode the view knows, counts the others, and says nothing without a citation', () => {
    expect(factSource({ episodes: ['e1', 'e2'] }, known)).toBe('from workspace memory, 2026-01-02: "We deploy with Fly.io." and 1 more');
    expect(factSource({ episodes: ['e9'] }, known)).toBe('from a conversation or memory not shown here');
    expect(factSource({}, known)).toBeUndefined();
  });

  it('says since when a fact holds, and when a later one superseded it', () => {
    const base = { valid_at: '2026-01-02T00:00:00Z', invalid_at: null, expired_at: null, created_at: '2026-01-03T00:00:00Z' };
    expect(factDates(base)).toBe('since 2026-01-02');
    expect(factDates({ ...base, valid_at: null })).toBe('since 2026-01-03');
    expect(factDates({ ...base, invalid_at: '2026-02-01T00:00:00Z' })).toBe('2026-01-02 to 2026-02-01 (superseded)');
  });

  it('gives the days the prompt gives (prompt-elements formatDay: UTC), whatever offset Graphiti wrote', () => {
    // 23:30 at UTC-5 is the next day in UTC: the chat's footer and the prompt must not disagree.
    const late = { valid_at: '2026-01-02T23:30:00-05:00', invalid_at: '2026-02-01T22:00:00-04:00', expired_at: null, created_at: '2026-01-03T00:00:00Z' };
    expect(factDates(late)).toBe(`${formatDay(late.valid_at)} to ${formatDay(late.invalid_at)} (superseded)`);
    expect(factDates(late)).toBe('2026-01-03 to 2026-02-02 (superseded)');
    expect(factSource({ episodes: ['late'] }, new Map([['late', { scope: 'session', title: 'A late turn', at: late.valid_at }]]))).toBe('from session memory, 2026-01-03: "A late turn"');
  });
});

describe('digestTurnsOf', () => {
  const message = (role: 'user' | 'assistant', speaker: string, content: string) => ({ content, role_type: role, role: speaker, name: `n-${content}`, source_description: 'graphiti-memory chat' });
  const turn = (id: string, question: string, answer: string) => ({ id, keys: [], messages: [message('user', 'user', question), message('assistant', 'claude-code', answer)] });

  it("reads a session digest's turns back from its speaker lines, as Graphiti stores it, oldest first", () => {
    const digest = digestMessage('s1', [turn('t1', 'How do we deploy?', 'With Fly.io.\n\nSee the runbook.'), turn('t2', 'And the database?', 'Postgres 16.')], 4000);
    const stored = episode(digest.name ?? 'graphiti-memory.digest.s1.t1', '2026-01-02T00:00:00Z', `chat session(user): ${digest.content}`);
    expect(digestTurnsOf(stored)).toEqual([
      { question: 'How do we deploy?', text: 'user: How do we deploy?\nclaude-code: With Fly.io.\n\nSee the runbook.' },
      { question: 'And the database?', text: 'user: And the database?\nclaude-code: Postgres 16.' },
    ]);
  });

  it('reads turns one line break apart too, a reply with blank lines whole, a system line with its turn', () => {
    const content = 'chat session(user): user: First?\ncopilot: One.\n\nTwo.\nsystem: Be brief.\nuser: Second?\ncopilot: Three.';
    expect(digestTurnsOf(episode('graphiti-memory.digest.s1.t1', '2026-01-01T00:00:00Z', content))).toEqual([
      { question: 'First?', text: 'user: First?\ncopilot: One.\n\nTwo.' },
      { question: 'Second?', text: 'system: Be brief.\nuser: Second?\ncopilot: Three.' },
    ]);
  });

  it('reads nothing from other episodes or from a digest without user turns (a written summary)', () => {
    expect(digestTurnsOf(episode('graphiti-memory.turn.a.user', '2026-01-01T00:00:00Z', 'user(user): user: hello'))).toEqual([]);
    expect(digestTurnsOf(episode('graphiti-memory.digest.s1.t1', '2026-01-01T00:00:00Z', 'chat session(user): The team chose Fly.io.'))).toEqual([]);
  });
});
