// The structured writes on both faces against the emulator (which plays upstream's shapes, see
// structure.ts for where each was read): capabilities from the tool list, JSON episodes,
// add_triplet, extraction guidance only where the server declares it, /entity-node on REST.
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphitiClient, GraphitiMcpClient, GraphitiUsageError, createGraphitiClient, type GraphitiApi } from './index.js';

let emulator: RunningEmulator | undefined;
let client: GraphitiApi | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  client = undefined;
  emulator = undefined;
});

function toolArguments(running: RunningEmulator, tool: string): Record<string, unknown>[] {
  return running.requests
    .filter((request) => request.route === tool)
    .map((request) => (request.body as { params: { arguments: Record<string, unknown> } }).params.arguments);
}

async function mcp(release: 'main' | 'v1.0.2' = 'main'): Promise<{ running: RunningEmulator; api: GraphitiMcpClient }> {
  emulator = await startEmulator({ processingDelayMs: 1, face: 'mcp', mcpRelease: release });
  const api = new GraphitiMcpClient({ baseUrl: emulator.url, timeoutMs: 5_000 });
  client = api;
  return { running: emulator, api };
}

describe('structured writes over MCP', () => {
  it('reads what main offers from the tool list, once per session', async () => {
    const { running, api } = await mcp();
    await expect(api.capabilities()).resolves.toEqual({ face: 'mcp', jsonEpisodes: true, extractionInstructions: true, triplets: true, entityNodes: false });
    await api.capabilities();
    expect(running.requests.filter((request) => (request.body as { method?: string } | null)?.method === 'tools/list')).toHaveLength(1);
  });

  it('sends a JSON episode as a JSON string with source json, and refuses a body that is not JSON', async () => {
    const { running, api } = await mcp();
    const body = JSON.stringify({ conversation: { id: 'conv:s1' } });
    await api.addMemory({ name: 'mirror.turn.t1', episode_body: body, group_id: 'g1', source: 'json', reference_time: '2026-11-01T10:00:00Z' });
    expect(toolArguments(running, 'add_memory')).toEqual([
      { name: 'mirror.turn.t1', episode_body: body, group_id: 'g1', source: 'json', reference_time: '2026-11-01T10:00:00Z' },
    ]);
    await expect(api.addMemory({ name: 'x', episode_body: '{not json', group_id: 'g1', source: 'json' })).rejects.toThrow(/episode_body must be a JSON string/);
    await running.idle();
    expect(running.state.episodes('g1')[0]).toMatchObject({ source: 'json', content: body });
  });

  it('writes a triplet and returns upstream’s TripletResponse', async () => {
    const { running, api } = await mcp();
    const answer = await api.addTriplet({
      source_node_name: 'conv:s1',
      edge_name: 'HAS_TURN',
      fact: 'conv:s1 has turn turn:t1',
      target_node_name: 'turn:t1',
      group_id: 'g1',
      source_node_uuid: '7a1c1b4e-0000-5000-8000-000000000001',
      target_node_uuid: '7a1c1b4e-0000-5000-8000-000000000002',
    });
    expect(answer.edges[0]).toMatchObject({ name: 'HAS_TURN', source_node_uuid: '7a1c1b4e-0000-5000-8000-000000000001' });
    expect(answer.nodes.map((node) => node.name)).toEqual(['conv:s1', 'turn:t1']);
    expect(running.state.facts('g1')).toHaveLength(1);
  });

  it('passes extraction guidance to main and drops it for v1.0.2 (whose add_memory does not declare it)', async () => {
    const main = await mcp();
    await main.api.addMessages(
      { group_id: 'g1', messages: [{ role: 'ada', role_type: 'user', content: 'We use pnpm.', name: 'n1' }] },
      { extractionInstructions: 'Entities: Repository, Tool.' },
    );
    expect(toolArguments(main.running, 'add_memory')[0]?.['custom_extraction_instructions']).toBe('Entities: Repository, Tool.');
    await client?.close();
    await emulator?.close();

    const old = await mcp('v1.0.2');
    await expect(old.api.capabilities()).resolves.toMatchObject({ triplets: false, extractionInstructions: false, jsonEpisodes: true });
    await old.api.addMessages(
      { group_id: 'g1', messages: [{ role: 'ada', role_type: 'user', content: 'We use pnpm.', name: 'n1' }] },
      { extractionInstructions: 'Entities: Repository, Tool.' },
    );
    expect(toolArguments(old.running, 'add_memory')[0]).not.toHaveProperty('custom_extraction_instructions');
    await expect(old.api.addTriplet({ source_node_name: 'a', edge_name: 'R', fact: 'a r b', target_node_name: 'b', group_id: 'g1' })).rejects.toBeInstanceOf(GraphitiUsageError);
    await expect(
      old.api.addMemory({ name: 'n', episode_body: 'x', group_id: 'g1', custom_extraction_instructions: 'Entities: Tool.' }),
    ).rejects.toThrow(/does not take custom_extraction_instructions/);
    expect(toolArguments(old.running, 'add_triplet')).toEqual([]);
  });

  it('has no entity-node route', async () => {
    const { api } = await mcp();
    await expect(api.addEntityNode({ uuid: 'u', group_id: 'g1', name: 'n' })).rejects.toBeInstanceOf(GraphitiUsageError);
  });
});

describe('structured writes over REST', () => {
  it('takes entity nodes with the caller’s uuid, idempotently, and nothing of MCP’s', async () => {
    emulator = await startEmulator({ processingDelayMs: 1 });
    const api = new GraphitiClient({ baseUrl: emulator.url, timeoutMs: 5_000 });
    client = api;
    await expect(api.capabilities()).resolves.toEqual({ face: 'rest', jsonEpisodes: false, extractionInstructions: false, triplets: false, entityNodes: true });
    const node = await api.addEntityNode({ uuid: '7a1c1b4e-0000-5000-8000-000000000003', group_id: 'g1', name: 'turn:t1', summary: 'a turn' });
    expect(node).toMatchObject({ uuid: '7a1c1b4e-0000-5000-8000-000000000003', name: 'turn:t1', group_id: 'g1', summary: 'a turn' });
    await api.addEntityNode({ uuid: '7a1c1b4e-0000-5000-8000-000000000003', group_id: 'g1', name: 'turn:t1', summary: 'a turn' });
    expect(emulator.state.nodes('g1')).toHaveLength(1);
    await expect(api.addMemory({ name: 'n', episode_body: '{}', group_id: 'g1', source: 'json' })).rejects.toBeInstanceOf(GraphitiUsageError);
    await expect(api.addTriplet({ source_node_name: 'a', edge_name: 'R', fact: 'a r b', target_node_name: 'b', group_id: 'g1' })).rejects.toBeInstanceOf(GraphitiUsageError);
  });

  it('reaches either face through createGraphitiClient', async () => {
    emulator = await startEmulator({ processingDelayMs: 1, face: 'mcp' });
    client = createGraphitiClient({ baseUrl: emulator.url, timeoutMs: 5_000 });
    await expect(client.capabilities()).resolves.toMatchObject({ face: 'mcp', triplets: true });
  });
});
