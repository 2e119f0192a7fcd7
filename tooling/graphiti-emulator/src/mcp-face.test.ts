// The MCP face over real loopback HTTP, spoken to with the MCP SDK's own client: upstream's tool
// names, parameters and answers, its `{ error }` results, uuid-descending get_episodes, per-group
// queues, sessions lost on restart, and the fault switches.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from './server.js';
import { get, post } from './test-support/http.js';
import type { EmulatorOptions, RunningEmulator } from './types.js';

let emulator: RunningEmulator | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await emulator?.close();
  emulator = undefined;
});

async function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  emulator = await startEmulator({ processingDelayMs: 1, face: 'mcp', ...options });
  return emulator;
}

async function connect(running: RunningEmulator): Promise<Client> {
  const client = new Client({ name: 'emulator-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp/`)));
  clients.push(client);
  return client;
}

/** Calls a tool and parses its JSON text answer, as upstream's FastMCP writes it. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  expect(result.isError).toBeFalsy();
  expect(content[0]?.type).toBe('text');
  return JSON.parse(content[0]?.text ?? 'null') as Record<string, unknown>;
}

describe('emulator MCP face', () => {
  it('answers GET /health like upstream and has no REST routes', async () => {
    const running = await start();
    await expect(get(running.url, '/health')).resolves.toMatchObject({
      status: 200,
      body: { status: 'healthy', service: 'graphiti-mcp' },
    });
    expect((await get(running.url, '/healthcheck')).status).toBe(404);
    expect((await post(running.url, '/messages', { group_id: 'g', messages: [] })).status).toBe(404);
  });

  it('lists upstream’s tools', async () => {
    const client = await connect(await start());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'add_memory',
        'add_triplet',
        'clear_graph',
        'delete_entity_edge',
        'delete_episode',
        'get_entity_edge',
        'get_episodes',
        'get_status',
        'search_memory_facts',
        'search_nodes',
      ].sort(),
    );
  });

  it('queues add_memory, stores the episode as given, and finds its facts', async () => {
    const running = await start();
    const client = await connect(running);
    await expect(
      call(client, 'add_memory', {
        name: 'turn-1.user',
        episode_body: 'ada(user): Ada prefers pnpm for the monorepo.',
        group_id: 'g1',
        source: 'message',
        source_description: 'test',
        reference_time: '2025-01-01T10:00:00Z',
      }),
    ).resolves.toEqual({ message: "Episode 'turn-1.user' queued for processing in group 'g1'" });
    await running.idle();
    const [episode] = running.state.episodes('g1');
    expect(episode).toMatchObject({
      name: 'turn-1.user',
      content: 'ada(user): Ada prefers pnpm for the monorepo.',
      source: 'message',
      valid_at: '2025-01-01T10:00:00+00:00',
    });
    const found = await call(client, 'search_memory_facts', { query: 'pnpm monorepo', group_ids: ['g1'], max_facts: 5 });
    expect(found['message']).toBe('Facts retrieved successfully');
    const facts = found['facts'] as Record<string, unknown>[];
    expect(facts[0]).toMatchObject({ group_id: 'g1', episodes: [episode?.uuid], attributes: {}, invalid_at: null });
    expect(String(facts[0]?.['fact'])).toMatch(/pnpm/);
    // A single group id string is accepted as a one-element list.
    expect((await call(client, 'search_memory_facts', { query: 'pnpm', group_ids: 'g1' }))['facts']).toHaveLength(1);
    await expect(call(client, 'search_memory_facts', { query: 'pnpm', group_ids: ['other'] })).resolves.toEqual({
      message: 'No relevant facts found',
      facts: [],
    });
  });

  it('reports failures as successful results carrying { error }', async () => {
    const client = await connect(await start());
    await expect(call(client, 'search_memory_facts', { query: 'x', group_ids: ['g'], max_facts: 0 })).resolves.toEqual({
      error: 'max_facts must be a positive integer',
    });
    await expect(call(client, 'get_entity_edge', { uuid: 'nope' })).resolves.toEqual({
      error: 'Error getting entity edge: edge nope not found',
    });
    await expect(call(client, 'delete_entity_edge', { uuid: 'nope' })).resolves.toEqual({
      error: 'Error deleting entity edge: edge nope not found',
    });
    await expect(call(client, 'delete_episode', { uuid: 'nope' })).resolves.toEqual({
      error: 'Error deleting episode: node nope not found',
    });
    await expect(call(client, 'clear_graph', { group_ids: [] })).resolves.toEqual({ error: 'No group IDs specified for clearing' });
    const invalid = await call(client, 'add_memory', { name: 'n', episode_body: 'b', reference_time: 'yesterday' });
    expect(String(invalid['error'])).toMatch(/^Invalid reference_time: /);
  });

  it('answers get_episodes by uuid, descending, cut at max_episodes — not by time', async () => {
    const running = await start();
    const client = await connect(running);
    for (let index = 0; index < 8; index++) {
      await call(client, 'add_memory', { name: `m${index}`, episode_body: `Message ${index}.`, group_id: 'g', source: 'message' });
    }
    await running.idle();
    const all = (await call(client, 'get_episodes', { group_ids: ['g'], max_episodes: 100 }))['episodes'] as {
      uuid: string;
    }[];
    const uuids = all.map((episode) => episode.uuid);
    expect(uuids).toEqual([...uuids].sort().reverse());
    expect(all[0]).toEqual({
      uuid: expect.any(String),
      name: expect.stringMatching(/^m\d$/),
      content: expect.stringMatching(/^Message \d\.$/),
      created_at: expect.any(String),
      source: 'message',
      source_description: '',
      group_id: 'g',
    });
    const three = (await call(client, 'get_episodes', { group_ids: ['g'], max_episodes: 3 }))['episodes'] as { uuid: string }[];
    expect(three.map((episode) => episode.uuid)).toEqual(uuids.slice(0, 3));
  });

  it('processes each group in order, and a failed episode does not stop its queue', async () => {
    const running = await start();
    const client = await connect(running);
    await call(client, 'add_memory', { name: 'bad', episode_body: 'x', group_id: 'bad group!' });
    await call(client, 'add_memory', { name: 'a1', episode_body: 'First.', group_id: 'a' });
    await call(client, 'add_memory', { name: 'a2', episode_body: 'Second.', group_id: 'a' });
    await call(client, 'add_memory', { name: 'b1', episode_body: 'Other.', group_id: 'b' });
    await running.idle();
    expect(running.state.episodes('a').map((episode) => episode.name)).toEqual(['a1', 'a2']);
    expect(running.state.episodes('b').map((episode) => episode.name)).toEqual(['b1']);
    expect(running.state.workerAlive()).toBe(true);
  });

  it('uses the default group `main` when none is given, and clear_graph clears it', async () => {
    const running = await start();
    const client = await connect(running);
    await call(client, 'add_memory', { name: 'n', episode_body: 'Body.' });
    await running.idle();
    expect(running.state.episodes('main')).toHaveLength(1);
    await expect(call(client, 'clear_graph', {})).resolves.toEqual({ message: 'Graph data cleared successfully for group IDs: main' });
    expect(running.state.episodes('main')).toHaveLength(0);
  });

  it('delete_episode also removes the facts only that episode supports', async () => {
    const running = await start();
    const client = await connect(running);
    await call(client, 'add_memory', { name: 'n', episode_body: 'Ada likes tea.', group_id: 'g' });
    await running.idle();
    const [episode] = running.state.episodes('g');
    expect(running.state.facts('g')).toHaveLength(1);
    await expect(call(client, 'delete_episode', { uuid: episode?.uuid })).resolves.toEqual({
      message: `Episode with UUID ${episode?.uuid} deleted successfully`,
    });
    expect(running.state.facts('g')).toHaveLength(0);
  });

  it('forgets sessions on restart: the old session id is a 404, a new initialize works', async () => {
    const running = await start();
    const client = await connect(running);
    await running.restartServer();
    // The client's pooled connection was dropped by the restart: on a busy machine its first call can
    // still meet it (undici's "fetch failed") before noticing. Asked again, the old session is a 404.
    const oldSession = () => client.callTool({ name: 'get_status', arguments: {} });
    await expect(oldSession().catch((error: unknown) => (String((error as Error).message) === 'fetch failed' ? oldSession() : Promise.reject(error)))).rejects.toThrow(/404|Session not found/);
    const again = await connect(running);
    await expect(call(again, 'get_status', {})).resolves.toMatchObject({ status: 'ok' });
  });

  it('applies fault plans per tool and stops processing on killWorker', async () => {
    const running = await start({ faults: { search_memory_facts: { errorRate: 1 } } });
    const client = await connect(running);
    await expect(client.callTool({ name: 'search_memory_facts', arguments: { query: 'x' } })).rejects.toThrow(/Internal Server Error/);
    expect(running.requests.at(-1)).toMatchObject({ route: 'search_memory_facts', status: 500, fault: 'error' });
    running.killWorker();
    await call(client, 'add_memory', { name: 'lost', episode_body: 'Never stored.', group_id: 'g' });
    await running.idle();
    expect(running.state.episodes('g')).toEqual([]);
    expect(running.state.workerAlive()).toBe(false);
  });
});

describe('REST face with upstream’s closed-client defect', () => {
  it('answers 202 for everything but stores nothing after the first message', async () => {
    const running = await startEmulator({ processingDelayMs: 1, closedClientDefect: true });
    emulator = running;
    const messages = [1, 2, 3].map((index) => ({ name: `m${index}`, role: null, role_type: 'user', content: `Message ${index}.` }));
    for (const message of messages) {
      expect((await post(running.url, '/messages', { group_id: 'g', messages: [message] })).status).toBe(202);
    }
    await running.idle();
    expect(running.state.episodes('g').map((episode) => episode.name)).toEqual(['m1']);
    expect(running.state.workerAlive()).toBe(false);
  });
});
