// Session digests through the real planner and ingestion service: one episode per group per
// segment, closed at session end, on idle or every digestTurns turns; each turn once (resume),
// forgettable, and kept across a crash by the segment store.
import { describe, expect, it } from 'vitest';
import { FakeClock, InMemoryKeyValueStore, RecordingLogger } from '../../test-support/fakes.js';
import { FakeGraphiti, makeTurn } from '../../test-support/ingestion.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { InMemoryDeliveryLedger } from '../ingestion/in-memory-delivery-ledger.js';
import { InMemoryOutbox } from '../ingestion/in-memory-outbox.js';
import { IngestionService } from '../ingestion/ingestion-service.js';
import { DEFAULT_SETTINGS } from '../settings/memory-settings.js';
import type { ChatTurn, IngestionStorage, IngestionStore, OutboxEntry, OutboxRecord } from '../ports.js';
import { digestMaxChars } from './digest-format.js';
import { InMemoryDigestSegmentStore } from './digest-segment-store.js';
import { closingChunks, SessionDigests } from './session-digests.js';

interface Setup {
  readonly service: IngestionService;
  readonly store: IngestionStore;
  readonly clock: FakeClock;
  readonly queued: () => Promise<readonly OutboxRecord[]>;
  readonly globalStore: InMemoryKeyValueStore;
}

function setup(
  capture: Record<string, unknown> = {},
  shared?: { readonly store: IngestionStore; readonly clock: FakeClock; readonly globalStore?: InMemoryKeyValueStore },
  settings: Record<string, unknown> = {},
): Setup {
  const clock = shared?.clock ?? new FakeClock();
  // One user key for the whole setup: the session and workspace groups derive from it.
  const globalStore = shared?.globalStore ?? new InMemoryKeyValueStore();
  const policy = createPolicyServices({ api: new FakeGraphiti(), clock, globalStore, settings: { enabled: true, endpoint: 'http://localhost:8000', scopes: 'both', capture, ...settings } });
  const store: IngestionStore = shared?.store ?? {
    outbox: new InMemoryOutbox(policy.configuration, clock),
    ledger: new InMemoryDeliveryLedger(),
    segments: new InMemoryDigestSegmentStore(),
  };
  const storage: IngestionStorage = { open: () => Promise.resolve(store), current: () => store, close: () => Promise.resolve() };
  const service = new IngestionService(policy.planner, storage, policy.connection, policy.gate, policy.configuration, clock, new RecordingLogger(), policy.telemetry, { random: () => 0.5 });
  return { service, store, clock, queued: () => store.outbox.pending(1000), globalStore };
}

async function feed(service: IngestionService, turns: readonly ChatTurn[]): Promise<void> {
  for (const turn of turns) service.enqueue(turn);
  await service.settled();
}

const turns = (from: number, to: number): ChatTurn[] => Array.from({ length: to - from }, (_, index) => makeTurn(from + index));
const names = (records: readonly OutboxRecord[]): string[] => records.map((record) => record.message.name ?? '');

describe('session digests', () => {
  it('send a 4-turn session as one episode per group at session end, speakers kept', async () => {
    const { service, queued } = setup();
    await feed(service, turns(0, 4));
    expect(await queued()).toEqual([]);
    service.endSession('s1');
    await service.settled();
    const records = await queued();
    expect(records).toHaveLength(2);
    expect(new Set(records.map((record) => record.groupId)).size).toBe(2);
    for (const record of records) {
      expect(record.message.name).toBe('graphiti-memory.digest.s1.t0');
      expect(record.message.role).toBe('chat session');
      expect(record.message.content).toContain('user: question number 0 about the build');
      expect(record.message.content).toContain('copilot: answer number 3: run the build script first');
      expect(record.message.source_description).toContain('digest of 4 turns');
    }
  });

  it('close a digest every capture.digestTurns turns and keep the rest open', async () => {
    const { service, queued } = setup({ digestTurns: 3 }, undefined, { scopes: 'session' });
    await feed(service, turns(0, 7));
    expect(names(await queued())).toEqual(['graphiti-memory.digest.s1.t0', 'graphiti-memory.digest.s1.t3']);
    service.endSession('s1');
    await service.settled();
    expect(names(await queued())).toEqual(['graphiti-memory.digest.s1.t0', 'graphiti-memory.digest.s1.t3', 'graphiti-memory.digest.s1.t6']);
  });

  it('close a segment capture.idleMinutes after its last turn, on the next delivery pass', async () => {
    const { service, queued, clock, store } = setup({ idleMinutes: 5 }, undefined, { scopes: 'session' });
    await feed(service, turns(0, 2));
    await service.drain();
    expect(await queued()).toEqual([]);
    await clock.advance(4 * 60_000);
    await service.drain();
    expect(await queued()).toEqual([]);
    await clock.advance(60_000);
    await service.drain();
    // Drained: the digest was sent (FakeGraphiti took it), so it is in flight, not pending.
    expect([...names(await queued()), ...names(await store.outbox.inFlight())]).toEqual(['graphiti-memory.digest.s1.t0']);
  });

  it('deliver each turn once: a resumed session offering its old turns again sends only the new ones', async () => {
    const { service, queued } = setup({}, undefined, { scopes: 'session' });
    await feed(service, turns(0, 3));
    service.endSession('s1');
    await service.settled();
    await feed(service, turns(0, 5));
    service.endSession('s1');
    await service.settled();
    const records = await queued();
    expect(names(records)).toEqual(['graphiti-memory.digest.s1.t0', 'graphiti-memory.digest.s1.t3']);
    expect(records[1]?.message.content).not.toContain('question number 2 ');
    expect(records[1]?.message.content).toContain('question number 3 ');
    expect(records[1]?.message.content).toContain('question number 4 ');
  });

  it('leave out of a digest a turn already sent as per-message episodes (granularity switched)', async () => {
    const { service, queued, store, globalStore } = setup({ granularity: 'turn' }, undefined, { scopes: 'session' });
    await feed(service, turns(0, 1));
    expect(names(await queued())).toEqual(['graphiti-memory.turn.t0.user', 'graphiti-memory.turn.t0.assistant']);
    // The same person (user key) after switching: the same session group.
    const digesting = setup({}, { store, clock: new FakeClock(), globalStore }, { scopes: 'session' });
    await feed(digesting.service, turns(0, 2));
    digesting.service.endSession('s1');
    await digesting.service.settled();
    const digest = (await queued()).find((record) => record.message.name?.includes('.digest.'));
    expect(digest?.message.name).toBe('graphiti-memory.digest.s1.t1');
    expect(digest?.message.content).not.toContain('question number 0 ');
  });

  it('drop an open segment when its group is forgotten, and never take its turns again', async () => {
    const { service, queued, store } = setup({}, undefined, { scopes: 'session' });
    await feed(service, turns(0, 2));
    const segments = await store.segments?.read();
    const groupId = segments?.[0]?.groupId ?? '';
    expect(groupId).not.toBe('');
    expect(await service.forgetGroups([groupId])).toBe(2);
    expect(await store.segments?.read()).toEqual([]);
    await feed(service, turns(0, 2));
    service.endSession('s1');
    await service.settled();
    expect(await queued()).toEqual([]);
  });

  it("close a crashed session's segment from the next run that shares its store", async () => {
    const first = setup({ idleMinutes: 5 }, undefined, { scopes: 'session' });
    await feed(first.service, turns(0, 2));
    // The process dies with the segment open: nothing was sent, the segment stays in the store.
    expect(await first.queued()).toEqual([]);
    await first.clock.advance(10 * 60_000);
    const next = setup({ idleMinutes: 5 }, { store: first.store, clock: first.clock }, { scopes: 'session' });
    await next.service.drain();
    const inFlight = await first.store.outbox.inFlight();
    expect([...names(await first.queued()), ...names(inFlight)]).toEqual(['graphiti-memory.digest.s1.t0']);
    expect(await first.store.segments?.read()).toEqual([]);
  });

  it('cap a digest at three messages of maxMessageChars, every turn keeping its share', async () => {
    const { service, queued } = setup({}, undefined, { scopes: 'session', maxMessageChars: 1000 });
    const long = turns(0, 10).map((turn) => ({ ...turn, assistant: { text: `${turn.assistant?.text ?? ''} ${'detail '.repeat(400)}`, timestamp: turn.user.timestamp } }));
    await feed(service, long);
    const [digest] = await queued();
    expect(digest?.message.content.length).toBeLessThanOrEqual(digestMaxChars(1000));
    for (let index = 0; index < 10; index++) expect(digest?.message.content).toContain(`question number ${index} `);
  });

  it("carry the first turn's source metadata (fields besides group and message) over to the digest entry", async () => {
    const digests = new SessionDigests(() => ({ ...DEFAULT_SETTINGS, capture: { ...DEFAULT_SETTINGS.capture } }));
    const turnOf = new Map<OutboxEntry, ChatTurn>();
    const entries = turns(0, 2).flatMap((turn) =>
      (['user', 'assistant'] as const).map((role) => {
        const entry = { groupId: 'g1', message: { content: `${role} of ${turn.id}`, role_type: role, role, name: `graphiti-memory.turn.${turn.id}.${role}` }, source: { tool: 'claude-code', title: turn.user.text } } as OutboxEntry;
        turnOf.set(entry, turn);
        return entry;
      }),
    );
    const store = { ledger: new InMemoryDeliveryLedger(), segments: new InMemoryDigestSegmentStore() };
    const collected = await digests.collect(entries, turnOf, store, 0, { endedSessions: new Set(['s1']), closeDue: true });
    expect(collected.closing).toHaveLength(1);
    expect(collected.closing[0]?.entry).toMatchObject({ groupId: 'g1', source: { tool: 'claude-code', title: 'question number 0 about the build' } });
  });

  it('keep per-message episodes with capture.granularity turn', async () => {
    const { service, queued } = setup({ granularity: 'turn' }, undefined, { scopes: 'session' });
    await feed(service, turns(0, 2));
    expect(names(await queued())).toEqual(['graphiti-memory.turn.t0.user', 'graphiti-memory.turn.t0.assistant', 'graphiti-memory.turn.t1.user', 'graphiti-memory.turn.t1.assistant']);
  });
});

describe('closingChunks', () => {
  const at = (minutes: number) => ({ id: `t${minutes}`, keys: [`k${minutes}`], messages: [{ content: 'x', role_type: 'user' as const, role: 'user', timestamp: new Date(Date.UTC(2026, 0, 1) + minutes * 60_000).toISOString() }] });
  const ids = (chunks: readonly (readonly { id: string }[])[]) => chunks.map((chunk) => chunk.map((turn) => turn.id));

  it('cuts at every idle gap between the turns’ own times and at digestTurns; the rest stays open until the segment ends', () => {
    const turns = [at(0), at(10), at(100), at(105), at(110), at(500)];
    expect(ids(closingChunks(turns, 2, 30 * 60_000, false).closing)).toEqual([['t0', 't10'], ['t100', 't105'], ['t110']]);
    expect(closingChunks(turns, 2, 30 * 60_000, false).open).toBe(true);
    expect(ids(closingChunks(turns, 20, 30 * 60_000, true).closing)).toEqual([['t0', 't10'], ['t100', 't105', 't110'], ['t500']]);
  });

  it('keeps turns without a readable time together (no gap can be seen)', () => {
    const untimed = (id: string) => ({ id, keys: [id], messages: [{ content: 'x', role_type: 'user' as const, role: 'user' }] });
    expect(ids(closingChunks([untimed('a'), untimed('b')], 20, 60_000, true).closing)).toEqual([['a', 'b']]);
  });
});
