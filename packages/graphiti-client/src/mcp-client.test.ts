// GraphitiMcpClient over real loopback HTTP against the emulator's MCP face: the shared contract,
// then what is MCP's own: the tool arguments on the wire, get_episodes' uuid order, `{ error }`
// results as typed errors, sessions (reused, re-opened after a restart), timeouts, aborts, retries.
import { randomUUID } from 'node:crypto';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GraphitiAbortError,
  GraphitiConnectionError,
  GraphitiMcpClient,
  GraphitiNotFoundError,
  GraphitiServerError,
  GraphitiTimeoutError,
  GraphitiUsageError,
  GraphitiValidationError,
} from './index.js';
import { toolError } from './mcp/mcp-errors.js';
import { defineClientContract } from '../test-support/contract.js';

let emulator: RunningEmulator;
let client: GraphitiMcpClient;

beforeAll(async () => {
  emulator = await startEmulator({ processingDelayMs: 1, face: 'mcp' });
  client = new GraphitiMcpClient({ baseUrl: emulator.url, timeoutMs: 5_000 });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

/** Resolves once `count()` reaches `at least`: the abort tests abort a request the server already holds. */
async function whenSeen(count: () => number, atLeast = 1): Promise<void> {
  while (count() < atLeast) await new Promise((resolve) => setTimeout(resolve, 10));
}

function toolCalls(tool: string): Record<string, unknown>[] {
  return emulator.requests
    .filter((request) => request.route === tool)
    .map((request) => (request.body as { params: { arguments: Record<string, unknown> } }).params.arguments);
}

const initializeCount = (): number =>
  emulator.requests.filter((request) => (request.body as { method?: string } | null)?.method === 'initialize').length;

describe('contract against the emulator’s MCP face', () => {
  defineClientContract({ client: () => client, processingTimeoutMs: 5_000, pollIntervalMs: 10, testTimeoutMs: 30_000 });
});

describe('the MCP tools on the wire', () => {
  it('addMessages sends one add_memory per message, in order, shaped like the REST server’s episodes', async () => {
    emulator.clearRequests();
    await client.addMessages({
      group_id: 'wire',
      messages: [
        { name: 'a', role: 'ada', role_type: 'user', content: 'Hello.', timestamp: '2025-01-01T10:00:00Z', source_description: 'chat' },
        { name: 'b', role: null, role_type: 'assistant', content: 'Hi.' },
      ],
    });
    expect(toolCalls('add_memory')).toEqual([
      {
        name: 'a',
        episode_body: 'ada(user): Hello.',
        group_id: 'wire',
        source: 'message',
        source_description: 'chat',
        reference_time: '2025-01-01T10:00:00Z',
      },
      { name: 'b', episode_body: '(assistant): Hi.', group_id: 'wire', source: 'message', source_description: '' },
    ]);
    await emulator.idle();
    await client.deleteGroup('wire');
    expect(toolCalls('clear_graph')).toEqual([{ group_ids: ['wire'] }]);
  });

  it('search sends query, group_ids and max_facts to search_memory_facts, and refuses every-group search', async () => {
    emulator.clearRequests();
    await client.search({ group_ids: ['g1', 'g2'], query: 'pnpm', max_facts: 3 });
    expect(toolCalls('search_memory_facts')).toEqual([{ query: 'pnpm', group_ids: ['g1', 'g2'], max_facts: 3 }]);
    await expect(client.search({ group_ids: null, query: 'pnpm' })).rejects.toBeInstanceOf(GraphitiUsageError);
  });

  it('healthcheck reads GET /health and the get_status tool', async () => {
    emulator.clearRequests();
    await expect(client.healthcheck()).resolves.toMatchObject({ status: 'healthy', service: 'graphiti-mcp' });
    expect(emulator.requests.map((request) => request.route)).toEqual(['health', 'get_status']);
  });

  it('getEpisodes reads the whole group and orders by time itself: MCP answers by uuid', async () => {
    const group = `order_${randomUUID().slice(0, 8)}`;
    const names = Array.from({ length: 12 }, (_, index) => `m${String(index).padStart(2, '0')}`);
    for (const name of names) {
      await client.addMessages({ group_id: group, messages: [{ name, role: null, role_type: 'user', content: `Message ${name}.` }] });
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await emulator.idle();
    emulator.clearRequests();
    const newest = await client.getEpisodes(group, { lastN: 4 });
    expect(newest.map((episode) => episode.name)).toEqual(names.slice(-4));
    expect(toolCalls('get_episodes')).toEqual([{ group_ids: [group], max_episodes: 500 }]);
    expect(newest[0]).toMatchObject({ group_id: group, source: 'message', labels: [], entity_edges: [] });
    expect(newest[0]?.valid_at).toBe(newest[0]?.created_at);
    const all = await client.getEpisodes(group, { lastN: 100 });
    expect(all.map((episode) => episode.name)).toEqual(names);
    await client.deleteGroup(group);
  });
});

describe('{ error } results become the REST client’s typed errors', () => {
  const request = { method: 'MCP', path: '/mcp/ tool' };

  it('maps upstream’s error texts by kind, with REST’s status and retryable', () => {
    expect(toolError(request, 'Error getting entity edge: edge x not found')).toMatchObject({ kind: 'not-found', status: 404, retryable: false });
    expect(toolError(request, 'Error deleting episode: node x not found')).toBeInstanceOf(GraphitiNotFoundError);
    for (const text of [
      'max_facts must be a positive integer',
      "Invalid reference_time: Invalid isoformat string: 'x'",
      'Invalid date filter: bad',
      'No group IDs specified for clearing',
    ]) {
      expect(toolError(request, text)).toMatchObject({ kind: 'validation', status: 422, retryable: false });
    }
    expect(toolError(request, 'Graphiti service not initialized')).toMatchObject({ kind: 'server', status: 503, retryable: true });
    expect(toolError(request, 'Error searching facts: connection lost')).toMatchObject({ kind: 'server', status: 500, retryable: true });
  });

  it('an unknown uuid over MCP is a GraphitiNotFoundError carrying the server’s text', async () => {
    const error = await client.getEntityEdge('no-such-edge').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphitiNotFoundError);
    expect(error).toMatchObject({ detail: 'Error getting entity edge: edge no-such-edge not found' });
  });

  it('a tool-level validation result is a GraphitiValidationError, never retried', async () => {
    // The client refuses max_facts <= 0 itself, so speak to the tool through a raw call.
    const raw = client as unknown as {
      callTool: (tool: string, args: object, schema: unknown, settings: object) => Promise<unknown>;
    };
    emulator.clearRequests();
    const { z } = await import('zod');
    const error = await raw
      .callTool('search_memory_facts', { query: 'x', max_facts: 0 }, z.unknown(), { signal: undefined, timeoutMs: 5_000, maxRetries: 2 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphitiValidationError);
    expect(toolCalls('search_memory_facts')).toHaveLength(1);
  });
});

describe('sessions', () => {
  it('opens one session lazily and reuses it', async () => {
    const fresh = new GraphitiMcpClient({ baseUrl: emulator.url });
    emulator.clearRequests();
    expect(initializeCount()).toBe(0);
    await Promise.all([fresh.search({ group_ids: ['s'], query: 'a' }), fresh.search({ group_ids: ['s'], query: 'b' })]);
    await fresh.search({ group_ids: ['s'], query: 'c' });
    expect(initializeCount()).toBe(1);
    await fresh.close();
  });

  it('opens a new session after the server restarted, without failing the call', async () => {
    const fresh = new GraphitiMcpClient({ baseUrl: emulator.url, maxRetries: 0 });
    await fresh.search({ group_ids: ['s'], query: 'a' });
    await emulator.restartServer();
    emulator.clearRequests();
    await expect(fresh.search({ group_ids: ['s'], query: 'b' })).resolves.toEqual({ facts: [] });
    expect(initializeCount()).toBe(1);
    await fresh.close();
  });

  it('accepts a base URL that names the /mcp endpoint', async () => {
    const fresh = new GraphitiMcpClient({ baseUrl: `${emulator.url}/mcp/` });
    expect(fresh.baseUrl).toBe(emulator.url);
    await expect(fresh.healthcheck()).resolves.toMatchObject({ status: 'healthy' });
    await fresh.close();
  });

  it('ends its session on close(), so the server can free it', async () => {
    const fresh = new GraphitiMcpClient({ baseUrl: emulator.url });
    await fresh.openSession();
    emulator.clearRequests();
    await fresh.close();
    expect(emulator.requests.map((request) => `${request.method} ${request.route} ${request.status}`)).toEqual(['DELETE mcp 200']);
  });

  it('close() does not wait longer than timeoutMs for a server that hangs', async () => {
    const fresh = new GraphitiMcpClient({ baseUrl: emulator.url, timeoutMs: 200 });
    await fresh.openSession();
    emulator.setFaults({ mcp: { hangRate: 1 } });
    try {
      const started = Date.now();
      await fresh.close();
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      emulator.setFaults({});
    }
  });

  it('fails after close()', async () => {
    const fresh = new GraphitiMcpClient({ baseUrl: emulator.url });
    await fresh.close();
    await expect(fresh.search({ group_ids: ['s'], query: 'a' })).rejects.toBeInstanceOf(GraphitiUsageError);
  });
});

describe('failures, timeouts, aborts and retries', () => {
  it('retries a 500 from the server maxRetries times, then fails with GraphitiServerError', async () => {
    const fresh = new GraphitiMcpClient({ baseUrl: emulator.url, maxRetries: 2 });
    await fresh.openSession();
    emulator.setFaults({ search_memory_facts: { errorRate: 1 } });
    emulator.clearRequests();
    try {
      const error = await fresh.search({ group_ids: ['s'], query: 'a' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GraphitiServerError);
      expect(error).toMatchObject({ status: 500, retryable: true });
      expect(toolCalls('search_memory_facts')).toHaveLength(3);
    } finally {
      emulator.setFaults({});
      await fresh.close();
    }
  });

  it('a hung tool call is a GraphitiTimeoutError within timeoutMs', async () => {
    const fresh = new GraphitiMcpClient({ baseUrl: emulator.url, maxRetries: 0, timeoutMs: 200 });
    await fresh.openSession();
    emulator.setFaults({ search_memory_facts: { hangRate: 1 } });
    try {
      const started = Date.now();
      await expect(fresh.search({ group_ids: ['s'], query: 'a' })).rejects.toBeInstanceOf(GraphitiTimeoutError);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      emulator.setFaults({});
      await fresh.close();
    }
  });

  it('the caller’s abort is a GraphitiAbortError and is not retried', async () => {
    const fresh = new GraphitiMcpClient({ baseUrl: emulator.url, maxRetries: 3 });
    await fresh.openSession();
    emulator.setFaults({ search_memory_facts: { hangRate: 1 } });
    emulator.clearRequests();
    try {
      const controller = new AbortController();
      const pending = fresh.search({ group_ids: ['s'], query: 'a' }, { signal: controller.signal });
      await whenSeen(() => toolCalls('search_memory_facts').length);
      controller.abort();
      await expect(pending).rejects.toBeInstanceOf(GraphitiAbortError);
      expect(toolCalls('search_memory_facts')).toHaveLength(1);
    } finally {
      emulator.setFaults({});
      await fresh.close();
    }
  });

  it('nothing listening is a retryable GraphitiConnectionError with the socket code, as over REST', async () => {
    const gone = await startEmulator({ face: 'mcp' });
    const url = gone.url;
    await gone.close();
    const fresh = new GraphitiMcpClient({ baseUrl: url, maxRetries: 0 });
    const error = await fresh.search({ group_ids: ['s'], query: 'a' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphitiConnectionError);
    expect(error).toMatchObject({ retryable: true, code: 'ECONNREFUSED' });
    await fresh.close();
  });
});
