// The client's contract with a Graphiti server, written once for the interface both faces share
// (GraphitiApi) and run against each: the emulator's REST and MCP faces (client-routes.test.ts,
// mcp-client.test.ts) and a real Graphiti of either kind when GRAPHITI_URL / GRAPHITI_MCP_URL is
// set (live.test.ts). It works in one random temporary group, deletes it afterwards, and never
// clears anything else.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it as vitestIt } from 'vitest';
import { GraphitiNotFoundError, type Episode, type FactResult, type GraphitiApi } from '../src/index.js';

export interface ContractTarget {
  /** Called in beforeAll; the contract closes nothing it did not create. */
  readonly client: () => GraphitiApi;
  /** How long to wait for `/messages` to be processed (seconds upstream: LLM calls). */
  readonly processingTimeoutMs: number;
  readonly pollIntervalMs: number;
  /** Per-test limit; must exceed processingTimeoutMs. */
  readonly testTimeoutMs: number;
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, intervalMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export function defineClientContract(target: ContractTarget): void {
  const groupId = `graphiti_client_contract_${randomUUID().replaceAll('-', '')}`;
  const run = randomUUID().slice(0, 8);
  const names = [`contract.${run}.user`, `contract.${run}.assistant`];
  let client: GraphitiApi;
  let episodes: Episode[] = [];
  let facts: FactResult[] = [];
  const it = (name: string, test: () => Promise<void>): void => vitestIt(name, test, target.testTimeoutMs);

  beforeAll(() => {
    client = target.client();
  });

  afterAll(async () => {
    // Clean up whatever the contract created, even when a test failed half-way.
    await client.deleteGroup(groupId);
  }, target.testTimeoutMs);

  it('healthcheck answers healthy', async () => {
    await expect(client.healthcheck()).resolves.toMatchObject({ status: 'healthy' });
  });

  it('addMessages is accepted and its episodes appear in getEpisodes, oldest first', async () => {
    const result = await client.addMessages({
      group_id: groupId,
      messages: [
        {
          name: names[0],
          role: 'ada',
          role_type: 'user',
          content: 'Ada prefers pnpm for the monorepo.',
          timestamp: '2025-01-01T10:00:00Z',
          source_description: 'graphiti-client contract test',
        },
        {
          name: names[1],
          role: null,
          role_type: 'assistant',
          content: 'The build uses turbo for every package.',
          timestamp: '2025-01-01T10:00:05Z',
        },
      ],
    });
    expect(result.success).toBe(true);

    episodes = await poll(
      () => client.getEpisodes(groupId, { lastN: 10 }),
      (found) => names.every((name) => found.some((episode) => episode.name === name)),
      target.processingTimeoutMs,
      target.pollIntervalMs,
    );
    expect(episodes.map((episode) => episode.name)).toEqual(names);
    expect(episodes[0]).toMatchObject({ group_id: groupId, source: 'message' });
    expect(episodes[0]?.content).toContain('Ada prefers pnpm');
    // last_n keeps the newest.
    const newest = await client.getEpisodes(groupId, { lastN: 1 });
    expect(newest.map((episode) => episode.name)).toEqual([names[1]]);
  });

  it('search finds the group’s facts, and only that group’s', async () => {
    const results = await poll(
      () => client.search({ group_ids: [groupId], query: 'pnpm monorepo', max_facts: 5 }),
      (found) => found.facts.length > 0,
      target.processingTimeoutMs,
      target.pollIntervalMs,
    );
    facts = results.facts;
    expect(facts.length).toBeGreaterThan(0);
    expect(facts.length).toBeLessThanOrEqual(5);
    expect(facts.map((fact) => fact.fact).join(' ')).toMatch(/pnpm/i);
    const elsewhere = await client.search({ group_ids: [`${groupId}_other`], query: 'pnpm monorepo', max_facts: 5 });
    expect(elsewhere.facts).toEqual([]);
  });

  it('getEntityEdge returns a fact by uuid; deleteEntityEdge removes it; a second get is a 404', async () => {
    const fact = facts[0];
    expect(fact).toBeDefined();
    if (!fact) return;
    await expect(client.getEntityEdge(fact.uuid)).resolves.toMatchObject({ uuid: fact.uuid, fact: fact.fact });
    await expect(client.deleteEntityEdge(fact.uuid)).resolves.toMatchObject({ success: true });
    await expect(client.getEntityEdge(fact.uuid)).rejects.toBeInstanceOf(GraphitiNotFoundError);
  });

  it('unknown uuids are 404s on getEntityEdge, deleteEntityEdge and deleteEpisode', async () => {
    const unknown = randomUUID();
    for (const call of [
      () => client.getEntityEdge(unknown),
      () => client.deleteEntityEdge(unknown),
      () => client.deleteEpisode(unknown),
    ]) {
      const error = await call().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(GraphitiNotFoundError);
      expect(error).toMatchObject({ status: 404, retryable: false });
    }
  });

  it('deleteEpisode removes one episode', async () => {
    const first = episodes[0];
    expect(first).toBeDefined();
    if (!first) return;
    await expect(client.deleteEpisode(first.uuid)).resolves.toMatchObject({ success: true });
    const remaining = await client.getEpisodes(groupId, { lastN: 10 });
    expect(remaining.map((episode) => episode.uuid)).not.toContain(first.uuid);
  });

  it('deleteGroup removes the group; an unknown group is still a success', async () => {
    await expect(client.deleteGroup(groupId)).resolves.toMatchObject({ success: true });
    await expect(client.getEpisodes(groupId, { lastN: 10 })).resolves.toEqual([]);
    await expect(client.deleteGroup(`${groupId}_never_used`)).resolves.toMatchObject({ success: true });
  });
}
