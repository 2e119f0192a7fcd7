// End to end: `graphiti-harness mcp`, the BUILT binary, driven by the MCP SDK's own client over
// stdio (as Claude Code, Codex, Cursor or VS Code drive it), against the emulator on both faces.
// Each test has its own config folder, state folder and workspace; consent is what `setup` records.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startEmulator, type EmulatorFace, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureHarnessBuilt, harnessBinary } from './hook-server-fixture.js';

interface Fixture {
  readonly emulator: RunningEmulator | undefined;
  readonly folder: string;
  readonly client: Client;
  readonly stderr: () => string;
}

const fixtures: Fixture[] = [];

beforeAll(() => ensureHarnessBuilt(), 300_000);

afterEach(async () => {
  for (const fixture of fixtures.splice(0)) {
    await fixture.client.close();
    await fixture.emulator?.close();
    await fs.rm(fixture.folder, { recursive: true, force: true });
  }
});

interface Setup {
  readonly face?: EmulatorFace;
  /** What `setup` would have recorded: `none` for no config at all, `no-consent` for an endpoint without consent. */
  readonly config?: 'set-up' | 'no-consent' | 'none';
  readonly review?: boolean;
}

async function serve(setup: Setup = {}): Promise<Fixture> {
  const emulator = setup.config === 'none' ? undefined : await startEmulator({ processingDelayMs: 1, ...(setup.face === undefined ? {} : { face: setup.face }) });
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-mcp-server-'));
  const configFolder = path.join(folder, 'config');
  const workspace = path.join(folder, 'workspace');
  await fs.mkdir(configFolder, { recursive: true });
  await fs.mkdir(workspace);
  if (emulator !== undefined) {
    const endpoint = normaliseEndpoint(emulator.url) ?? emulator.url;
    await fs.writeFile(
      path.join(configFolder, 'config.json'),
      JSON.stringify({
        enabled: true,
        endpoint,
        recall: { enabled: true },
        autoPromote: { enabled: false, review: setup.review ?? true },
        ...(setup.config === 'no-consent' ? {} : { consent: { endpoint, grantedAt: new Date().toISOString(), by: 'graphiti-harness' } }),
      }),
      { mode: 0o600 },
    );
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [harnessBinary, 'mcp', '--state-dir', path.join(folder, 'state')],
    cwd: workspace,
    env: { PATH: process.env['PATH'] ?? '', HOME: path.join(folder, 'home'), NO_COLOR: '1', GRAPHITI_MEMORY_CONFIG_DIR: configFolder },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'graphiti-memory-test', version: '1.0.0' });
  await client.connect(transport);
  const fixture = { emulator, folder, client, stderr: () => stderr };
  fixtures.push(fixture);
  return fixture;
}

async function call(fixture: Fixture, name: string, args: Record<string, unknown>): Promise<{ text: string; data: Record<string, unknown>; isError: boolean }> {
  const result = (await fixture.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return { text, data: (result.structuredContent ?? {}) as Record<string, unknown>, isError: result.isError === true };
}

/** Recalls until `predicate` holds for the facts (the emulator extracts asynchronously). */
async function recallUntil(fixture: Fixture, query: string, predicate: (facts: Array<Record<string, unknown>>) => boolean): Promise<{ text: string; facts: Array<Record<string, unknown>> }> {
  for (let attempt = 0; ; attempt++) {
    const recalled = await call(fixture, 'memory_recall', { query, scopes: ['workspace'] });
    const facts = (recalled.data['facts'] ?? []) as Array<Record<string, unknown>>;
    if (predicate(facts) || attempt >= 100) return { text: recalled.text, facts };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const TOOLS = ['memory_forget', 'memory_pending', 'memory_recall', 'memory_remember'];

describe.each(['rest', 'mcp'] as const)('graphiti-harness mcp against the emulator (%s face)', (face) => {
  it('remembers, recalls the fact with its citation, and forgets its source', async () => {
    const fixture = await serve({ face, review: false });
    const tools = await fixture.client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(TOOLS);

    const remembered = await call(fixture, 'memory_remember', { text: 'We deploy the billing service with Fly.io.', kind: 'decision', scope: 'workspace' });
    expect(remembered.isError).toBe(false);
    expect(remembered.data).toMatchObject({ ok: true, outcomes: [{ status: 'promoted', kind: 'decision', scope: 'workspace' }], stored: true });
    expect(remembered.text).toContain('Remembered as a decision in the workspace scope');

    const { text, facts } = await recallUntil(fixture, 'how do we deploy the billing service', (found) => found.some((fact) => /Fly\.io/.test(String(fact['fact']))));
    const fact = facts.find((candidate) => /Fly\.io/.test(String(candidate['fact'])));
    expect(fact).toMatchObject({ scope: 'workspace', superseded: false, stale: [] });
    const sources = fact?.['sources'] as Array<{ tool: string; episode: string }>;
    expect(sources[0]?.tool).toBeTruthy();
    expect(text).toMatch(/Fly\.io.*\[source [\w-]+\]/);
    // No raw group id reaches the model: neither in the text nor in the JSON.
    const groups = new Set((fixture.emulator?.state.episodes() ?? []).map((episode) => episode.group_id));
    expect(groups.size).toBeGreaterThan(0);
    for (const group of groups) {
      expect(text).not.toContain(group);
      expect(JSON.stringify(facts)).not.toContain(group);
      expect(remembered.text + JSON.stringify(remembered.data)).not.toContain(group);
    }

    const episode = sources[0]?.episode ?? '';
    const forgotten = await call(fixture, 'memory_forget', { episode });
    expect(forgotten.isError).toBe(false);
    expect(forgotten.data).toMatchObject({ ok: true, episode, deletedEpisodes: 1 });
    expect(fixture.emulator?.state.episodes().some((stored) => stored.uuid === episode)).toBe(false);
    const after = await call(fixture, 'memory_recall', { query: 'how do we deploy the billing service', scopes: ['workspace'] });
    expect(JSON.stringify(after.data['facts'])).not.toContain('Fly.io');
  });

  it('holds a directive for review (plain text is promoted at once); pending lists, approves and rejects', async () => {
    const fixture = await serve({ face });
    const writes = () => fixture.emulator?.requests.filter((request) => request.route === 'messages' || request.route === 'add_memory').length ?? 0;
    const held = await call(fixture, 'memory_remember', { text: 'decision: We release on Fridays after noon.', kind: 'decision', scope: 'workspace' });
    expect(held.data).toMatchObject({ ok: true, outcomes: [{ status: 'held-for-review', kind: 'decision', scope: 'workspace' }] });
    expect(held.text).toContain("Held for the user's review");
    const other = await call(fixture, 'memory_remember', { text: 'preference (user): Use tabs in Makefiles.', kind: 'decision', scope: 'workspace' });
    expect(other.data).toMatchObject({ outcomes: [{ status: 'held-for-review', kind: 'preference', scope: 'user' }] });
    expect(writes()).toBe(0);
    // Plain text is promoted as `promote` does, review on or not: only directives wait for the user.
    const plain = await call(fixture, 'memory_remember', { text: 'The staging cluster is called ledger-stage.', kind: 'terminology', scope: 'workspace' });
    expect(plain.data).toMatchObject({ ok: true, outcomes: [{ status: 'promoted', kind: 'terminology', scope: 'workspace' }] });
    expect(writes()).toBe(1);

    const listed = await call(fixture, 'memory_pending', { action: 'list' });
    const pending = listed.data['pending'] as Array<{ id: string; text: string; source: string }>;
    expect(pending.map((memory) => [memory.text, memory.source]).sort()).toEqual([
      ['Use tabs in Makefiles.', 'directive'],
      ['We release on Fridays after noon.', 'directive'],
    ]);
    expect(JSON.stringify(listed.data)).not.toMatch(/groupId/);
    const release = pending.find((memory) => memory.text.startsWith('We release'))?.id ?? '';
    const tabs = pending.find((memory) => memory.text.startsWith('Use tabs'))?.id ?? '';

    const approved = await call(fixture, 'memory_pending', { action: 'approve', id: release });
    expect(approved.data).toMatchObject({ ok: true, kind: 'decision', scope: 'workspace', stored: true });
    expect(writes()).toBe(2);
    const rejected = await call(fixture, 'memory_pending', { action: 'reject', id: tabs });
    expect(rejected.data).toMatchObject({ ok: true, rejected: true });
    expect(writes()).toBe(2);
    expect((await call(fixture, 'memory_pending', { action: 'list' })).data['pending']).toEqual([]);
    const missing = await call(fixture, 'memory_pending', { action: 'approve', id: tabs });
    expect(missing).toMatchObject({ isError: true, data: { reason: 'not-found' } });
  });

  it('refuses a secret: nothing reaches Graphiti', async () => {
    const fixture = await serve({ face, review: false });
    const token = `ghp_${'a1B2c3D4e5'.repeat(3)}123456`;
    const refused = await call(fixture, 'memory_remember', { text: `The deploy token is ${token}.`, kind: 'procedure', scope: 'workspace' });
    expect(refused.isError).toBe(true);
    expect(refused.data).toMatchObject({ ok: false, outcomes: [{ status: 'refused', reason: 'secret' }] });
    expect(refused.text).toContain('secret');
    expect(JSON.stringify(fixture.emulator?.requests ?? [])).not.toContain(token);
    expect(fixture.emulator?.state.episodes()).toEqual([]);
  });

  it('forgets a whole scope and says what it deleted', async () => {
    const fixture = await serve({ face, review: false });
    await call(fixture, 'memory_remember', { text: 'The staging database is called ledger-stage.', kind: 'terminology', scope: 'workspace' });
    expect(fixture.emulator?.state.episodes().length).toBeGreaterThan(0);
    const forgotten = await call(fixture, 'memory_forget', { scope: 'workspace' });
    expect(forgotten.data).toMatchObject({ ok: true, deletedGroups: 1, failed: 0 });
    expect(forgotten.text).toContain('Forgotten: the workspace scope');
    expect(fixture.emulator?.state.episodes()).toEqual([]);
    const twice = await call(fixture, 'memory_forget', { scope: 'workspace', episode: 'x' });
    expect(twice).toMatchObject({ isError: true, data: { reason: 'bad-input' } });
  });
});

describe('graphiti-harness mcp when memory is not set up', () => {
  const everyTool: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
    ['memory_recall', { query: 'anything we decided' }],
    ['memory_remember', { text: 'We use pnpm.', kind: 'decision', scope: 'workspace' }],
    ['memory_forget', { scope: 'workspace' }],
    ['memory_pending', { action: 'list' }],
  ];

  it('without consent for the endpoint every tool says how to set it up, and no request reaches Graphiti', async () => {
    const fixture = await serve({ config: 'no-consent' });
    for (const [tool, args] of everyTool) {
      const answer = await call(fixture, tool, args);
      expect(answer.isError).toBe(false);
      expect(answer.data).toMatchObject({ ok: false, setUp: false, reason: 'no-consent' });
      expect(answer.text).toContain('graphiti-harness setup');
    }
    expect(fixture.emulator?.requests).toEqual([]);
  });

  it('with no endpoint configured every tool says so, and the server keeps serving', async () => {
    const fixture = await serve({ config: 'none' });
    for (const [tool, args] of everyTool) {
      const answer = await call(fixture, tool, args);
      expect(answer.data).toMatchObject({ ok: false, setUp: false });
      expect(answer.text).toContain('not set up');
    }
    // Nothing but the protocol on stdout: the client parsed every answer; logs carry no content.
    expect(fixture.stderr()).not.toContain('pnpm');
  });
});
