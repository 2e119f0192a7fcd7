import { describe, expect, it } from 'vitest';
import { activateExtension, type Harness } from '../test-support/extension-harness.js';
import { answerMessages, answerQuickPicks, testHost, updateSettings } from '../test-support/vscode-double.js';
import { HEALTH_ITEM, RUN_SMOKE_TEST, SMOKE_ITEM, type TestConnectionResult } from './test-connection-command.js';

/** The test's harness, for the helpers below (the setup file disposes it after each test). */
let harness: Harness | undefined;


const test = (mode?: string) => harness!.command<TestConnectionResult>('graphitiMemory.testConnection', ...(mode ? [mode] : []));

describe('Test Connection', () => {
  it('reports a healthy server, read-only, without consent', async () => {
    harness = await activateExtension();
    const result = await test('health');
    expect(result).toMatchObject({ ok: true, mode: 'health', server: 'rest', message: `Graphiti at ${harness.emulator.url} is healthy (REST service).` });
    // The auto probe's /healthcheck answered, then the health check itself.
    expect(harness.emulator.requests.map((request) => request.path).filter((path) => path !== '/health')).toEqual(['/healthcheck', '/healthcheck']);
    expect(testHost().shownMessages.at(-1)?.message).toBe(result.message);
  });

  it('offers the health check and the smoke test in a quick pick', async () => {
    harness = await activateExtension();
    answerQuickPicks(HEALTH_ITEM);
    expect((await test()).mode).toBe('health');
    expect(testHost().shownQuickPicks[0]?.items.map((item) => item.label)).toEqual([HEALTH_ITEM, SMOKE_ITEM]);
    answerQuickPicks(SMOKE_ITEM);
    answerMessages(undefined);
    expect(await test()).toMatchObject({ ok: false, mode: undefined });
    expect(testHost().shownMessages.some((message) => message.modal && message.items.includes(RUN_SMOKE_TEST))).toBe(true);
    // Cancelling is not a problem: no warning toast.
    expect(testHost().shownMessages.filter((message) => message.severity === 'warning' && !message.modal)).toHaveLength(0);
    answerQuickPicks(undefined);
    expect(await test()).toMatchObject({ ok: false, mode: undefined });
    expect(testHost().shownMessages.filter((message) => !message.modal).map((message) => message.message)).toEqual([`Graphiti at ${harness.emulator.url} is healthy (REST service).`]);
  });

  it('says the server is unreachable, with the URL and what to try', async () => {
    harness = await activateExtension({ settings: { 'graphitiMemory.endpoint': 'http://127.0.0.1:9', 'graphitiMemory.timeoutMs': 1000 } });
    const result = await test('health');
    expect(result.ok).toBe(false);
    expect(result.message).toContain('http://127.0.0.1:9');
    expect(result.message).toMatch(/unreachable|did not answer/);
  });

  it('says why an endpoint is invalid', async () => {
    harness = await activateExtension();
    updateSettings({ 'graphitiMemory.endpoint': 'ftp://example.com' });
    const result = await test('health');
    expect(result.ok).toBe(false);
    expect(result.message).toContain('the endpoint setting is invalid');
    expect(result.message).toContain('http(s) URL');
    expect(harness.emulator.requests).toEqual([]);
  });

  it('smoke test: writes a temporary group, sees it processed, and deletes it', async () => {
    harness = await activateExtension();
    const result = await test('smoke');
    expect(result).toMatchObject({ ok: true, processed: true, cleanedUp: true });
    const paths = harness.emulator.requests
      .map((request) => `${request.method} ${request.path}`)
      .filter((request) => request !== 'GET /healthcheck' && request !== 'GET /health');
    expect(paths[0]).toBe('POST /messages');
    expect(paths.at(-1)).toMatch(/^DELETE \/group\/graphiti-memory-smoke-[0-9a-f]{16}$/);
    expect(harness.emulator.state.episodes()).toEqual([]);
  });

  it('smoke test: warns when nothing is processed, and still deletes the group', async () => {
    harness = await activateExtension();
    harness.emulator.killWorker();
    const result = await test('smoke');
    expect(result).toMatchObject({ ok: false, processed: false, cleanedUp: true });
    expect(result.message).toContain('did not process it');
    expect(result.message).toContain("closed-client defect");
    expect(result.message).toContain("run Graphiti's MCP server");
    expect(harness.emulator.requests.at(-1)?.method).toBe('DELETE');
  });
});

describe('Test Connection against the MCP server', () => {
  it('says the MCP server answered, found by the auto probe', async () => {
    harness = await activateExtension({ emulator: { face: 'mcp' } });
    const result = await test('health');
    expect(result).toMatchObject({ ok: true, server: 'mcp', message: `Graphiti at ${harness.emulator.url} is healthy (MCP server).` });
    expect(harness.emulator.requests.some((request) => request.route === 'get_status')).toBe(true);
  });

  it('smoke test: add_memory, seen through get_episodes, and clear_graph afterwards', async () => {
    harness = await activateExtension({ emulator: { face: 'mcp' } });
    const result = await test('smoke');
    expect(result).toMatchObject({ ok: true, server: 'mcp', processed: true, cleanedUp: true });
    const tools = harness.emulator.requests.map((request) => request.route);
    expect(tools).toEqual(expect.arrayContaining(['add_memory', 'get_episodes', 'clear_graph']));
    expect(harness.emulator.state.episodes()).toEqual([]);
  });

  it('serverKind rest against the MCP server fails, naming the endpoint', async () => {
    harness = await activateExtension({ emulator: { face: 'mcp' }, settings: { 'graphitiMemory.serverKind': 'rest' } });
    const result = await test('health');
    expect(result.ok).toBe(false);
    expect(result.message).toContain(harness.emulator.url);
  });
});
