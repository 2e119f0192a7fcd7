// Ingestion against the emulator over real loopback HTTP, with the real client.
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../clock/system-clock.js';
import { FixedGraphitiConnection, RecordingLogger, RecordingTelemetry } from '../../test-support/fakes.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { InMemoryDeliveryLedger } from './in-memory-delivery-ledger.js';
import { openedIngestionStorage } from './in-memory-ingestion-storage.js';
import { InMemoryOutbox } from './in-memory-outbox.js';
import type { IngestionOptions } from './ingestion-options.js';
import { IngestionService } from './ingestion-service.js';
import {
  FakeTurnPlanner,
  makeTurn,
  MutableMemoryConfiguration,
  SwitchableGate,
  waitUntil,
} from '../../test-support/ingestion.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  readonly emulator: RunningEmulator;
  readonly service: IngestionService;
  readonly planner: FakeTurnPlanner;
  readonly outbox: InMemoryOutbox;
  readonly telemetry: RecordingTelemetry;
  readonly configuration: MutableMemoryConfiguration;
}

async function setup(
  options: Partial<IngestionOptions> = {},
  reuse: { emulator?: RunningEmulator; outbox?: InMemoryOutbox; start?: boolean } = {},
): Promise<Setup> {
  const emulator = reuse.emulator ?? (await startEmulator({ processingDelayMs: 1, seed: 7 }));
  if (!reuse.emulator) cleanups.push(() => emulator.close());
  const client = new GraphitiClient({ baseUrl: emulator.url, timeoutMs: 2_000 });
  cleanups.push(async () => client.close());
  const clock = new SystemClock();
  const configuration = new MutableMemoryConfiguration({ maxBatchSize: 20 });
  const outbox = reuse.outbox ?? new InMemoryOutbox(configuration, clock);
  const planner = new FakeTurnPlanner();
  const telemetry = new RecordingTelemetry();
  const service = new IngestionService(
    planner,
    openedIngestionStorage(outbox, new InMemoryDeliveryLedger()),
    new FixedGraphitiConnection(client),
    new SwitchableGate(),
    configuration,
    clock,
    new RecordingLogger(),
    telemetry,
    { pollIntervalMs: 20, maxPollIntervalMs: 100, retryDelayMs: 20, maxRetryDelayMs: 200, ...options },
  );
  cleanups.push(() => service.dispose());
  if (reuse.start !== false) service.start();
  return { emulator, service, planner, outbox, telemetry, configuration };
}

function messageCalls(emulator: RunningEmulator): { groupId: string; names: string[]; status: number }[] {
  return emulator.requests
    .filter((request) => request.route === 'messages')
    .map((request) => {
      const body = request.body as { group_id: string; messages: { name: string }[] };
      return { groupId: body.group_id, names: body.messages.map((message) => message.name), status: request.status };
    });
}

function episodeNames(emulator: RunningEmulator, groupId?: string): string[] {
  return emulator.state.episodes(groupId).map((episode) => episode.name);
}

describe('IngestionService over HTTP (emulator)', () => {
  it('enqueue returns before any request reaches the server', async () => {
    const { emulator, service } = await setup();
    service.enqueue(makeTurn(1));
    await Promise.resolve();
    expect(emulator.requests).toHaveLength(0);
    expect(await service.waitForConfirmation({ timeoutMs: 10_000 })).toEqual({ confirmed: 2, pending: 0 });
  });

  it('batches per group (scopes both → two groups) and confirms every message exactly once', async () => {
    const { emulator, service, planner } = await setup();
    planner.scopes = ['session', 'workspace'];
    for (let index = 0; index < 45; index++) service.enqueue(makeTurn(index));
    expect(await service.waitForConfirmation({ timeoutMs: 20_000 })).toEqual({ confirmed: 180, pending: 0 });
    const calls = messageCalls(emulator);
    // 45 turns → 90 messages per group → ceil(90 / 20) = 5 calls per group.
    expect(calls.filter((call) => call.groupId === 'session-s1')).toHaveLength(5);
    expect(calls.filter((call) => call.groupId === 'workspace-test')).toHaveLength(5);
    for (const groupId of ['session-s1', 'workspace-test']) {
      const names = episodeNames(emulator, groupId);
      expect(names).toHaveLength(90);
      expect(new Set(names).size).toBe(90);
    }
    // De-duplication: the same turns again send nothing.
    for (let index = 0; index < 45; index++) service.enqueue(makeTurn(index));
    await service.settled();
    expect(service.stats().counters.duplicates).toBe(180);
    expect(messageCalls(emulator)).toHaveLength(10);
  });

  it('retries 500 and 429 answers with backoff, then delivers once', async () => {
    const { emulator, service, telemetry } = await setup();
    emulator.setFaults({ messages: { errorRate: 1, errorStatus: 500 } });
    service.enqueue(makeTurn(1));
    await waitUntil(() => messageCalls(emulator).some((call) => call.status === 500), 'a 500');
    emulator.setFaults({ messages: { errorRate: 1, errorStatus: 429, retryAfterSeconds: 0 } });
    await waitUntil(() => messageCalls(emulator).some((call) => call.status === 429), 'a 429');
    expect(service.stats().state).toBe('failing');
    emulator.setFaults({});
    expect(await service.waitForConfirmation({ timeoutMs: 10_000 })).toEqual({ confirmed: 2, pending: 0 });
    expect(episodeNames(emulator)).toEqual(['test.turn.t1.user', 'test.turn.t1.assistant']);
    expect(messageCalls(emulator).filter((call) => call.status === 202)).toHaveLength(1);
    const retried = telemetry.ofType('retried').map((event) => event.errorClass);
    expect(retried).toContain('GraphitiServerError');
    expect(retried).toContain('GraphitiRateLimitError');
  });

  it('dead-letters messages the server refuses with 422', async () => {
    const { emulator, service, telemetry } = await setup();
    emulator.setFaults({ messages: { errorRate: 1, errorStatus: 422 } });
    service.enqueue(makeTurn(1));
    expect(await service.waitForConfirmation({ timeoutMs: 10_000 })).toEqual({ confirmed: 0, pending: 0 });
    expect(service.stats().counters).toMatchObject({ deadLettered: 2, confirmed: 0 });
    expect(telemetry.ofType('dead-lettered').reduce((sum, event) => sum + event.messages, 0)).toBe(2);
    expect(telemetry.ofType('dead-lettered')[0]).toMatchObject({ reason: 'HTTP 422 (validation)' });
    expect(emulator.state.episodes()).toHaveLength(0);
  });

  it('reports a dead worker as accepting-not-processing, then re-sends after a restart: stored exactly once', async () => {
    const { emulator, service } = await setup({ resendAfterMs: 300 });
    emulator.killWorker();
    for (let index = 0; index < 3; index++) service.enqueue(makeTurn(index));
    await waitUntil(() => service.stats().state === 'accepting-not-processing', 'accepting-not-processing');
    expect(service.stats()).toMatchObject({ waiting: 6, counters: { confirmed: 0 } });
    expect(emulator.state.episodes()).toHaveLength(0);
    await emulator.restartServer();
    expect(await service.waitForConfirmation({ timeoutMs: 15_000 })).toEqual({ confirmed: 6, pending: 0 });
    const names = episodeNames(emulator);
    expect(names).toHaveLength(6);
    expect(new Set(names).size).toBe(6);
    expect(service.stats().state).toBe('idle');
    expect(service.stats().counters.resent).toBeGreaterThanOrEqual(6);
  });

  it('after a restart of the client, finds what was stored before instead of sending it again', async () => {
    const first = await setup({ pollIntervalMs: 60_000, maxPollIntervalMs: 60_000 });
    first.service.enqueue(makeTurn(1));
    await waitUntil(() => first.emulator.state.episodes().length === 2, 'the episodes to be stored');
    expect(first.outbox.size()).toBe(2); // stored, not yet confirmed
    await first.service.dispose();

    const second = await setup({ resendAfterMs: 60_000 }, { emulator: first.emulator, outbox: first.outbox });
    expect(await second.service.waitForConfirmation({ timeoutMs: 10_000 })).toEqual({ confirmed: 2, pending: 0 });
    expect(messageCalls(first.emulator)).toHaveLength(1);
    expect(episodeNames(first.emulator)).toEqual(['test.turn.t1.user', 'test.turn.t1.assistant']);
  });
});

/** The real planner, gate and settings (memory-core's policy services) against a fresh emulator. */
async function setupWithPolicy(
  settings: Record<string, unknown>,
  { consent, ...options }: Partial<IngestionOptions> & { readonly consent: boolean },
): Promise<{ emulator: RunningEmulator; service: IngestionService; outbox: InMemoryOutbox }> {
  const emulator = await startEmulator({ processingDelayMs: 1 });
  cleanups.push(() => emulator.close());
  const client = new GraphitiClient({ baseUrl: emulator.url, timeoutMs: 2_000 });
  cleanups.push(async () => client.close());
  const clock = new SystemClock();
  const policy = createPolicyServices({
    api: client,
    clock,
    settings: { enabled: true, endpoint: emulator.url, capture: { granularity: 'turn' }, ...settings },
    consentFor: consent ? emulator.url : null,
  });
  const outbox = new InMemoryOutbox(policy.configuration, clock);
  const service = new IngestionService(
    policy.planner,
    openedIngestionStorage(outbox, new InMemoryDeliveryLedger()),
    policy.connection,
    policy.gate,
    policy.configuration,
    clock,
    new RecordingLogger(),
    policy.telemetry,
    options,
  );
  cleanups.push(() => service.dispose());
  service.start();
  return { emulator, service, outbox };
}

describe('IngestionService with the real planner over HTTP', () => {
  it('scopes both: each turn reaches the session and the workspace group, confirmed once', async () => {
    const { emulator, service } = await setupWithPolicy({ scopes: 'both', maxBatchSize: 20 }, { consent: true, pollIntervalMs: 20, maxPollIntervalMs: 100 });
    for (let index = 0; index < 3; index++) service.enqueue(makeTurn(index));
    expect(await service.waitForConfirmation({ timeoutMs: 10_000 })).toEqual({ confirmed: 12, pending: 0 });
    const groups = [...new Set(messageCalls(emulator).map((call) => call.groupId))];
    expect(groups).toHaveLength(2);
    for (const groupId of groups) {
      const names = episodeNames(emulator, groupId);
      expect(names).toHaveLength(6);
      expect(new Set(names).size).toBe(6);
    }
    expect(messageCalls(emulator)).toHaveLength(2);
  });

  it('sends nothing while the gate is closed (no consent)', async () => {
    const { emulator, service, outbox } = await setupWithPolicy({}, { consent: false });
    service.enqueue(makeTurn(1));
    await service.settled();
    await service.drain();
    expect(emulator.requests).toHaveLength(0);
    expect(outbox.size()).toBe(0); // the planner plans nothing while the gate is closed
  });
});
