// Recalled text is data: a secret stored in the graph is redacted before recall hands it to any
// caller, and a fact the guard cannot scan is left out (fail closed).
import { describe, expect, it } from 'vitest';
import { fact, FakeGraphitiApi } from '../../test-support/fake-graphiti-api.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { ALPHABETS, FakeValues } from '../../test-support/secret-corpus/fake-values.js';
import type { SecretGuard } from '../secrets/secret-guard.js';
import { guardRecalledFacts } from './recalled-fact-guard.js';

const fake = new FakeValues('recalled fact guard tests');
const githubToken = `ghp_${fake.alphanumeric(36)}`;
const awsKey = `AKIA${fake.chars(ALPHABETS.upperAlphanumeric, 16)}`;

describe('recall redacts secrets in recalled facts', () => {
  it('returns facts with provider tokens replaced by markers, other facts unchanged', async () => {
    const api = new FakeGraphitiApi();
    api.searchHandler = async () => ({
      facts: [
        fact({ uuid: 'a', fact: `The deploy token is ${githubToken}` }),
        fact({ uuid: 'b', fact: `CI uses the key ${awsKey} for uploads` }),
        fact({ uuid: 'c', fact: 'Builds run with turbo' }),
      ],
    });
    const services = createPolicyServices({ api });
    const result = await services.recall.recall('deploy token', { scopes: ['workspace'] });

    expect(result.outcome).toBe('hit');
    const texts = result.facts.map((item) => item.fact);
    expect(texts.join('\n')).not.toContain(githubToken);
    expect(texts.join('\n')).not.toContain(awsKey);
    expect(texts[0]).toContain('[REDACTED:github-token]');
    expect(texts[1]).toContain('[REDACTED:aws-access-key]');
    expect(texts[2]).toBe('Builds run with turbo');
    expect(result.facts.map((item) => [item.uuid, item.rank])).toEqual([['a', 0], ['b', 1], ['c', 2]]);
  });
});

describe('guardRecalledFacts', () => {
  it('leaves out a fact the guard failed on, keeps the rest in order', async () => {
    const guard: SecretGuard = {
      redact: async (text) => {
        if (text.includes('boom')) throw new Error('scanner broke');
        return { text: text.replace('secret', '[REDACTED:x]'), findings: [] };
      },
    };
    const guarded = await guardRecalledFacts(guard, [
      { uuid: '1', fact: 'a secret here' },
      { uuid: '2', fact: 'boom' },
      { uuid: '3', fact: 'plain' },
    ]);
    expect(guarded).toEqual([
      { uuid: '1', fact: 'a [REDACTED:x] here' },
      { uuid: '3', fact: 'plain' },
    ]);
  });
});
