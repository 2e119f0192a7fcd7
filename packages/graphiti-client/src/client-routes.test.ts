// Every method over real loopback HTTP against the emulator: the shared contract, then what only
// the emulator can show (the request log, /clear).
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphitiClient, GraphitiUsageError } from './index.js';
import { defineClientContract } from '../test-support/contract.js';
import { startScriptedServer, json } from '../test-support/scripted-server.js';

let emulator: RunningEmulator;
let client: GraphitiClient;

beforeAll(async () => {
  emulator = await startEmulator({ processingDelayMs: 1 });
  client = new GraphitiClient({ baseUrl: emulator.url, timeoutMs: 5_000 });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe('contract against the emulator', () => {
  defineClientContract({ client: () => client, processingTimeoutMs: 5_000, pollIntervalMs: 10, testTimeoutMs: 30_000 });
});

describe('REST-only routes', () => {
  it('getMemory answers facts for messages of the group', async () => {
    await client.addMessages({
      group_id: 'rest_only',
      messages: [{ name: 'm', role: 'ada', role_type: 'user', content: 'Ada prefers pnpm for the monorepo.' }],
    });
    await emulator.idle();
    const memory = await client.getMemory({
      group_id: 'rest_only',
      max_facts: 5,
      center_node_uuid: null,
      messages: [{ role: 'ada', role_type: 'user', content: 'Which package manager does Ada prefer? pnpm?' }],
    });
    expect(memory.facts.map((fact) => fact.fact).join(' ')).toMatch(/pnpm/);
  });

  it('addEntityNode creates a node with the caller’s uuid', async () => {
    const node = await client.addEntityNode({ uuid: 'node-1', group_id: 'rest_only', name: 'Contract Node', summary: 'made by a test' });
    expect(node).toMatchObject({ uuid: 'node-1', group_id: 'rest_only', name: 'Contract Node' });
    await client.deleteGroup('rest_only');
  });
});

describe('requests on the wire', () => {
  it('sends user-agent and accept on every request, content-type only with a body', async () => {
    emulator.clearRequests();
    await client.healthcheck();
    await client.search({ group_ids: null, query: 'anything', max_facts: 3 });
    const [get, post] = emulator.requests;
    expect(get?.headerNames).toEqual(expect.arrayContaining(['user-agent', 'accept']));
    expect(get?.headerNames).not.toContain('content-type');
    expect(get?.headerNames).not.toContain('authorization');
    expect(post?.headerNames).toEqual(expect.arrayContaining(['user-agent', 'accept', 'content-type']));
    expect(post?.body).toEqual({ group_ids: null, query: 'anything', max_facts: 3 });
  });

  it('sends last_n as a query parameter and percent-encodes path segments', async () => {
    emulator.clearRequests();
    await client.getEpisodes('group_1', { lastN: 7 });
    await expect(client.getEntityEdge('a b/c')).rejects.toMatchObject({ status: 404 });
    expect(emulator.requests[0]).toMatchObject({ method: 'GET', path: '/episodes/group_1', query: { last_n: '7' } });
    expect(emulator.requests[1]).toMatchObject({ method: 'GET', path: '/entity-edge/a%20b%2Fc' });
  });

  it('sends the API key as authorization by default', async () => {
    const keyed = new GraphitiClient({ baseUrl: emulator.url, apiKey: 'test-key' });
    emulator.clearRequests();
    await keyed.healthcheck();
    await keyed.close();
    expect(emulator.requests[0]?.headerNames).toContain('authorization');
  });

  it('sends the API key under a custom header name instead of authorization', async () => {
    const keyed = new GraphitiClient({ baseUrl: emulator.url, apiKey: 'test-key', apiKeyHeader: 'X-Api-Key' });
    emulator.clearRequests();
    await keyed.healthcheck();
    await keyed.close();
    expect(emulator.requests[0]?.headerNames).toContain('x-api-key');
    expect(emulator.requests[0]?.headerNames).not.toContain('authorization');
  });

  it('clear wipes every group (emulator only: never against a live server)', async () => {
    await client.addMessages({
      group_id: 'clear_me',
      messages: [{ name: 'm', role: null, role_type: 'user', content: 'Bob writes tests daily.' }],
    });
    await emulator.idle();
    expect(emulator.state.episodes('clear_me')).toHaveLength(1);
    await expect(client.clear()).resolves.toMatchObject({ success: true });
    expect(emulator.state.episodes()).toEqual([]);
  });
});

describe('refused before any request', () => {
  const message = { role: null, role_type: 'user' as const, content: 'hello there' };

  async function refusal(call: () => Promise<unknown>): Promise<GraphitiUsageError> {
    emulator.clearRequests();
    const error = await call().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(emulator.requests).toEqual([]);
    expect(error).toBeInstanceOf(GraphitiUsageError);
    return error as GraphitiUsageError;
  }

  it('a group_id outside ^[a-zA-Z0-9_-]+$, on every route that takes one', async () => {
    for (const call of [
      () => client.addMessages({ group_id: 'team chat', messages: [message] }),
      () => client.search({ group_ids: ['ok', 'not/ok'], query: 'q' }),
      () => client.getEpisodes('a.b', { lastN: 1 }),
      () => client.deleteGroup('ä'),
      () => client.getMemory({ group_id: '', center_node_uuid: null, messages: [message] }),
      () => client.addEntityNode({ uuid: 'u', group_id: 'x y', name: 'n' }),
    ]) {
      expect((await refusal(call)).message).toMatch(/group_id must match \^\[a-zA-Z0-9_-\]\+\$.*map other names to a safe id/);
    }
  });

  it('a message with uuid set on addMessages, explaining upstream #1646', async () => {
    const error = await refusal(() =>
      client.addMessages({ group_id: 'g', messages: [{ ...message, uuid: 'b1c9' }] }),
    );
    expect(error.message).toContain(
      'never set uuid for a new message: the server treats it as an existing episode to re-process (upstream #1646)',
    );
  });

  it('lastN that is not a positive integer', async () => {
    for (const lastN of [0, -1, 1.5, Number.NaN]) {
      expect((await refusal(() => client.getEpisodes('g', { lastN }))).message).toMatch(/^getEpisodes refused .*lastN/);
    }
    expect((await refusal(() => client.getEpisodes('g', {} as { lastN: number }))).message).toMatch(/lastN is required/);
  });

  it('empty uuids and invalid per-call options', async () => {
    await refusal(() => client.deleteEpisode(''));
    await refusal(() => client.healthcheck({ timeoutMs: 0 }));
    await refusal(() => client.search({ group_ids: null, query: 'q', max_facts: 0 }));
  });

  it('an invalid baseUrl, in the constructor', () => {
    expect(() => new GraphitiClient({ baseUrl: 'localhost:8000' })).toThrow(GraphitiUsageError);
    expect(() => new GraphitiClient({ baseUrl: 'localhost:8000' })).toThrow(/absolute http:\/\/ or https:\/\/ URL/);
  });

  it('any call after close()', async () => {
    const closed = new GraphitiClient({ baseUrl: emulator.url });
    await closed.close();
    expect((await refusal(() => closed.healthcheck())).message).toMatch(/after close\(\)/);
  });
});

describe('connections', () => {
  it('reuses keep-alive connections instead of opening one per call', async () => {
    const server = await startScriptedServer((_request, response) => json(response, 200, { status: 'healthy' }));
    const reusing = new GraphitiClient({ baseUrl: server.url });
    for (let index = 0; index < 10; index++) await reusing.healthcheck();
    await reusing.close();
    await server.close();
    expect(server.requests).toHaveLength(10);
    // undici's pool may hand a call to a second idle socket while the first settles; never more.
    expect(new Set(server.requests.map((request) => request.remotePort)).size).toBeLessThanOrEqual(2);
  });

  it('sends the header values: Bearer key by default, the raw key under a custom header, the user agent', async () => {
    const server = await startScriptedServer((_request, response) => json(response, 200, { status: 'healthy' }));
    const bearer = new GraphitiClient({ baseUrl: server.url, apiKey: 'k1', userAgent: 'my-app/1.0' });
    const custom = new GraphitiClient({ baseUrl: server.url, apiKey: 'k2', apiKeyHeader: 'x-api-key' });
    await bearer.healthcheck();
    await custom.healthcheck();
    await Promise.all([bearer.close(), custom.close(), server.close()]);
    expect(server.requests[0]?.headers).toMatchObject({
      authorization: 'Bearer k1',
      'user-agent': 'my-app/1.0',
      accept: 'application/json',
    });
    expect(server.requests[1]?.headers['x-api-key']).toBe('k2');
    expect(server.requests[1]?.headers.authorization).toBeUndefined();
  });

  it('keeps the path prefix of a baseUrl behind a reverse proxy', async () => {
    const server = await startScriptedServer((_request, response) => json(response, 200, []));
    const prefixed = new GraphitiClient({ baseUrl: `${server.url}/graphiti/` });
    await prefixed.getEpisodes('g', { lastN: 2 });
    await prefixed.close();
    await server.close();
    expect(server.requests[0]?.url).toBe('/graphiti/episodes/g?last_n=2');
  });

  it('sends through a caller-supplied dispatcher and leaves it open on close()', async () => {
    let dispatched = 0;
    class CountingAgent extends Agent {
      override dispatch(...args: Parameters<Agent['dispatch']>): boolean {
        dispatched++;
        return super.dispatch(...args);
      }
    }
    const dispatcher = new CountingAgent();
    const viaCaller = new GraphitiClient({ baseUrl: emulator.url, dispatcher });
    await viaCaller.healthcheck();
    await viaCaller.close();
    expect(dispatched).toBe(1);
    // Still usable: the client did not close what it did not create.
    const again = new GraphitiClient({ baseUrl: emulator.url, dispatcher });
    await expect(again.healthcheck()).resolves.toMatchObject({ status: 'healthy' });
    expect(dispatched).toBe(2);
    await dispatcher.close();
  });
});
