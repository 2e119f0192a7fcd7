// createGraphitiClient against both faces of the emulator: `rest` and `mcp` build that client;
// `auto` probes once, on the first call, says which face it chose, and does not remember a failure.
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGraphitiClient,
  GraphitiClient,
  GraphitiConnectionError,
  GraphitiMcpClient,
  GraphitiUsageError,
  probeGraphitiServer,
} from './index.js';

let rest: RunningEmulator;
let mcp: RunningEmulator;

beforeAll(async () => {
  [rest, mcp] = await Promise.all([startEmulator({ processingDelayMs: 1 }), startEmulator({ processingDelayMs: 1, face: 'mcp' })]);
});

afterAll(async () => {
  await Promise.all([rest.close(), mcp.close()]);
});

describe('createGraphitiClient', () => {
  it('builds the client of the kind asked for', async () => {
    const restClient = createGraphitiClient({ baseUrl: rest.url, kind: 'rest' });
    const mcpClient = createGraphitiClient({ baseUrl: mcp.url, kind: 'mcp' });
    expect(restClient).toBeInstanceOf(GraphitiClient);
    expect(mcpClient).toBeInstanceOf(GraphitiMcpClient);
    await expect(restClient.serverFace()).resolves.toMatchObject({ kind: 'rest' });
    await expect(mcpClient.serverFace()).resolves.toMatchObject({ kind: 'mcp' });
    await Promise.all([restClient.close(), mcpClient.close()]);
  });

  it('refuses an unknown kind', () => {
    expect(() => createGraphitiClient({ baseUrl: rest.url, kind: 'grpc' as never })).toThrow(GraphitiUsageError);
  });

  it('auto: /healthcheck answering means REST, probed once', async () => {
    rest.clearRequests();
    const client = createGraphitiClient({ baseUrl: rest.url });
    expect(rest.requests).toHaveLength(0);
    await expect(client.serverFace()).resolves.toEqual({ kind: 'rest', reason: expect.stringContaining('/healthcheck') });
    await client.search({ group_ids: ['g'], query: 'x' });
    await client.search({ group_ids: ['g'], query: 'y' });
    expect(rest.requests.filter((request) => request.path === '/healthcheck')).toHaveLength(1);
    expect(rest.requests.filter((request) => request.route === 'search')).toHaveLength(2);
    await client.close();
  });

  it('auto: /health plus an MCP session means MCP', async () => {
    mcp.clearRequests();
    const client = createGraphitiClient({ baseUrl: mcp.url });
    await expect(client.serverFace()).resolves.toEqual({ kind: 'mcp', reason: expect.stringContaining('/health') });
    await client.search({ group_ids: ['g'], query: 'x' });
    expect(mcp.requests.filter((request) => request.route === 'search_memory_facts')).toHaveLength(1);
    await client.close();
  });

  it('auto: a caller’s abort stops its wait but not the probe, which is remembered', async () => {
    mcp.setFaults({ health: { latencyMs: 150 } });
    mcp.clearRequests();
    try {
      const client = createGraphitiClient({ baseUrl: mcp.url });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      await expect(client.search({ group_ids: ['g'], query: 'x' }, { signal: controller.signal })).rejects.toMatchObject({ kind: 'abort' });
      await expect(client.serverFace()).resolves.toMatchObject({ kind: 'mcp' });
      expect(mcp.requests.filter((request) => request.route === 'health')).toHaveLength(1);
      await client.close();
    } finally {
      mcp.setFaults({});
    }
  });

  it('auto: a URL ending in /mcp means MCP without probing', async () => {
    const probed = await probeGraphitiServer({ baseUrl: 'http://127.0.0.1:9/mcp/' });
    expect(probed.face).toEqual({ kind: 'mcp', reason: 'auto: the URL ends in /mcp' });
    await probed.client.close();
  });

  it('auto: nothing answering fails the call, and the next call probes again', async () => {
    const later = await startEmulator({ face: 'mcp' });
    const { url, port } = later;
    await later.close();
    const client = createGraphitiClient({ baseUrl: url, maxRetries: 0 });
    await expect(client.serverFace()).rejects.toBeInstanceOf(GraphitiConnectionError);
    const back = await startEmulator({ face: 'mcp', port });
    try {
      await expect(client.serverFace()).resolves.toMatchObject({ kind: 'mcp' });
    } finally {
      await client.close();
      await back.close();
    }
  });
});
