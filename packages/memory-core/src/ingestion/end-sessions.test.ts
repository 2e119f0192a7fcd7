// `endSessions`: what every importer (ingest, demo, the hooks' SessionEnd) does after feeding a
// transcript's turns: each named session's open digest closes now, once, however often it is named.
import { describe, expect, it } from 'vitest';
import { FakeClock, InMemoryKeyValueStore, RecordingLogger } from '../../test-support/fakes.js';
import { FakeGraphiti, makeTurn } from '../../test-support/ingestion.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { InMemoryDigestSegmentStore } from '../digest/digest-segment-store.js';
import type { IngestionStorage, IngestionStore } from '../ports.js';
import { InMemoryDeliveryLedger } from './in-memory-delivery-ledger.js';
import { InMemoryOutbox } from './in-memory-outbox.js';
import { IngestionService } from './ingestion-service.js';

function setup() {
  const clock = new FakeClock();
  const policy = createPolicyServices({
    api: new FakeGraphiti(),
    clock,
    globalStore: new InMemoryKeyValueStore(),
    settings: { enabled: true, endpoint: 'http://localhost:8000', scopes: 'session' },
  });
  const store: IngestionStore = { outbox: new InMemoryOutbox(policy.configuration, clock), ledger: new InMemoryDeliveryLedger(), segments: new InMemoryDigestSegmentStore() };
  const storage: IngestionStorage = { open: () => Promise.resolve(store), current: () => store, close: () => Promise.resolve() };
  const service = new IngestionService(policy.planner, storage, policy.connection, policy.gate, policy.configuration, clock, new RecordingLogger(), policy.telemetry, { random: () => 0.5 });
  return { service, names: async () => (await store.outbox.pending(1000)).map((record) => record.message.name).sort() };
}

describe('Ingestion.endSessions', () => {
  it("closes each named session's digest once, and leaves the sessions not named open", async () => {
    const { service, names } = setup();
    for (const turn of [makeTurn(0, 's1'), makeTurn(1, 's2'), makeTurn(2, 's1'), makeTurn(3, 's3')]) service.enqueue(turn);
    await service.settled();
    expect(await names()).toEqual([]);
    service.endSessions(['s1', 's2', 's1']);
    await service.settled();
    expect(await names()).toEqual(['graphiti-memory.digest.s1.t0', 'graphiti-memory.digest.s2.t1']);
  });
});
