// The MCP SDK loads on the first session. If it cannot be loaded (an incomplete installation), a
// call fails the way a caller already handles: a typed, retryable connection error that says what
// is wrong, with nothing sent; the failure is not remembered, so a later call loads it again.
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GraphitiConnectionError } from '../errors.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ processingDelayMs: 1, face: 'mcp' });
});

afterAll(async () => {
  await emulator.close();
});

afterEach(() => {
  vi.doUnmock('./mcp-sdk.js');
  vi.resetModules();
});

describe('loading the MCP SDK', () => {
  it('a failed load is a GraphitiConnectionError naming the SDK, sends nothing, and is tried again on the next call', async () => {
    vi.resetModules();
    vi.doMock('./mcp-sdk.js', () => {
      throw Object.assign(new Error("Cannot find package '@modelcontextprotocol/sdk'"), { code: 'ERR_MODULE_NOT_FOUND' });
    });
    // Fresh modules: the client, its errors and the loader see the mock.
    const { GraphitiMcpClient } = await import('./mcp-client.js');
    const { isGraphitiError } = await import('../errors.js');
    const client = new GraphitiMcpClient({ baseUrl: emulator.url, timeoutMs: 5_000, maxRetries: 0 });
    emulator.clearRequests();

    const error: unknown = await client.search({ group_ids: ['lazy'], query: 'pnpm' }).catch((caught: unknown) => caught);
    expect(isGraphitiError(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'connection', retryable: true, code: 'ERR_MODULE_NOT_FOUND', method: 'MCP' });
    expect((error as GraphitiConnectionError).message).toMatch(/MCP SDK \(@modelcontextprotocol\/sdk\) could not be loaded.*reinstall/);
    expect(emulator.requests).toHaveLength(0);

    vi.doUnmock('./mcp-sdk.js');
    await expect(client.search({ group_ids: ['lazy'], query: 'pnpm' })).resolves.toEqual({ facts: [] });
    await client.close();
  });
});
