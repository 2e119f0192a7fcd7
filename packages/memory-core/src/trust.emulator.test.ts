// Issue 13 in memory-core as an app composes it (createMemoryModule + in-memory storage), against
// the emulator over HTTP: the registry learns every group a turn was written to, forget removes the
// workspace with its sessions (server, queue and registry), the audit log records what was sent
// without content, and review holds directive promotions until approved.
import { createGraphitiClient, GraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { Container } from 'inversify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SystemClock } from './clock/system-clock.js';
import { auditedConnection, InMemoryAuditLog } from './audit/index.js';
import { ForgetService } from './forget/index.js';
import { Ingestion, IngestionOptions } from './ingestion/index.js';
import { createInMemoryStorageModule, createMemoryModule } from './memory-module.js';
import { IngestionStorage, type ChatTurn } from './ports.js';
import { GroupRecorderOptions, GroupRegistry } from './registry/index.js';
import { RecallService } from './recall/index.js';
import { PendingMemoryStore, ReviewQueue } from './review/index.js';
import { GroupIdResolver } from './scopes/index.js';
import { bindFakeHostPorts } from '../test-support/fake-host-ports.js';

let emulator: RunningEmulator;
let client: GraphitiClient;

beforeEach(async () => {
  emulator = await startEmulator({ processingDelayMs: 2 });
  client = new GraphitiClient({ baseUrl: emulator.url });
});
afterEach(async () => {
  await client.close();
  await emulator.close();
});

async function compose(settings: Record<string, unknown> = {}, api: GraphitiApi = client, endpoint = emulator.url) {
  const container = new Container();
  const audit = new InMemoryAuditLog();
  bindFakeHostPorts(container, {
    settings: { enabled: true, endpoint, capture: { granularity: 'turn' }, ...settings },
    consentFor: endpoint,
    connection: auditedConnection({ current: () => api }, audit, { endpoint, tool: 'graphiti-harness' }),
    clock: new SystemClock(),
  });
  container.bind(IngestionOptions).toConstantValue({ pollIntervalMs: 20, maxPollIntervalMs: 100 });
  container.bind(GroupRecorderOptions).toConstantValue({ tool: 'test-tool' });
  await container.load(createMemoryModule(), createInMemoryStorageModule());
  const ingestion = container.get<Ingestion>(Ingestion);
  return { container, audit, ingestion, registry: container.get<GroupRegistry>(GroupRegistry), groups: container.get<GroupIdResolver>(GroupIdResolver) };
}

function turn(id: string, sessionId: string, text: string): ChatTurn {
  return {
    id,
    sessionId,
    user: { text, timestamp: '2026-11-23T10:00:00Z' },
    assistant: { text: `Noted: ${id}.`, timestamp: '2026-11-23T10:00:02Z' },
  };
}

const githubToken = `ghp_${'A1b2C3d4E5'.repeat(3)}123456`;

describe('the group registry', () => {
  it('records the session and workspace groups a turn was accepted for, once per message', async () => {
    const { ingestion, registry, groups } = await compose();
    ingestion.enqueue(turn('t1', 'chat-1', `Deploy with token ${githubToken} please\nsecond line`));
    ingestion.enqueue(turn('t1', 'chat-1', 'the same turn again'));
    await ingestion.settled();
    const records = await registry.list();
    const workspace = await groups.resolve('workspace');
    const session = await groups.resolve('session', { sessionId: 'chat-1' });
    expect(records.map((record) => record.groupId).sort()).toEqual([session, workspace].sort());
    const sessionRecord = records.find((record) => record.scope === 'session');
    expect(sessionRecord).toMatchObject({ sessionId: 'chat-1', workspaceKey: workspace, tools: ['test-tool'], messages: 2 });
    expect(sessionRecord?.title).toMatch(/^Deploy with token \[REDACTED:[^\]]+\] please$/);
    expect(JSON.stringify(records)).not.toContain(githubToken);
    expect(records.find((record) => record.scope === 'workspace')).toMatchObject({ workspaceKey: workspace, messages: 2 });
    await ingestion.dispose();
  });
});

describe('forget', () => {
  it('--scope workspace deletes the workspace group and all its session groups, and dequeues what waits', async () => {
    const { container, ingestion, registry } = await compose();
    ingestion.start();
    ingestion.enqueue(turn('t1', 'chat-1', 'We deploy the billing API with Fly.io.'));
    ingestion.enqueue(turn('t2', 'chat-2', 'Releases are cut on Fridays.'));
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    await ingestion.dispose();
    expect(new Set(emulator.state.episodes().map((episode) => episode.group_id)).size).toBe(3);

    // Something still queued for a session of this workspace when forgetting.
    const { outbox } = await container.get<IngestionStorage>(IngestionStorage).open();
    const sessionGroup = (await registry.list()).find((record) => record.sessionId === 'chat-2')?.groupId ?? '';
    outbox.append([{ groupId: sessionGroup, message: { content: 'late', role_type: 'user', role: null, name: 'late-1', timestamp: '2026-11-23T10:00:00Z' } }]);

    const result = await container.get(ForgetService).forget({ scope: 'workspace' });
    expect(result.failed).toEqual([]);
    expect(result.deletedGroups).toHaveLength(3);
    expect(result.dequeued).toBe(1);
    expect(outbox.size()).toBe(0);
    expect(emulator.state.episodes()).toEqual([]);
    expect(await registry.list()).toEqual([]);
  });

  it('drops the pending memories proposed for the forgotten groups, and keeps the others', async () => {
    const { container, ingestion } = await compose({ autoPromote: { enabled: true, review: true } });
    const review = container.get(ReviewQueue);
    expect((await review.propose({ kind: 'decision', scope: 'workspace', text: 'use pnpm', source: 'remember-tool' })).status).toBe('pending');
    expect((await review.propose({ kind: 'preference', scope: 'user', text: 'short answers', source: 'directive' })).status).toBe('pending');
    const result = await container.get(ForgetService).forget({ scope: 'workspace' });
    expect(result.droppedPending).toBe(1);
    expect((await review.list()).map((memory) => memory.scope)).toEqual(['user']);
    expect((await container.get(ForgetService).forget({ scope: 'user' })).droppedPending).toBe(1);
    expect(await review.list()).toEqual([]);
    await ingestion.dispose();
  });

  it('--scope session deletes that session only; the user scope only when named', async () => {
    const { container, ingestion, registry, groups } = await compose();
    ingestion.start();
    ingestion.enqueue(turn('t1', 'chat-1', 'first'));
    ingestion.enqueue(turn('t2', 'chat-2', 'second'));
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    await ingestion.dispose();
    const forget = container.get(ForgetService);
    const chat1 = await groups.resolve('session', { sessionId: 'chat-1' });
    expect((await forget.forget({ scope: 'session', sessionId: 'chat-1' })).deletedGroups).toEqual([chat1]);
    expect(emulator.state.episodes(chat1)).toEqual([]);
    expect(emulator.state.episodes().length).toBeGreaterThan(0);
    expect((await forget.plan({ all: true })).every((target) => target.scope !== 'user')).toBe(true);
    expect((await forget.plan({ scope: 'user' })).map((target) => target.scope)).toEqual(['user']);
    expect((await registry.list()).map((record) => record.sessionId ?? record.scope).sort()).toEqual(['chat-2', 'workspace']);
  });
});

describe('the audit log', () => {
  it('records each add-messages request with its group, names, size and redactions, never content', async () => {
    const { ingestion, audit } = await compose();
    ingestion.start();
    ingestion.enqueue(turn('t1', 'chat-1', `Use ${githubToken} for the deploy`));
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    await ingestion.dispose();
    const requests = emulator.requests.filter((request) => request.route === 'messages');
    expect(audit.entries).toHaveLength(requests.length);
    const entry = audit.entries[0];
    expect(entry).toMatchObject({ tool: 'graphiti-harness', endpoint: emulator.url, face: 'rest', operation: 'POST /messages', kind: 'messages', redactions: 1 });
    expect(entry?.episodeNames).toEqual(['graphiti-memory.turn.t1.user', 'graphiti-memory.turn.t1.assistant']);
    expect(entry?.bytes).toBeGreaterThan(50);
    expect(JSON.stringify(audit.entries)).not.toMatch(/deploy|Noted/);
  });

  it('records each recall search with its groups, the query size and its redactions, never the query', async () => {
    const { container, audit, groups } = await compose({ recall: { enabled: true } });
    const query = `which token [REDACTED:github-token] opens the staging deploy?`;
    await container.get<RecallService>(RecallService).recall(query, { scopes: ['workspace', 'user'], timeoutMs: 5_000 });
    const searches = audit.entries.filter((entry) => entry.kind === 'search');
    expect(searches).toHaveLength(emulator.requests.filter((request) => request.route === 'search').length);
    expect(searches.flatMap((entry) => entry.groupIds).sort()).toEqual([await groups.resolve('workspace'), await groups.resolve('user')].sort());
    expect(searches[0]).toMatchObject({ tool: 'graphiti-harness', face: 'rest', operation: 'POST /search', bytes: new TextEncoder().encode(query).length, redactions: 1, episodeNames: [] });
    expect(JSON.stringify(audit.entries)).not.toMatch(/staging|deploy/);
  });

  it("names the MCP server's tools when the endpoint is Graphiti's MCP face (found by the auto probe)", async () => {
    const mcp = await startEmulator({ processingDelayMs: 2, face: 'mcp' });
    const api = createGraphitiClient({ baseUrl: mcp.url });
    try {
      const { container, audit, ingestion } = await compose({ recall: { enabled: true } }, api, mcp.url);
      ingestion.start();
      ingestion.enqueue(turn('t1', 'chat-1', 'Deploys go out on Tuesdays.'));
      expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
      await container.get<RecallService>(RecallService).recall('when do deploys go out', { scopes: ['workspace'], timeoutMs: 5_000 });
      await ingestion.dispose();
      expect(audit.entries.map((entry) => `${entry.face} ${entry.operation} ${entry.kind}`)).toEqual(
        expect.arrayContaining(['mcp add_memory messages', 'mcp search_memory_facts search']),
      );
      expect(audit.entries.some((entry) => entry.operation.startsWith('POST '))).toBe(false);
    } finally {
      await api.close();
      await mcp.close();
    }
  });
});

describe('review', () => {
  it('holds directive promotions as pending and sends one only when approved', async () => {
    const { container, ingestion, groups } = await compose({ autoPromote: { enabled: true } });
    ingestion.start();
    ingestion.enqueue(turn('t1', 'chat-1', 'decision: release every Friday\npreference (user): short answers'));
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    const promotions = () => emulator.state.episodes().filter((episode) => episode.name.startsWith('graphiti-memory.promotion.'));
    expect(promotions()).toEqual([]);
    const review = container.get(ReviewQueue);
    const pending = await review.list();
    expect(pending.map((memory) => [memory.kind, memory.scope, memory.text, memory.source])).toEqual([
      ['decision', 'workspace', 'release every Friday', 'directive'],
      ['preference', 'user', 'short answers', 'directive'],
    ]);
    const [decision, preference] = pending;
    const approved = await review.approve(decision?.id ?? '', { text: 'release every Friday after noon' });
    expect(approved.status).toBe('sent');
    expect((await review.reject(preference?.id ?? '')).status).toBe('rejected');
    expect((await review.reject('no-such-id')).status).toBe('not-found');
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    expect(promotions().map((episode) => [episode.group_id, episode.content])).toEqual([
      [await groups.resolve('workspace'), expect.stringContaining('release every Friday after noon')],
    ]);
    expect(await container.get<PendingMemoryStore>(PendingMemoryStore).list()).toEqual([]);
    await ingestion.dispose();
  });

  it('sends at once with autoPromote.review off, and refuses a secret either way', async () => {
    const { container, ingestion } = await compose({ autoPromote: { enabled: true, review: false } });
    const review = container.get(ReviewQueue);
    expect((await review.propose({ kind: 'decision', scope: 'workspace', text: 'use pnpm', source: 'remember-tool' })).status).toBe('sent');
    expect(await review.propose({ kind: 'decision', scope: 'workspace', text: `token ${githubToken}`, source: 'remember-tool' })).toEqual({
      status: 'refused',
      reason: 'secret',
    });
    await ingestion.dispose();
  });
});
