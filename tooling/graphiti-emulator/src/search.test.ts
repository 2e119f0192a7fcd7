import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchFacts } from './search.js';
import { startEmulator } from './server.js';
import { message, post } from './test-support/http.js';
import type { FactRecord, RunningEmulator } from './types.js';

function fact(text: string, name = 'RELATES_TO'): FactRecord {
  return {
    uuid: text,
    name,
    fact: text,
    valid_at: null,
    invalid_at: null,
    created_at: '2025-01-01T00:00:00+00:00',
    expired_at: null,
    source_node_uuid: 's',
    target_node_uuid: 't',
    episodes: [],
  };
}

describe('searchFacts', () => {
  const facts = [fact('Alice likes green tea'), fact('Bob likes coffee'), fact('Alice plays chess'), fact('Carol writes tests', 'WRITES')];

  it('ranks by distinct query terms, newer first on ties, and leaves out non-matches', () => {
    expect(searchFacts(facts, 'Does Alice like green tea?', 10).map((entry) => entry.fact)).toEqual([
      'Alice likes green tea',
      'Alice plays chess',
    ]);
    expect(searchFacts(facts, 'likes', 10).map((entry) => entry.fact)).toEqual(['Bob likes coffee', 'Alice likes green tea']);
  });

  it('honours max_facts, ignores stop words and matches relation names', () => {
    expect(searchFacts(facts, 'alice', 1)).toHaveLength(1);
    expect(searchFacts(facts, 'the of and', 10)).toEqual([]);
    expect(searchFacts(facts, 'alice', 0)).toEqual([]);
    expect(searchFacts([fact('Carol tests', 'WRITES')], 'writes', 10)).toHaveLength(1);
  });
});

describe('/search over HTTP', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ processingDelayMs: 1 });
    await post(emulator.url, '/messages', { group_id: 'alpha', messages: [message({ content: 'Alice likes tea.' })] });
    await post(emulator.url, '/messages', { group_id: 'beta', messages: [message({ content: 'Bob likes tea.' })] });
    await emulator.idle();
  });
  afterAll(async () => {
    await emulator.close();
  });

  const facts = async (body: unknown) => {
    const reply = await post(emulator.url, '/search', body);
    expect(reply.status).toBe(200);
    return (reply.body as { facts: FactRecord[] }).facts.map((entry) => entry.fact).sort();
  };

  it('filters by group, and group_ids null searches every group', async () => {
    expect(await facts({ group_ids: ['alpha'], query: 'tea' })).toEqual(['Alice likes tea']);
    expect(await facts({ group_ids: ['alpha', 'beta'], query: 'tea' })).toEqual(['Alice likes tea', 'Bob likes tea']);
    expect(await facts({ group_ids: null, query: 'tea' })).toEqual(['Alice likes tea', 'Bob likes tea']);
    expect(await facts({ group_ids: [], query: 'tea' })).toEqual([]);
    expect(await facts({ group_ids: null, query: 'tea', max_facts: 1 })).toHaveLength(1);
  });

  it('answers a plain-text 500 for a group id outside the charset', async () => {
    const reply = await post(emulator.url, '/search', { group_ids: ['alpha', 'not ok'], query: 'tea' });
    expect(reply.status).toBe(500);
    expect(reply.text).toBe('Internal Server Error');
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('/get-memory searches the one group with the messages content', async () => {
    const reply = await post(emulator.url, '/get-memory', {
      group_id: 'beta',
      max_facts: 5,
      center_node_uuid: null,
      messages: [message({ content: 'Who likes tea?' })],
    });
    expect((reply.body as { facts: FactRecord[] }).facts.map((entry) => entry.fact)).toEqual(['Bob likes tea']);
    const bad = await post(emulator.url, '/get-memory', { group_id: 'b/d', center_node_uuid: null, messages: [] });
    expect(bad.status).toBe(500);
  });
});
