// Ingestion opens its storage itself, on first need, never on the caller's path; until it is open
// turns wait in staging (bounded); the drain loop starts and stops with the gate.
import { describe, expect, it } from 'vitest';
import { MAX_STAGED_WHILE_OPENING } from './turn-staging.js';
import { createIngestionFixture, makeTurn, type DeferredStorage } from '../../test-support/ingestion.js';

/** Lets timers and microtasks run (staging runs a macrotask after enqueue). */
const tick = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function deferredFixture(options: Parameters<typeof createIngestionFixture>[0] = {}) {
  const fixture = createIngestionFixture({ ...options, deferOpen: true });
  return { ...fixture, storage: fixture.storage as DeferredStorage };
}

describe('IngestionService: its storage', () => {
  it('is not opened by construction, stats, dead letters or a stopped loop', async () => {
    const { service, storage, gate } = deferredFixture();
    expect(service.stats()).toMatchObject({ state: 'idle', queueDepth: 0, deadLetters: 0 });
    expect(service.deadLetters()).toEqual([]);
    expect(service.retryDeadLetters()).toBe(0);
    gate.close();
    service.start();
    await tick();
    expect(storage.opens).toBe(0);
    await service.dispose();
    expect(storage.closes).toBe(0);
  });

  it('is opened once, off the caller path, when staged messages need admitting; turns wait in staging meanwhile', async () => {
    const { service, storage, outbox } = deferredFixture();
    service.enqueue(makeTurn(1));
    expect(storage.opens).toBe(0);
    await tick();
    expect(storage.opens).toBe(1);
    service.enqueue(makeTurn(2));
    await tick();
    expect(outbox.size()).toBe(0);
    expect(service.stats()).toMatchObject({ state: 'sending', staged: 1 });
    storage.finishOpening();
    await service.settled();
    expect(outbox.size()).toBe(4);
    expect(storage.opens).toBe(1);
    expect(service.stats()).toMatchObject({ queueDepth: 4, staged: 0 });
    await service.dispose();
    expect(storage.closes).toBe(1);
  });

  it('bounds staging while storage opens: the oldest item goes, with a content-free warning', async () => {
    const { service, storage, outbox, logger } = deferredFixture({ settings: { maxQueueSize: 10_000 } });
    service.enqueue(makeTurn(0));
    await tick();
    for (let index = 1; index <= MAX_STAGED_WHILE_OPENING + 1; index++) service.enqueueEntries([{ groupId: 'g', message: { content: `m${index}`, role_type: 'user', role: null, name: `n${index}` } }]);
    expect(service.stats().staged).toBe(MAX_STAGED_WHILE_OPENING);
    expect(logger.text()).toContain('dropped a staged item while storage was opening');
    expect(logger.text()).not.toContain('m1"');
    storage.finishOpening();
    await service.settled();
    const names = new Set((await outbox.pending(5_000)).map((record) => record.message.name));
    expect(names.has('n1')).toBe(false);
    expect(names.has(`n${MAX_STAGED_WHILE_OPENING + 1}`)).toBe(true);
    await service.dispose();
  });

  it('is seen at once when the host opened it before (its queue and dead letters, no open needed)', async () => {
    const { service, outbox } = createIngestionFixture();
    outbox.append([{ groupId: 'g', message: { content: 'left over', role_type: 'user', role: null, name: 'left-1' } }]);
    outbox.markDropped([(await outbox.pending(1))[0]!.id], 'dead-letter', 'HTTP 500');
    outbox.append([{ groupId: 'g', message: { content: 'waiting', role_type: 'user', role: null, name: 'left-2' } }]);
    expect(service.stats()).toMatchObject({ queueDepth: 1, deadLetters: 1 });
    expect(service.deadLetters().map((letter) => letter.name)).toEqual(['left-1']);
    expect(service.retryDeadLetters()).toBe(1);
    expect(service.stats().queueDepth).toBe(2);
    await service.dispose();
  });

  it('is opened by the first pass once delivery starts with the gate open, and by a forget', async () => {
    const started = deferredFixture();
    started.service.start();
    await tick();
    expect(started.storage.opens).toBe(1);
    started.storage.finishOpening();
    await started.service.dispose();
    expect(started.storage.closes).toBe(1);

    const forgetting = deferredFixture();
    const dequeued = forgetting.service.forgetGroups(['g']);
    expect(forgetting.storage.opens).toBe(0);
    await tick();
    expect(forgetting.storage.opens).toBe(1);
    forgetting.storage.finishOpening();
    expect(await dequeued).toBe(0);
    await forgetting.service.dispose();
  });
});

describe('IngestionService: start and stop', () => {
  it('sends nothing after stop, and resumes on start', async () => {
    const { service, graphiti, outbox } = createIngestionFixture({ options: { idleRecheckMs: 10 } });
    service.start();
    service.enqueue(makeTurn(1));
    await service.settled();
    for (let round = 0; round < 50 && graphiti.messagesCallCount === 0; round++) await tick();
    expect(graphiti.messagesCallCount).toBeGreaterThan(0);
    const sent = graphiti.messagesCallCount;

    await service.stop();
    service.enqueue(makeTurn(2));
    await service.settled();
    await tick(30);
    expect(graphiti.messagesCallCount).toBe(sent);
    expect((await outbox.pending(10)).length).toBe(2);

    service.start();
    for (let round = 0; round < 50 && graphiti.messagesCallCount === sent; round++) await tick();
    expect(graphiti.messagesCallCount).toBeGreaterThan(sent);
    await service.dispose();
  });
});
