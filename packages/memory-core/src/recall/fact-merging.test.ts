import type { FactResult } from '@graphiti-memory/graphiti-client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MemoryScope } from '../ports.js';
import { fact } from '../../test-support/fake-graphiti-api.js';
import { isSuperseded, mergeFacts, normaliseFactText, wireTime } from './fact-merging.js';

const now = Date.parse('2026-06-01T00:00:00Z');

describe('mergeFacts', () => {
  it('orders by scope (session, workspace, user) whatever order results arrive in, ranking from 0', () => {
    const merged = mergeFacts(
      [
        { scope: 'user', facts: [fact({ uuid: 'u1', fact: 'User likes tea' })] },
        { scope: 'session', facts: [fact({ uuid: 's1', fact: 'We talked about CI' })] },
        { scope: 'workspace', facts: [fact({ uuid: 'w1', fact: 'The app uses zod' }), fact({ uuid: 'w2', fact: 'Builds run on turbo' })] },
      ],
      { maxFacts: 10, now, keepSuperseded: false },
    );
    expect(merged.map((item) => [item.uuid, item.scope, item.rank])).toEqual([
      ['s1', 'session', 0],
      ['w1', 'workspace', 1],
      ['w2', 'workspace', 2],
      ['u1', 'user', 3],
    ]);
  });

  it('drops duplicates by uuid and by normalised text, keeping the first (highest scope)', () => {
    const merged = mergeFacts(
      [
        { scope: 'session', facts: [fact({ uuid: 'a', fact: 'The app uses zod.' })] },
        { scope: 'workspace', facts: [fact({ uuid: 'a', fact: 'different text' }), fact({ uuid: 'b', fact: '  the APP  uses zod ' })] },
      ],
      { maxFacts: 10, now, keepSuperseded: false },
    );
    expect(merged.map((item) => item.uuid)).toEqual(['a']);
    expect(merged[0]?.scope).toBe('session');
  });

  it('drops facts whose invalid_at or expired_at has passed, or marks them when asked', () => {
    const results = [
      {
        scope: 'workspace' as const,
        facts: [
          fact({ uuid: 'old', fact: 'Uses npm', invalid_at: '2026-01-01T00:00:00Z' }),
          fact({ uuid: 'expired', fact: 'Uses yarn', expired_at: '2026-05-31T23:59:59' }),
          fact({ uuid: 'future', fact: 'Uses bun', invalid_at: '2027-01-01T00:00:00Z' }),
          fact({ uuid: 'current', fact: 'Uses pnpm' }),
        ],
      },
    ];
    expect(mergeFacts(results, { maxFacts: 10, now, keepSuperseded: false }).map((item) => item.uuid)).toEqual(['future', 'current']);
    const kept = mergeFacts(results, { maxFacts: 10, now, keepSuperseded: true });
    expect(kept.map((item) => [item.uuid, item.superseded === true])).toEqual([
      ['old', true],
      ['expired', true],
      ['future', false],
      ['current', false],
    ]);
    expect(kept[2]).not.toHaveProperty('superseded');
  });

  const scopeArbitrary = fc.constantFrom<MemoryScope>('session', 'workspace', 'user');
  const factArbitrary: fc.Arbitrary<FactResult> = fc.record({
    uuid: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
    fact: fc.constantFrom('Uses zod', 'uses ZOD.', 'Builds with turbo', 'Likes tea', 'Deploys Friday'),
    invalid: fc.option(fc.constantFrom('2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'), { nil: null }),
  }).map(({ uuid, fact: text, invalid }) => fact({ uuid, fact: text, invalid_at: invalid }));

  it('is bounded, unique, valid-only and in scope order (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ scope: scopeArbitrary, facts: fc.array(factArbitrary, { maxLength: 8 }) }), { selector: (item) => item.scope }),
        fc.integer({ min: 1, max: 50 }),
        (results, maxFacts) => {
          const merged = mergeFacts(results, { maxFacts, now, keepSuperseded: false });
          expect(merged.length).toBeLessThanOrEqual(maxFacts);
          expect(new Set(merged.map((item) => item.uuid)).size).toBe(merged.length);
          expect(new Set(merged.map((item) => normaliseFactText(item.fact))).size).toBe(merged.length);
          merged.forEach((item, index) => {
            expect(item.rank).toBe(index);
            expect(isSuperseded(item, now)).toBe(false);
          });
          const order = ['session', 'workspace', 'user'];
          const scopes = merged.map((item) => order.indexOf(item.scope));
          expect([...scopes].sort()).toEqual(scopes);
        },
      ),
    );
  });
});

describe('wireTime', () => {
  it('reads naive timestamps as UTC and rejects garbage', () => {
    expect(wireTime('2026-01-02T03:04:05')).toBe(Date.parse('2026-01-02T03:04:05Z'));
    expect(wireTime('2026-01-02T03:04:05+01:00')).toBe(Date.parse('2026-01-02T02:04:05Z'));
    expect(wireTime('soon')).toBeUndefined();
    expect(wireTime(null)).toBeUndefined();
  });
});
