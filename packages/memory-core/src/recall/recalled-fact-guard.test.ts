// Recalled text is data: a secret stored in the graph is redacted before recall hands it to any
// caller, and a fact the guard cannot scan is left out (fail closed).
import { describe, expect, it } from 'vitest';
import { fact, FakeGraphitiApi } from '../../test-support/fake-graphiti-api.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { ALPHABETS, FakeValues } from '../../test-support/secret-corpus/fake-values.js';
import type { SecretGuard } from '../secrets/secret-guard.js';
import { fullWidth } from '../../test-support/secret-corpus/secret-corpus.js';
import { sanitiseReadableLine } from '../text/reading-text.js';
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

// Written so a check of the typed text misses them; recall's folding would make them whole again.
const hidden = {
  zeroWidth: { typed: `${awsKey.slice(0, 8)}\u200b${awsKey.slice(8)}`, whole: awsKey },
  fullWidth: { typed: fullWidth(githubToken), whole: githubToken },
  splitByNewline: { typed: `${awsKey.slice(0, 12)}\n${awsKey.slice(12)}`, whole: awsKey },
};

describe('secrets hidden from the typed text', () => {
  it.each(Object.entries(hidden))('a %s secret stored in the graph is not reconstituted by recall', async (_name, { typed, whole }) => {
    const api = new FakeGraphitiApi();
    api.searchHandler = async () => ({ facts: [fact({ uuid: 'a', fact: `Deploys use ${typed} today` })] });
    const services = createPolicyServices({ api });
    const result = await services.recall.recall('how do deploys authenticate', { scopes: ['workspace'] });
    const shown = result.facts.map((item) => sanitiseReadableLine(item.fact)).join('\n');
    expect(shown).not.toContain(whole);
    expect(shown.replace(/\s/g, '')).not.toContain(whole);
    expect(shown).toContain('[REDACTED:');
  });

  const queries: Record<string, { readonly typed: string; readonly secret: string }> = {
    ...Object.fromEntries(Object.entries(hidden).map(([name, { typed, whole }]) => [name, { typed: `why does ${typed} fail`, secret: whole }])),
    'password in plain words': { typed: 'the staging password is hunter2-x9Lq, why is login failing', secret: 'hunter2-x9Lq' },
    'pwd colon': { typed: 'pwd: Zq8!mmP2 does not work on staging', secret: 'Zq8!mmP2' },
    'password colon': { typed: 'password: s3cr3t-Vault7 keeps being rejected', secret: 's3cr3t-Vault7' },
  };
  it.each(Object.entries(queries))('a prompt holding a %s is sent as a search query without it', async (_name, { typed, secret }) => {
    const api = new FakeGraphitiApi();
    const services = createPolicyServices({ api });
    await services.recall.recall(typed, { scopes: ['workspace'] });
    const sent = api.calls.filter((call) => call.method === 'search').map((call) => JSON.stringify(call.args[0]));
    expect(sent).toHaveLength(1);
    const asRead = (text: string): string => JSON.parse(text).query.normalize('NFKC').replace(/[\p{Cf}\s]/gu, '');
    expect(asRead(sent[0] ?? '{}')).not.toContain(secret);
    expect(sent[0]).toContain('[REDACTED:');
  });
});
