// Upstream's structured writes on the MCP face: `add_memory` with `source: "json"` and
// `custom_extraction_instructions`, and `add_triplet` (main since 29a7565); the tagged v1.0.2
// release has neither of the last two.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from './server.js';
import type { EmulatorOptions, RunningEmulator } from './types.js';

let emulator: RunningEmulator | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await emulator?.close();
  emulator = undefined;
});

async function connect(options: EmulatorOptions = {}): Promise<{ running: RunningEmulator; client: Client }> {
  emulator = await startEmulator({ processingDelayMs: 1, face: 'mcp', ...options });
  const client = new Client({ name: 'emulator-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${emulator.url}/mcp/`)));
  clients.push(client);
  return { running: emulator, client };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  return JSON.parse(content[0]?.text ?? 'null') as Record<string, unknown>;
}

describe('emulator MCP structured writes', () => {
  it('stores a json episode as given and extracts from its string values', async () => {
    const { running, client } = await connect();
    const body = JSON.stringify({ turn: { id: 'turn:t1', text: 'Ada prefers pnpm for the monorepo' } });
    await expect(call(client, 'add_memory', { name: 'mirror.turn.t1', episode_body: body, group_id: 'g1', source: 'json' })).resolves.toEqual({
      message: "Episode 'mirror.turn.t1' queued for processing in group 'g1'",
    });
    await running.idle();
    const [episode] = running.state.episodes('g1');
    expect(episode).toMatchObject({ name: 'mirror.turn.t1', source: 'json', content: body });
    expect(running.state.facts('g1').some((fact) => fact.fact.startsWith('Ada prefers pnpm for the monorepo'))).toBe(true);
  });

  it('takes custom_extraction_instructions on main; the tool list says so', async () => {
    const { running, client } = await connect();
    const { tools } = await client.listTools();
    const addMemory = tools.find((tool) => tool.name === 'add_memory');
    expect(Object.keys(addMemory?.inputSchema.properties ?? {})).toContain('custom_extraction_instructions');
    await call(client, 'add_memory', { name: 'n', episode_body: 'We use pnpm.', group_id: 'g1', custom_extraction_instructions: 'Entities: Repository.' });
    await running.idle();
    expect(running.state.episodes('g1')).toHaveLength(1);
  });

  it('writes a triplet directly, reuses nodes by uuid and the edge when the same fact is written again', async () => {
    const { running, client } = await connect();
    const args = {
      source_node_name: 'turn:t1',
      edge_name: 'USES_TOOL',
      fact: 'turn:t1 called tool:t1:0',
      target_node_name: 'tool:t1:0',
      group_id: 'g1',
      source_node_uuid: '11111111-1111-5111-8111-111111111111',
      target_node_uuid: '22222222-2222-5222-8222-222222222222',
    };
    const first = await call(client, 'add_triplet', args);
    expect(first['message']).toBe("Triplet 'turn:t1 -[USES_TOOL]-> tool:t1:0' added");
    expect((first['nodes'] as { uuid: string }[]).map((node) => node.uuid)).toEqual([args.source_node_uuid, args.target_node_uuid]);
    const [edge] = first['edges'] as Record<string, unknown>[];
    expect(edge).toMatchObject({ name: 'USES_TOOL', source_node_uuid: args.source_node_uuid, target_node_uuid: args.target_node_uuid, group_id: 'g1' });
    expect(Object.keys(edge ?? {}).sort()).toEqual(
      ['created_at', 'fact', 'group_id', 'invalid_at', 'name', 'source_node_uuid', 'target_node_uuid', 'uuid', 'valid_at'].sort(),
    );
    const again = await call(client, 'add_triplet', args);
    expect((again['edges'] as { uuid: string }[])[0]?.uuid).toBe(edge?.['uuid']);
    expect(running.state.facts('g1')).toHaveLength(1);
    expect(running.state.nodes('g1').map((node) => node.name)).toEqual(['turn:t1', 'tool:t1:0']);
    expect(running.state.facts('g1')[0]?.episodes).toEqual([]);
  });

  it('refuses a triplet without any group (no default configured)', async () => {
    const { client } = await connect({ defaultGroupId: '' });
    await expect(call(client, 'add_triplet', { source_node_name: 'a', edge_name: 'R', fact: 'a r b', target_node_name: 'b' })).resolves.toEqual({
      error: 'No group_id provided and no default group_id is configured',
    });
  });

  it('plays the tagged v1.0.2 release: no add_triplet, add_memory without the newer arguments', async () => {
    const { client } = await connect({ mcpRelease: 'v1.0.2' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('add_triplet');
    const addMemory = tools.find((tool) => tool.name === 'add_memory');
    expect(Object.keys(addMemory?.inputSchema.properties ?? {}).sort()).toEqual(['episode_body', 'group_id', 'name', 'source', 'source_description', 'uuid']);
  });
});
