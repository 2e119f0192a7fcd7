// Issue 20's forget, in memory-core as an app composes it (createMemoryModule + in-memory storage)
// against the emulator over HTTP: a forget with Graphiti unreachable drops the queue and owes the
// deletes, the next drain pass deletes the groups before it sends anything new to them, and a
// forgotten turn read again under a new session id (a resumed transcript) is never planned again.
import { GraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { Container } from 'inversify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../clock/system-clock.js';
import { Ingestion, IngestionOptions } from '../ingestion/index.js';
import { createInMemoryStorageModule, createMemoryModule } from '../memory-module.js';
import { IngestionStorage, type ChatTurn } from '../ports.js';
import { GroupRecorderOptions, GroupRegistry } from '../registry/index.js';
import { RecallService } from '../recall/index.js';
import { GroupIdResolver } from '../scopes/index.js';
import { bindFakeHostPorts } from '../../test-support/fake-host-ports.js';
import { EpisodeSources } from '../sources/episode-sources.js';
import { InMemoryEpisodeSources } from '../sources/in-memory-episode-sources.js';
import { ForgetLedger } from './forget-ledger.js';
import { ForgetService } from './forget-service.js';

let emulator: RunningEmulator;
let client: GraphitiClient;
/** A closed port: every request fails to connect, as with Graphiti stopped. */
let unreachable: GraphitiClient;

beforeEach(async () => {
  emulator = await startEmulator({ processingDelayMs: 2 });
  client = new GraphitiClient({ baseUrl: emulator.url });
  const stopped = await startEmulator();
  unreachable = new GraphitiClient({ baseUrl: stopped.url, maxRetries: 0, timeoutMs: 2_000 });
  await stopped.close();
});
afterEach(async () => {
  await client.close();
  await unreachable.close();
  await emulator.close();
});

async function compose() {
  const container = new Container();
  const connection = { api: client as GraphitiApi };
  bindFakeHostPorts(container, {
    // Per-message episodes, so each turn's fate is seen on its own (digests: session-digests.test.ts).
    settings: { enabled: true, endpoint: emulator.url, recall: { enabled: true }, capture: { granularity: 'turn' } },
    consentFor: emulator.url,
    connection: { current: () => connection.api },
    clock: new SystemClock(),
  });
  container.bind(IngestionOptions).toConstantValue({ pollIntervalMs: 20, maxPollIntervalMs: 100, retryDelayMs: 20, maxRetryDelayMs: 50 });
  container.bind(GroupRecorderOptions).toConstantValue({ tool: 'test-tool' });
  container.bind(EpisodeSources).toConstantValue(new InMemoryEpisodeSources());
  await container.load(createMemoryModule(), createInMemoryStorageModule());
  return {
    connection,
    ingestion: container.get<Ingestion>(Ingestion),
    forget: container.get(ForgetService),
    ledger: container.get<ForgetLedger>(ForgetLedger),
    recall: container.get<RecallService>(RecallService),
    registry: container.get<GroupRegistry>(GroupRegistry),
    groups: container.get<GroupIdResolver>(GroupIdResolver),
    storage: container.get<IngestionStorage>(IngestionStorage),
    sources: container.get<EpisodeSources>(EpisodeSources),
  };
}

function turn(id: string, sessionId: string, text: string): ChatTurn {
  return { id, sessionId, user: { text, timestamp: '2026-11-23T10:00:00Z' }, assistant: { text: `Noted: ${id}.`, timestamp: '2026-11-23T10:00:02Z' } };
}

const sentNames = (): string[] =>
  emulator.requests.filter((request) => request.route === 'messages').flatMap((request) => ((request.body as { messages?: Array<{ name: string }> }).messages ?? []).map((message) => message.name));

describe('forget with Graphiti unreachable', () => {
  it('drops the queue, owes the deletes and succeeds; the next drain pass deletes the groups before it sends anything new to them', async () => {
    const { connection, ingestion, forget, ledger, registry, groups, storage } = await compose();
    ingestion.start();
    ingestion.enqueue(turn('t1', 'chat-1', 'We deploy the billing API with Fly.io.'));
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    await ingestion.stop();
    const workspace = (await groups.resolve('workspace')) ?? '';
    const session = (await groups.resolve('session', { sessionId: 'chat-1' })) ?? '';
    // A turn still queued when Graphiti goes away.
    ingestion.enqueue(turn('t2', 'chat-1', 'Releases are cut on Fridays.'));
    await ingestion.settled();
    // Its user and assistant messages, for the session and the workspace group.
    expect((await storage.open()).outbox.size()).toBe(4);

    connection.api = unreachable;
    const result = await forget.forget({ scope: 'workspace' });
    expect(result.deletedGroups).toEqual([]);
    expect(result.dequeued).toBe(4);
    expect([...result.owed].sort()).toEqual([session, workspace].sort());
    expect(result.failed.map((failure) => failure.kind)).toEqual(['connection', 'connection']);
    expect(result.forgottenTurns).toBe(2);
    expect((await storage.open()).outbox.size()).toBe(0);
    expect((await ledger.read()).groups.filter((group) => group.deletionOwed).map((group) => group.groupId).sort()).toEqual([session, workspace].sort());
    // Still on the server, and still in the registry, until the delete is carried out.
    expect(emulator.state.episodes(workspace).length).toBeGreaterThan(0);
    expect((await registry.list()).map((record) => record.groupId).sort()).toEqual([session, workspace].sort());

    // Graphiti is back but refuses deletes; the user goes on in the same chat: the new turn waits
    // (sent before the delete, the delete would take it with it).
    connection.api = client;
    emulator.setFaults({ 'delete-group': { errorRate: 1 } });
    emulator.clearRequests();
    ingestion.enqueue(turn('t3', 'chat-1', 'The staging database is Postgres 16.'));
    ingestion.start();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(emulator.requests.filter((request) => request.route === 'delete-group').length).toBeGreaterThan(0);
    expect(sentNames()).toEqual([]);

    // Deletes succeed again: the groups are deleted first, then the new turn is sent.
    emulator.setFaults({});
    emulator.clearRequests();
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    await emulator.idle();
    await ingestion.dispose();
    const routes = emulator.requests.map((request) => request.route);
    const firstSend = routes.indexOf('messages');
    expect(routes.filter((route) => route === 'delete-group')).toHaveLength(2);
    expect(routes.lastIndexOf('delete-group')).toBeLessThan(firstSend);
    expect(sentNames().some((name) => name.includes('.t2.'))).toBe(false);
    // The new turn survives (it was sent after the delete, not taken with it); nothing of t1 or t2 is left.
    const left = emulator.state.episodes().map((episode) => episode.name);
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((name) => name.includes('.t3.'))).toBe(true);
    expect((await ledger.read()).groups.every((group) => !group.deletionOwed)).toBe(true);
  });

  it('recall leaves groups with an owed delete out; forget --retry (retryOwed) carries out the deletes once Graphiti answers', async () => {
    const { connection, ingestion, forget, recall } = await compose();
    ingestion.start();
    ingestion.enqueue(turn('t1', 'chat-1', 'We deploy the billing API with Fly.io.'));
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    await ingestion.dispose();
    await emulator.idle();
    const query = 'How do we deploy the billing API?';
    expect((await recall.recall(query, { sessionId: 'chat-1', scopes: ['session', 'workspace'] })).facts.length).toBeGreaterThan(0);
    connection.api = unreachable;
    expect((await forget.forget({ scope: 'workspace' })).owed).toHaveLength(2);
    expect((await forget.retryOwed()).deleted).toEqual([]);
    expect(await forget.owed()).toHaveLength(2);
    connection.api = client;
    // Graphiti answers again and still holds the groups: recall does not bring the forgotten facts back.
    expect(emulator.state.episodes().length).toBeGreaterThan(0);
    const searchesBefore = emulator.requests.filter((request) => request.route === 'search').length;
    expect((await recall.recall(query, { sessionId: 'chat-1', scopes: ['session', 'workspace'] })).facts).toEqual([]);
    expect(emulator.requests.filter((request) => request.route === 'search')).toHaveLength(searchesBefore);
    expect((await forget.retryOwed()).deleted).toHaveLength(2);
    expect(await forget.owed()).toEqual([]);
    expect(emulator.state.episodes()).toEqual([]);
  });
});

describe('a forgotten turn', () => {
  it('is not planned again under a new session id (a resumed transcript), into any group; new turns of that session are', async () => {
    const { ingestion, forget } = await compose();
    ingestion.start();
    ingestion.enqueue(turn('u-1', 'chat-1', 'We deploy the billing API with Fly.io.'));
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    expect((await forget.forget({ scope: 'workspace' })).forgottenTurns).toBe(1);
    emulator.clearRequests();

    // Resumed: the earlier turn is copied, with its id, into a new session; then a new turn.
    ingestion.enqueue(turn('u-1', 'chat-2', 'We deploy the billing API with Fly.io.'));
    ingestion.enqueue(turn('u-2', 'chat-2', 'Logs go to Grafana Loki.'));
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    await ingestion.dispose();
    const names = sentNames();
    expect(names.some((name) => name.includes('.u-2.'))).toBe(true);
    expect(names.filter((name) => name.includes('.u-1.'))).toEqual([]);
  });
});

describe('a forgotten turn under new message ids (issue 31.6)', { timeout: 30_000 }, () => {
  it('is recognised by its content hash and never sent again; the record of delivered episodes lets go of the forgotten session', async () => {
    const { ingestion, forget, sources, ledger } = await compose();
    ingestion.start();
    ingestion.enqueue(turn('u-1', 'chat-1', 'We deploy the billing API with Fly.io.'));
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    const delivered = emulator.state.episodes().map((episode) => episode.uuid);
    expect([...(await sources.find(delivered)).values()].map((source) => source.session)).toEqual(['chat-1', 'chat-1', 'chat-1', 'chat-1']);
    await forget.forget({ scope: 'session', sessionId: 'chat-1' });
    // Both episodes named the session: the workspace group's copy goes from the record too.
    expect((await sources.find(delivered)).size).toBe(0);
    // Only hashes are kept: no text of the turn in the ledger.
    expect(JSON.stringify([...(await ledger.read()).turns])).not.toContain('Fly.io');
    emulator.clearRequests();

    // Resumed with new message ids (and in a new session), the same text: not planned again.
    ingestion.enqueue({ ...turn('u-1-resumed', 'chat-2', 'We deploy  the billing API with Fly.io. '), assistant: { text: 'Noted: u-1.', timestamp: '2026-11-23T10:00:02Z' } });
    ingestion.enqueue(turn('u-2', 'chat-2', 'Logs go to Grafana Loki.'));
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    await ingestion.dispose();
    const names = sentNames();
    expect(names.some((name) => name.includes('.u-2.'))).toBe(true);
    expect(names.filter((name) => name.includes('.u-1'))).toEqual([]);
  });
});
