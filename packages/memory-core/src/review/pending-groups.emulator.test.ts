// Issue 29 items 4 and 5 in memory-core as an app composes it: a directive in a captured turn is held
// for review by default (auto-promotion unset), recording every group it belongs to; a forget of
// those groups drops it; approving one whose group was forgotten meanwhile is refused, nothing sent.
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { Container } from 'inversify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../clock/system-clock.js';
import { ForgetLedger } from '../forget/forget-ledger.js';
import { ForgetService } from '../forget/forget-service.js';
import { Ingestion, IngestionOptions } from '../ingestion/index.js';
import { createInMemoryStorageModule, createMemoryModule } from '../memory-module.js';
import type { ChatTurn } from '../ports.js';
import { GroupRecorderOptions } from '../registry/index.js';
import { GroupIdResolver } from '../scopes/index.js';
import { bindFakeHostPorts } from '../../test-support/fake-host-ports.js';
import { PendingMemoryStore, type PendingMemory } from './pending-memory-store.js';
import { ReviewQueue } from './review-queue.js';

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

async function compose(settings: Record<string, unknown> = {}) {
  const container = new Container();
  bindFakeHostPorts(container, {
    settings: { enabled: true, endpoint: emulator.url, capture: { granularity: 'turn' }, ...settings },
    consentFor: emulator.url,
    connection: { current: () => client },
    clock: new SystemClock(),
  });
  container.bind(IngestionOptions).toConstantValue({ pollIntervalMs: 20, maxPollIntervalMs: 100 });
  container.bind(GroupRecorderOptions).toConstantValue({ tool: 'test-tool' });
  await container.load(createMemoryModule(), createInMemoryStorageModule());
  const ingestion = container.get<Ingestion>(Ingestion);
  ingestion.start();
  return {
    ingestion,
    forget: container.get(ForgetService),
    ledger: container.get<ForgetLedger>(ForgetLedger),
    pending: container.get<PendingMemoryStore>(PendingMemoryStore),
    review: container.get(ReviewQueue),
    groups: container.get<GroupIdResolver>(GroupIdResolver),
  };
}

const directiveTurn = (id: string, text: string): ChatTurn => ({
  id,
  sessionId: 'chat-1',
  user: { text, timestamp: new Date().toISOString() },
  assistant: { text: 'Noted.', timestamp: new Date().toISOString() },
});

const promotionsSent = () => emulator.requests.filter((request) => request.path === '/messages' && JSON.stringify(request.body).includes('graphiti_episode'));

describe('pending memories belong to their groups', () => {
  it('a directive is held for review when autoPromote is unset, naming its group and the groups of the turn it was said in', async () => {
    const memory = await compose();
    memory.ingestion.enqueue(directiveTurn('t1', 'preference (user): answers in British English'));
    await memory.ingestion.waitForConfirmation({ timeoutMs: 15_000 });
    const [held] = await memory.pending.list();
    expect(held).toMatchObject({ kind: 'preference', scope: 'user', source: 'directive', sessionId: 'chat-1' });
    const user = await memory.groups.resolve('user');
    const workspace = await memory.groups.resolve('workspace');
    const session = await memory.groups.resolve('session', { sessionId: 'chat-1' });
    expect(held?.groupId).toBe(user);
    expect([...(held?.groupIds ?? [])].sort()).toEqual([user, workspace, session].sort());
    expect(promotionsSent()).toEqual([]);
  });

  it('only autoPromote.enabled with review off promotes a directive at once', async () => {
    const memory = await compose({ autoPromote: { enabled: true, review: false } });
    memory.ingestion.enqueue(directiveTurn('t1', 'decision (workspace): adopt zod'));
    await memory.ingestion.waitForConfirmation({ timeoutMs: 15_000 });
    expect(await memory.pending.list()).toEqual([]);
    expect(promotionsSent()).toHaveLength(1);
  });

  it('forget --scope workspace drops a directive said in this workspace, a user-scope one included', async () => {
    const memory = await compose();
    memory.ingestion.enqueue(directiveTurn('t1', 'decision (workspace): adopt zod'));
    memory.ingestion.enqueue(directiveTurn('t2', 'preference (user): answers in British English'));
    await memory.ingestion.waitForConfirmation({ timeoutMs: 15_000 });
    expect(await memory.pending.list()).toHaveLength(2);
    const result = await memory.forget.forget({ scope: 'workspace' });
    expect(result.droppedPending).toBe(2);
    expect(await memory.pending.list()).toEqual([]);
  });

  it('records kept before pending memories named groups: dropped with their session, else with a forget of their scope', async () => {
    const memory = await compose();
    const old = (id: string, scope: PendingMemory['scope'], sessionId?: string): PendingMemory => ({
      id,
      kind: 'decision',
      scope,
      text: `old ${id}`,
      source: 'directive',
      createdAt: Date.now(),
      ...(sessionId === undefined ? {} : { sessionId }),
    });
    await memory.pending.add(old('a', 'user', 'chat-1'));
    await memory.pending.add(old('b', 'workspace'));
    await memory.pending.add(old('c', 'user'));
    // The session's group must be known to be forgotten: one turn of it was captured.
    memory.ingestion.enqueue(directiveTurn('t1', 'We use pnpm.'));
    await memory.ingestion.waitForConfirmation({ timeoutMs: 15_000 });
    await memory.forget.forget({ scope: 'session', sessionId: 'chat-1' });
    expect((await memory.pending.list()).map((item) => item.id)).toEqual(['b', 'c']);
    await memory.forget.forget({ scope: 'workspace' });
    expect((await memory.pending.list()).map((item) => item.id)).toEqual(['c']);
  });

  it('approving a memory whose group was forgotten meanwhile (by another tool) is refused with the reason; nothing is sent', async () => {
    const memory = await compose();
    memory.ingestion.enqueue(directiveTurn('t1', 'decision (workspace): adopt zod'));
    await memory.ingestion.waitForConfirmation({ timeoutMs: 15_000 });
    const [held] = await memory.pending.list();
    // Another process forgot the workspace: its ledger says so, this process's pending list did not learn of it.
    await memory.ledger.forgetGroups([(await memory.groups.resolve('workspace'))!], Date.now());
    const outcome = await memory.review.approve(held!.id);
    expect(outcome).toMatchObject({ status: 'forgotten', groupIds: [held!.groupId] });
    expect(await memory.pending.list()).toEqual([]);
    await memory.ingestion.settled();
    expect(promotionsSent()).toEqual([]);
  });
});
