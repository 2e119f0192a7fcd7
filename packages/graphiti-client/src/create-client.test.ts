// createGraphitiClient against both faces of the emulator: `rest` and `mcp` build that client;
// `auto` probes once, on the first call, says which face it chose, and does not remember a failure;
// given a remembered face it speaks it without probing, and drops it when a call says it is wrong.
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isWrongFaceError } from './create-client.js';
import {
  createGraphitiClient,
  GraphitiApiError,
  GraphitiClient,
  GraphitiConnectionError,
  GraphitiMcpClient,
  GraphitiNotFoundError,
  GraphitiServerError,
  GraphitiTimeoutError,
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

describe('createGraphitiClient: a remembered face (knownFace, onFace)', () => {
  const probes = (emulator: RunningEmulator) => emulator.requests.filter((request) => ['/healthcheck', '/health'].includes(request.path) || request.route === 'get_status');

  it('speaks a known REST face without probing, and tells nothing', async () => {
    rest.clearRequests();
    const told: unknown[] = [];
    const client = createGraphitiClient({ baseUrl: rest.url, knownFace: 'rest', onFace: (face) => told.push(face) });
    await client.search({ group_ids: ['g'], query: 'x' });
    expect(rest.requests.map((request) => request.route)).toEqual(['search']);
    await expect(client.serverFace()).resolves.toEqual({ kind: 'rest', reason: expect.stringContaining('remembered') });
    expect(told).toEqual([]);
    await client.close();
  });

  it('speaks a known MCP face without probing: no /health, no /healthcheck, no get_status', async () => {
    mcp.clearRequests();
    const client = createGraphitiClient({ baseUrl: mcp.url, knownFace: 'mcp' });
    await client.search({ group_ids: ['g'], query: 'x' });
    expect(probes(mcp)).toEqual([]);
    expect(mcp.requests.filter((request) => request.route === 'search_memory_facts')).toHaveLength(1);
    await client.close();
  });

  it('tells the face a probe chose, once', async () => {
    const told: unknown[] = [];
    const client = createGraphitiClient({ baseUrl: mcp.url, onFace: (face) => told.push(face) });
    await Promise.all([client.search({ group_ids: ['g'], query: 'x' }), client.search({ group_ids: ['h'], query: 'y' })]);
    expect(told).toEqual([{ kind: 'mcp', reason: expect.stringContaining('/health') }]);
    await client.close();
  });

  it.each([
    ['rest', () => mcp, 'mcp'],
    ['mcp', () => rest, 'rest'],
  ] as const)('a wrong known face (%s) fails those calls, is dropped once, and the next call probes the right one', async (known, server, actual) => {
    const told: unknown[] = [];
    const client = createGraphitiClient({ baseUrl: server().url, knownFace: known, maxRetries: 0, onFace: (face) => told.push(face) });
    const calls = await Promise.allSettled([client.search({ group_ids: ['g'], query: 'x' }), client.search({ group_ids: ['h'], query: 'y' })]);
    expect(calls.map((call) => call.status)).toEqual(['rejected', 'rejected']);
    expect(told).toEqual([undefined]);
    server().clearRequests();
    await expect(client.search({ group_ids: ['g'], query: 'x' })).resolves.toMatchObject({ facts: [] });
    expect(probes(server()).length).toBeGreaterThan(0);
    expect(told).toEqual([undefined, { kind: actual, reason: expect.stringContaining('auto:') }]);
    await client.close();
  });

  it('closes a dropped client when its last call has ended (a flapping server leaves none open)', async () => {
    const client = createGraphitiClient({ baseUrl: mcp.url, knownFace: 'rest', maxRetries: 0 });
    const close = vi.spyOn(GraphitiClient.prototype, 'close');
    try {
      const first = client.search({ group_ids: ['g'], query: 'x' });
      const second = client.search({ group_ids: ['h'], query: 'y' });
      await expect(first).rejects.toMatchObject({ status: 404 });
      await expect(second).rejects.toMatchObject({ status: 404 });
      expect(close).toHaveBeenCalledTimes(1);
    } finally {
      close.mockRestore();
      await client.close();
    }
  });

  it('keeps the face when the server says an id does not exist (a 404 that is an answer)', async () => {
    const told: unknown[] = [];
    const client = createGraphitiClient({ baseUrl: rest.url, knownFace: 'rest', onFace: (face) => told.push(face) });
    await expect(client.deleteEpisode('00000000-0000-0000-0000-000000000000')).rejects.toMatchObject({ kind: 'not-found' });
    rest.clearRequests();
    await client.search({ group_ids: ['g'], query: 'x' });
    expect(rest.requests.map((request) => request.route)).toEqual(['search']);
    expect(told).toEqual([]);
    await client.close();
  });

  it('drops a known face when nothing listens (the next call probes)', async () => {
    const gone = await startEmulator();
    const { url } = gone;
    await gone.close();
    const told: unknown[] = [];
    const client = createGraphitiClient({ baseUrl: url, knownFace: 'rest', maxRetries: 0, onFace: (face) => told.push(face) });
    await expect(client.search({ group_ids: ['g'], query: 'x' })).rejects.toBeInstanceOf(GraphitiConnectionError);
    expect(told).toEqual([undefined]);
    await client.close();
  });
});

describe('isWrongFaceError', () => {
  const request = { method: 'POST', path: '/search', headers: {} };
  it.each([
    ['a refused connection', new GraphitiConnectionError('refused', request, { code: 'ECONNREFUSED' }), true],
    ['FastAPI’s 404 for a route it lacks', new GraphitiNotFoundError('x', { ...request, status: 404, body: { detail: 'Not Found' }, detail: 'Not Found' }), true],
    ['a plain-text 404', new GraphitiNotFoundError('x', { ...request, status: 404, body: 'Not Found', detail: undefined }), true],
    ['nothing answering MCP (404)', new GraphitiApiError('x', { ...request, status: 404, body: '', headers: {} }), true],
    ['a 405', new GraphitiApiError('x', { ...request, status: 405, body: '', headers: {} }), true],
    ['an unknown id', new GraphitiNotFoundError('x', { ...request, status: 404, body: {}, detail: 'node 1 not found' }), false],
    ['a server error', new GraphitiServerError('x', { ...request, status: 500, body: '' }), false],
    ['a timeout', new GraphitiTimeoutError('x', { ...request, timeoutMs: 1 }), false],
    ['not a Graphiti error', new Error('x'), false],
  ])('%s → %s', (_name, error, wrong) => {
    expect(isWrongFaceError(error)).toBe(wrong);
  });
});
