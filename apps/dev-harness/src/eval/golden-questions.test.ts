import { describe, expect, it } from 'vitest';
import type { RecalledFact } from '@graphiti-memory/memory-core';
import { percentile, runEval } from './eval-run.js';
import { answers, questionAbout } from './golden-questions.js';

const fact = (text: string, rank: number, extra: Partial<RecalledFact> = {}): RecalledFact => ({
  uuid: `f${rank}`, name: 'RELATES_TO', fact: text, valid_at: null, invalid_at: null, expired_at: null, created_at: '2026-11-20T10:00:00Z', scope: 'workspace', rank, ...extra,
});

describe('golden questions', () => {
  it('asks about a promoted memory without copying it, and takes its episode as an answer', () => {
    const question = questionAbout({ kind: 'decision', text: 'We deploy the billing API with Fly.io.', episodeUuid: 'e1' });
    expect(question.question).toBe('What did we decide about deploy billing api fly?');
    expect(answers(fact('Something else entirely', 0, { episodes: ['e1'] }), question)).toBe(true);
    expect(answers(fact('The billing API is deployed with Fly.io', 0), question)).toBe(true);
    expect(answers(fact('We deploy', 0), question)).toBe(false);
    expect(answers(fact('Tests run with vitest', 0), question)).toBe(false);
  });

  it('counts a hit only within the first k facts, and the rank of the answer', async () => {
    const facts = [fact('Tests run with vitest', 0), fact('Lint runs with eslint', 1), fact('We deploy the billing API with Fly.io', 2)];
    const recall = { recall: async () => ({ outcome: 'hit' as const, facts, timedOut: false, elapsedMs: 1, scopes: ['workspace' as const], errors: [] }) };
    const question = { source: 'file' as const, line: 1, question: 'How do we deploy?', expected: 'Fly.io' };
    expect((await runEval(recall, [question], { k: 3, timeoutMs: 500, budget: 2_000 })).results[0]).toMatchObject({ hit: true, rank: 3 });
    const atTwo = await runEval(recall, [question], { k: 2, timeoutMs: 500, budget: 2_000 });
    expect(atTwo).toMatchObject({ hitRate: 0, hits: 0 });
    expect(atTwo.results[0]).toMatchObject({ hit: false, rank: null, facts: 2 });
  });

  it('reads the stale check from the recall result', async () => {
    const facts = [fact('src/old.ts holds the parser', 0, { stale: ['src/old.ts'] } as Partial<RecalledFact>), fact('Tests run with vitest', 1)];
    const recall = { recall: async () => ({ outcome: 'hit' as const, facts, timedOut: false, elapsedMs: 1, scopes: ['workspace' as const], errors: [] }) };
    const report = await runEval(recall, [{ source: 'file', question: 'parser?', expected: 'parser' }], { k: 5, timeoutMs: 500, budget: 2_000 });
    expect(report.stale).toEqual({ share: 0.5, marked: 1, recalled: 2, note: null });
  });

  it('takes nearest-rank percentiles', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 100], 95)).toBe(100);
    expect(percentile([], 95)).toBe(0);
  });
});
