// The structured mirror end to end, as an app composes memory-core, against the emulator on each
// face (REST; MCP as upstream main with add_triplet; MCP as the tagged v1.0.2 without it): a Claude
// Code transcript with tool calls and a VS Code chat with references and an attachment become the
// nodes and edges seed 001 names, with stable ids and derived uuids, in the workspace's own mirror
// group; a second run writes nothing new; an attachment is a URI and a hash, never its content;
// the mirror off, consent without the mirror category, or an untrusted workspace send nothing of
// it; forgetting the workspace deletes the mirror group.
import { createGraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import { startEmulator, type McpRelease, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { Container } from 'inversify';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../clock/system-clock.js';
import { ForgetService } from '../forget/forget-service.js';
import { IngestionOptions } from '../ingestion/index.js';
import { Ingestion } from '../ingestion/ingestion.js';
import { createInMemoryStorageModule, createMemoryModule } from '../memory-module.js';
import { ConsentStore, type ChatTurn } from '../ports.js';
import { GroupIdResolver } from '../scopes/group-id-resolver.js';
import { parseClaudeCodeTranscript } from '../transcripts/claude-code-transcript.js';
import { parseVsCodeChatSession } from '../transcripts/vscode-chat-session.js';
import { CLAUDE_CODE_READ_RESULT, CLAUDE_CODE_SESSION_ID, CLAUDE_CODE_TRANSCRIPT } from '../../test-support/transcript-fixtures/claude-code-session.js';
import { bindFakeHostPorts } from '../../test-support/fake-host-ports.js';
import { FakeConsentStore } from '../../test-support/fakes.js';
import { mirrorNodeUuid } from './mirror-ids.js';
import type { MirrorRecord } from './mirror-record.js';
import { TurnMirror } from './turn-mirror.js';

const ATTACHED_TEXT = 'export const SECRET_SAUCE = 42; // the attached selection, never sent';

function vscodeTurns(): ChatTurn[] {
  const request = {
    requestId: 'request_v1',
    timestamp: Date.UTC(2026, 10, 20, 9, 0, 0),
    message: { text: 'Why does the settings validation reject empty endpoints?' },
    variableData: {
      variables: [
        { id: 'file:///home/ada/engine/src/settings.ts', name: 'settings.ts', kind: 'file', value: { $mid: 1, scheme: 'file', path: '/home/ada/engine/src/settings.ts' } },
        { id: 'file:///home/ada/engine/src/limits.ts', name: 'selection', kind: 'text', value: ATTACHED_TEXT },
      ],
    },
    contentReferences: [{ kind: 'reference', reference: { $mid: 1, scheme: 'file', path: '/home/ada/engine/README.md' } }],
    response: [{ value: 'An empty endpoint means not configured; the schema maps it to the default.' }],
    modelState: { value: 1, completedAt: Date.UTC(2026, 10, 20, 9, 0, 9) },
  };
  const log = JSON.stringify({ kind: 0, v: { version: 3, sessionId: 'vscode-s1', creationDate: Date.UTC(2026, 10, 20, 9), customTitle: 'Settings validation', requests: [request] } });
  return parseVsCodeChatSession(log).turns;
}

interface Setup {
  readonly emulator: RunningEmulator;
  readonly client: GraphitiApi;
  readonly container: Container;
  readonly ingestion: Ingestion;
  readonly mirror: TurnMirror;
  readonly mirrorGroup: string;
}

const running: Setup[] = [];
afterEach(async () => {
  for (const setup of running.splice(0)) {
    await setup.ingestion.dispose();
    await setup.client.close();
    await setup.emulator.close();
  }
});

async function setUp(
  face: 'rest' | 'mcp',
  options: { release?: McpRelease; mirror?: boolean; categories?: readonly string[]; trusted?: boolean } = {},
): Promise<Setup> {
  const emulator = await startEmulator({ processingDelayMs: 1, face, ...(options.release === undefined ? {} : { mcpRelease: options.release }) });
  const client = createGraphitiClient({ baseUrl: emulator.url, kind: 'auto', timeoutMs: 5_000 });
  const container = new Container();
  bindFakeHostPorts(container, {
    settings: { enabled: true, endpoint: emulator.url, scopes: 'workspace', capture: { granularity: 'turn' }, mirror: { enabled: options.mirror ?? true } },
    consentFor: emulator.url,
    connection: { current: () => client },
    clock: new SystemClock(),
    workspace: { trusted: options.trusted ?? true, gitRemote: 'https://github.com/ada/engine.git' },
  });
  if (options.categories !== undefined) {
    const consent = new FakeConsentStore();
    await consent.grant(emulator.url, options.categories as never);
    await container.unbind(ConsentStore);
    container.bind(ConsentStore).toConstantValue(consent);
  }
  container.bind(IngestionOptions).toConstantValue({ pollIntervalMs: 20, maxPollIntervalMs: 100 });
  await container.load(createMemoryModule(), createInMemoryStorageModule());
  const ingestion = container.get<Ingestion>(Ingestion);
  ingestion.start();
  const mirrorGroup = (await container.get<GroupIdResolver>(GroupIdResolver).resolve('mirror')) ?? '';
  const setup = { emulator, client, container, ingestion, mirror: container.get(TurnMirror), mirrorGroup };
  running.push(setup);
  return setup;
}

async function capture(setup: Setup, turns: readonly ChatTurn[]): Promise<void> {
  for (const turn of turns) setup.ingestion.enqueue(turn);
  await setup.mirror.settled();
  const confirmation = await setup.ingestion.waitForConfirmation({ timeoutMs: 20_000 });
  expect(confirmation.pending).toBe(0);
  await setup.emulator.idle();
}

const structureRoutes = ['add_triplet', 'entity-node', 'add_memory', 'messages'] as const;
function writesTo(setup: Setup, groupId: string): number {
  return setup.emulator.requests.filter((request) => {
    if (!(structureRoutes as readonly string[]).includes(request.route ?? '')) return false;
    const body = request.body as { group_id?: string; params?: { arguments?: { group_id?: string } } } | null;
    return (body?.group_id ?? body?.params?.arguments?.group_id) === groupId;
  }).length;
}

const claudeTurns = (): ChatTurn[] => parseClaudeCodeTranscript(CLAUDE_CODE_TRANSCRIPT).turns;

describe.each([
  { face: 'mcp' as const, release: 'main' as const, label: 'MCP main (add_triplet)' },
  { face: 'mcp' as const, release: 'v1.0.2' as const, label: 'MCP v1.0.2 (no add_triplet)' },
  { face: 'rest' as const, release: undefined, label: 'REST' },
])('the mirror on $label', ({ face, release }) => {
  it('mirrors a Claude Code session and a VS Code chat into its own group, with stable ids, once', async () => {
    const setup = await setUp(face, release === undefined ? {} : { release });
    expect(setup.mirrorGroup).toMatch(/^gm_mirror_/);
    await capture(setup, [...claudeTurns(), ...vscodeTurns()]);

    const episodes = setup.emulator.state.episodes(setup.mirrorGroup);
    const records = episodes.map((episode) => JSON.parse(face === 'rest' ? episode.content.replace(/^[^(]*\(system\): /, '') : episode.content) as MirrorRecord);
    expect(episodes.every((episode) => episode.name.startsWith('mirror.turn.'))).toBe(true);
    expect(episodes.every((episode) => episode.source === (face === 'mcp' ? 'json' : 'message'))).toBe(true);
    const first = records.find((record) => record.turn.id === 'turn:u-0001');
    expect(first?.conversation).toEqual({ id: `conv:${CLAUDE_CODE_SESSION_ID}`, title: null, tool: 'Claude Code' });
    expect(first?.tool_calls.map((call) => [call.id, call.name, call.arguments, call.result?.id, call.result?.status, call.result?.size])).toEqual([
      ['tool:u-0001:0', 'Read', 'Read(src/a.ts)', 'tool:u-0001:0:result', 'ok', CLAUDE_CODE_READ_RESULT.length],
      ['tool:u-0001:1', 'Bash', 'Bash(npm test -- outbox)', 'tool:u-0001:1:result', 'error', expect.any(Number)],
    ]);
    // The file the tool read is a hash and a size, never its content (tool output is not captured in full by default).
    expect(first?.tool_calls[0]?.result?.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(setup.emulator.requests)).not.toContain('line 7 of src/a.ts');
    const chat = records.find((record) => record.turn.id === 'turn:request_v1');
    expect(chat?.conversation).toMatchObject({ id: 'conv:vscode-s1', title: 'Settings validation' });
    expect(chat?.references).toEqual([
      { id: 'ref:request_v1:0', kind: 'attachment', uri: 'file:///home/ada/engine/src/settings.ts', hash: null },
      { id: 'ref:request_v1:1', kind: 'attachment', uri: 'file:///home/ada/engine/src/limits.ts', hash: expect.stringMatching(/^sha256:/) },
      { id: 'ref:request_v1:2', kind: 'reference', uri: 'file:///home/ada/engine/README.md', hash: null },
    ]);
    // The attachment's content was never sent, to any group, in any request.
    expect(JSON.stringify(setup.emulator.requests)).not.toContain('SECRET_SAUCE');

    // Structure as the face can take it.
    const nodes = setup.emulator.state.nodes(setup.mirrorGroup);
    const expectedIds = ['conv:vscode-s1', 'turn:request_v1', 'ref:request_v1:1', 'turn:u-0001', 'tool:u-0001:0', 'tool:u-0001:0:result', `conv:${CLAUDE_CODE_SESSION_ID}`];
    if (face === 'mcp' && release === 'v1.0.2') {
      expect(setup.emulator.requests.some((request) => request.route === 'add_triplet')).toBe(false);
    } else {
      for (const id of expectedIds) {
        const node = nodes.find((candidate) => candidate.name === id);
        expect(node?.uuid, id).toBe(await mirrorNodeUuid(setup.mirrorGroup, id));
      }
    }
    if (face === 'mcp' && release === 'main') {
      const facts = setup.emulator.state.facts(setup.mirrorGroup);
      const uuid = (id: string) => nodes.find((node) => node.name === id)?.uuid;
      const edge = (name: string, from: string, to: string) =>
        facts.some((fact) => fact.name === name && fact.source_node_uuid === uuid(from) && fact.target_node_uuid === uuid(to));
      expect(edge('HAS_TURN', `conv:${CLAUDE_CODE_SESSION_ID}`, 'turn:u-0001')).toBe(true);
      expect(edge('USES_TOOL', 'turn:u-0001', 'tool:u-0001:0')).toBe(true);
      expect(edge('RETURNED', 'tool:u-0001:0', 'tool:u-0001:0:result')).toBe(true);
      expect(edge('ATTACHES', 'turn:request_v1', 'ref:request_v1:1')).toBe(true);
      expect(edge('REFERENCES', 'turn:request_v1', 'ref:request_v1:2')).toBe(true);
    }
    // Nothing of the mirror in the workspace group everyday recall reads.
    const workspace = (await setup.container.get<GroupIdResolver>(GroupIdResolver).resolve('workspace')) ?? '';
    expect(setup.emulator.state.episodes(workspace).some((episode) => episode.name.startsWith('mirror.'))).toBe(false);

    // Running it again (a re-read transcript, a resumed session) writes nothing new.
    const before = writesTo(setup, setup.mirrorGroup);
    const counts = [setup.emulator.state.episodes(setup.mirrorGroup).length, nodes.length, setup.emulator.state.facts(setup.mirrorGroup).length];
    await capture(setup, [...claudeTurns(), ...vscodeTurns()]);
    expect(writesTo(setup, setup.mirrorGroup)).toBe(before);
    expect([setup.emulator.state.episodes(setup.mirrorGroup).length, setup.emulator.state.nodes(setup.mirrorGroup).length, setup.emulator.state.facts(setup.mirrorGroup).length]).toEqual(counts);

    // Forgetting the workspace deletes its mirror group too.
    const result = await setup.container.get(ForgetService).forget({ scope: 'workspace' });
    expect(result.deletedGroups).toContain(setup.mirrorGroup);
    expect(setup.emulator.state.episodes(setup.mirrorGroup)).toEqual([]);
    expect(setup.emulator.state.nodes(setup.mirrorGroup)).toEqual([]);
  });
});

describe('when the mirror may not write', () => {
  it('sends nothing of it with mirror.enabled off', async () => {
    const setup = await setUp('mcp', { mirror: false });
    await capture(setup, [...claudeTurns(), ...vscodeTurns()]);
    expect(writesTo(setup, setup.mirrorGroup)).toBe(0);
    expect(setup.emulator.requests.some((request) => request.route === 'add_triplet')).toBe(false);
    expect(setup.mirror.stats()).toMatchObject({ recorded: 0 });
  });

  it('sends nothing of it when the consent does not name the mirror category', async () => {
    const setup = await setUp('mcp', { categories: ['memoryChat', 'claudeCode', 'workspaceChats'] });
    await capture(setup, claudeTurns());
    expect(writesTo(setup, setup.mirrorGroup)).toBe(0);
    expect(setup.mirror.stats().skipped).toBeGreaterThan(0);
  });

  it('mirrors when the consent names the mirror category', async () => {
    const setup = await setUp('mcp', { categories: ['memoryChat', 'mirror'] });
    await capture(setup, claudeTurns());
    expect(writesTo(setup, setup.mirrorGroup)).toBeGreaterThan(0);
  });

  it('sends nothing at all in an untrusted workspace', async () => {
    const setup = await setUp('rest', { trusted: false });
    for (const turn of claudeTurns()) setup.ingestion.enqueue(turn);
    await setup.mirror.settled();
    await setup.ingestion.drain();
    expect(setup.emulator.requests).toEqual([]);
  });
});
