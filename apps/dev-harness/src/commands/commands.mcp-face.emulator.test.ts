// The pipeline commands against the emulator's MCP face (delivery confirmation, recall, promotion,
// episodes, forget, health, smoke), the --server flag, and what smoke says about a REST server
// that accepts but never stores (upstream's closed-client defect).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeEmulatorCommands, openEmulatorCommands, runCommand, type EmulatorCommandsFixture } from '../test-support/emulator-commands.js';
import { SAMPLE_TRANSCRIPT } from '../test-support/sample-transcript.js';

let fixture: EmulatorCommandsFixture;
let emulator: RunningEmulator;
let folder: string;

beforeEach(async () => {
  fixture = await openEmulatorCommands('harness-mcp-', { face: 'mcp' });
  ({ emulator, folder } = fixture);
});

afterEach(() => closeEmulatorCommands(fixture));

const harness = (args: readonly string[]) => runCommand(folder, args);

const toolCalls = (tool: string) => emulator.requests.filter((request) => request.route === tool);

describe('pipeline over the MCP face (--server auto finds it)', () => {
  it('ingest confirms every message through get_episodes, and a second run sends nothing new', async () => {
    const file = path.join(folder, 'session.jsonl');
    await fs.writeFile(file, `${SAMPLE_TRANSCRIPT}\n`);
    const first = await harness(['ingest', file, '--granularity', 'turn', '--wait', '20', '--json', '--endpoint', emulator.url]);
    expect(first.err).not.toContain('error');
    expect(first.exitCode).toBe(0);
    expect(first.json()).toMatchObject({ enqueued: 8, sent: 8, confirmed: 8, dropped: 0, deadLettered: 0 });
    expect(emulator.state.episodes().length).toBe(8);
    expect(toolCalls('add_memory')).toHaveLength(8);

    const second = await harness(['ingest', file, '--granularity', 'turn', '--wait', '20', '--json', '--endpoint', emulator.url]);
    expect(second.exitCode).toBe(0);
    expect(second.json()).toMatchObject({ enqueued: 0, sent: 0, duplicates: 8 });
    expect(toolCalls('add_memory')).toHaveLength(8);

    const recalled = await harness(['recall', 'what does the team use for installs', '--scopes', 'workspace', '--json', '--endpoint', emulator.url]);
    expect(recalled.exitCode).toBe(0);
    const json = recalled.json() as { facts: Record<string, unknown>[]; timedOut: boolean };
    expect(json.timedOut).toBe(false);
    expect(json.facts[0]).toMatchObject({ fact: expect.stringMatching(/pnpm/) as unknown, scope: 'workspace', invalid_at: null });
    expect(toolCalls('search_memory_facts').length).toBeGreaterThan(0);

    // The audit log names the MCP tools that carried the content and the query, not REST routes.
    const audit = await harness(['audit', '--json']);
    const entries = audit.json()['entries'] as Array<{ face: string; operation: string; kind: string }>;
    expect(new Set(entries.map((entry) => `${entry.face} ${entry.operation} ${entry.kind}`))).toEqual(
      new Set(['mcp add_memory messages', 'mcp search_memory_facts search']),
    );
    expect(audit.out).not.toMatch(/pnpm|installs/);
  });

  it('promotes a decision, lists it in episodes, and forget clears the group with clear_graph', async () => {
    const promoted = await harness(['promote', 'We release from main only.', '--kind', 'decision', '--scope', 'workspace', '--json', '--endpoint', emulator.url]);
    expect(promoted.exitCode).toBe(0);
    expect(promoted.json()).toMatchObject({ ok: true, confirmed: 1 });
    const episodes = await harness(['episodes', '--scope', 'workspace', '--last', '5', '--json', '--endpoint', emulator.url]);
    expect(episodes.exitCode).toBe(0);
    const list = episodes.json()['episodes'] as { content: string }[];
    expect(list.some((episode) => episode.content.includes('We release from main only.'))).toBe(true);

    const deleted = await harness(['forget', '--scope', 'workspace', '--yes', '--json', '--endpoint', emulator.url]);
    expect(deleted.exitCode).toBe(0);
    expect(deleted.json()).toMatchObject({ ok: true, deletedGroups: [expect.stringMatching(/^gm_workspace_/) as unknown], dequeued: 0 });
    expect(toolCalls('clear_graph')).toHaveLength(1);
    expect(emulator.state.episodes()).toEqual([]);
  });

  it('health and smoke say the MCP server answered', async () => {
    const health = await harness(['health', '--json', '--endpoint', emulator.url]);
    expect(health.exitCode).toBe(0);
    expect(health.json()).toMatchObject({ ok: true, server: 'mcp' });
    const smoke = await harness(['smoke', '--wait', '10', '--json', '--endpoint', emulator.url]);
    expect(smoke.exitCode).toBe(0);
    expect(smoke.json()).toMatchObject({ ok: true, server: 'mcp', visible: true, cleanedUp: true });
  });
});

describe('--server', () => {
  it('rest against an MCP server fails with the URL named; mcp works', async () => {
    const wrong = await harness(['health', '--server', 'rest', '--endpoint', emulator.url]);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.err).toContain(emulator.url);
    const right = await harness(['health', '--server', 'mcp', '--json', '--endpoint', emulator.url]);
    expect(right.json()).toMatchObject({ ok: true, server: 'mcp' });
  });

  it('mcp without --endpoint: smoke starts the emulator’s MCP face, announced as an emulator; health stops with the next step', async () => {
    const result = await harness(['smoke', '--server', 'mcp', '--wait', '20', '--json']);
    expect(result.exitCode, result.err).toBe(0);
    expect(result.err).toContain('MCP server EMULATOR');
    const health = await harness(['health', '--server', 'mcp']);
    expect(health.exitCode).toBe(1);
    expect(health.err).toContain('graphiti-harness setup');
    expect(health.err).not.toContain('EMULATOR');
  });

  it('refuses an unknown kind (exit 2)', async () => {
    const result = await harness(['health', '--server', 'grpc', '--endpoint', emulator.url]);
    expect(result.exitCode).toBe(2);
    expect(result.err).toContain('auto, rest or mcp');
  });
});

describe('a REST server that accepts but never stores', () => {
  it('smoke names the closed-client defect and the way out', async () => {
    const broken = await startEmulator({ processingDelayMs: 1, closedClientDefect: true });
    try {
      // Upstream stores the first message after a start, then drops everything.
      const first = await harness(['smoke', '--wait', '5', '--json', '--endpoint', broken.url]);
      expect(first.json()).toMatchObject({ server: 'rest', visible: true });
      const second = await harness(['smoke', '--wait', '1', '--json', '--endpoint', broken.url]);
      expect(second.json()).toMatchObject({ server: 'rest', visible: false });
      const warnings = (second.json()['warnings'] as string[]).join(' ');
      expect(warnings).toContain('closed-client defect');
      expect(warnings).toMatch(/restart the REST server, or run Graphiti's MCP server/);
    } finally {
      await broken.close();
    }
  });
});
