// Issue 13's bounded delivery and forget support, at the level of the service: outages never dead-
// letter (issue 31); dead letters for refused writes or past `maxAgeHours`, retry and drop, offered-but-unsent given back,
// and forgetting what is still queued for a set of groups.
import { describe, expect, it } from 'vitest';
import { createIngestionFixture, fakeGraphitiError, makeTurn } from '../../test-support/ingestion.js';

describe('IngestionService: bounded delivery', () => {
  it('never counts an outage as an attempt: 5xx, refused connections and timeouts beyond maxAttempts, then delivered once', async () => {
    const { service, graphiti, clock, outbox, telemetry } = createIngestionFixture({ settings: { maxAttempts: 2 } });
    graphiti.addMessagesFailures = [
      fakeGraphitiError('server', { status: 500 }),
      fakeGraphitiError('connection', { code: 'ECONNREFUSED' }),
      fakeGraphitiError('server', { status: 503 }),
      fakeGraphitiError('connection', { code: 'ECONNREFUSED' }),
      fakeGraphitiError('rate-limit', { status: 429 }),
    ];
    service.enqueue(makeTurn(1));
    for (let pass = 0; pass < 5; pass++) {
      await service.drain();
      await clock.advance(60_000);
    }
    expect(graphiti.addMessagesCalls.length).toBe(5);
    expect(service.stats()).toMatchObject({ deadLetters: 0, queueDepth: 2 });
    // How long the oldest has waited is known (the status item and the footer say it past an hour).
    expect(service.stats().oldestQueuedAt).toBeLessThanOrEqual(clock.now() - 4 * 60_000);
    expect((await outbox.pending(10)).map((record) => record.attempts)).toEqual([0, 0]);
    await service.drain();
    await clock.advance(1_000);
    await service.drain();
    expect(graphiti.episodeNames()).toEqual(['test.turn.t1.user', 'test.turn.t1.assistant']);
    expect(service.stats()).toMatchObject({ deadLetters: 0, queueDepth: 0, counters: { deadLettered: 0, confirmed: 2 } });
    expect(telemetry.ofType('dead-lettered')).toEqual([]);
  });

  it('does not count a timed-out send when it is sent again: timeouts are outages too', async () => {
    const { service, graphiti, clock } = createIngestionFixture({ settings: { maxAttempts: 1 }, options: { resendAfterMs: 1_000, maxPollIntervalMs: 500 } });
    // The request timed out (it never reached the server) three times; the fourth is accepted.
    graphiti.addMessagesFailures = [fakeGraphitiError('timeout'), fakeGraphitiError('timeout'), fakeGraphitiError('timeout')];
    service.enqueue(makeTurn(1));
    for (let step = 0; step < 200 && graphiti.episodeNames().length < 2; step++) {
      await service.drain();
      await clock.advance(500);
    }
    expect(graphiti.episodeNames()).toEqual(['test.turn.t1.user', 'test.turn.t1.assistant']);
    expect(service.stats()).toMatchObject({ deadLetters: 0 });
  });

  it('still dead-letters a write Graphiti refused as invalid (422)', async () => {
    const { service, graphiti } = createIngestionFixture({ settings: { maxAttempts: 8, maxBatchSize: 1 } });
    graphiti.addMessagesFailures = [fakeGraphitiError('validation', { status: 422 })];
    service.enqueue(makeTurn(1));
    await service.drain();
    expect(service.deadLetters().map((letter) => [letter.name, letter.lastError])).toEqual([['test.turn.t1.user', 'HTTP 422 (validation)']]);
  });

  it('dead-letters what an outage kept past maxAgeHours (the outbox bound)', async () => {
    const { service, graphiti, clock } = createIngestionFixture({ settings: { maxAgeHours: 1 } });
    graphiti.addMessagesFailures = Array.from({ length: 1_000 }, () => fakeGraphitiError('connection', { code: 'ECONNREFUSED' }));
    service.enqueue(makeTurn(1));
    await service.drain();
    await clock.advance(1_800_000);
    await service.drain();
    expect(service.stats()).toMatchObject({ deadLetters: 0, queueDepth: 2 });
    await clock.advance(1_800_001);
    await service.drain();
    expect(service.stats()).toMatchObject({ deadLetters: 2, queueDepth: 0 });
    expect(service.deadLetters()[0]?.lastError).toBe('unconfirmed after 1 h');
  });

  it('retries dead letters with fresh attempts, and drops them for good', async () => {
    const { service, graphiti, clock } = createIngestionFixture({ settings: { maxAttempts: 1, maxBatchSize: 1 } });
    graphiti.addMessagesFailures = [0, 1, 2, 3].map(() => fakeGraphitiError('validation', { status: 422 }));
    service.enqueue(makeTurn(1));
    service.enqueue(makeTurn(2));
    await service.drain();
    expect(service.stats().deadLetters).toBe(4);
    const [first] = service.deadLetters();
    expect(service.retryDeadLetters([first!.id])).toBe(1);
    await clock.advance(60_000);
    await service.drain();
    expect(graphiti.episodeNames()).toEqual(['test.turn.t1.user']);
    expect(service.dropDeadLetters()).toBe(3);
    expect(service.stats().deadLetters).toBe(0);
  });

  it('counts a POST under way as sending, not as sent, until Graphiti answers', async () => {
    const { service, graphiti } = createIngestionFixture();
    let release: () => void = () => undefined;
    const answer = new Promise<void>((resolve) => {
      release = resolve;
    });
    const addMessages = graphiti.addMessages.bind(graphiti);
    graphiti.addMessages = async (request, options) => {
      await answer;
      return addMessages(request, options);
    };
    service.enqueue(makeTurn(1));
    await service.settled();
    const pass = service.drain();
    for (let tick = 0; tick < 100 && service.stats().sending === 0; tick++) await Promise.resolve();
    // Marked in flight before the request (crash safety), but not accepted yet.
    expect(service.stats()).toMatchObject({ inFlight: 2, sending: 2, counters: { sent: 0 } });
    release();
    await pass;
    expect(service.stats()).toMatchObject({ inFlight: 2, sending: 0, counters: { sent: 2 } });
  });

  it('dead-letters what stays unconfirmed past maxAgeHours', async () => {
    const { service, graphiti, clock } = createIngestionFixture({ settings: { maxAgeHours: 1 } });
    graphiti.autoProcess = false;
    graphiti.workerAlive = false;
    service.enqueue(makeTurn(1));
    await service.drain();
    expect(service.stats().inFlight).toBe(2);
    await clock.advance(3_600_001);
    await service.drain();
    expect(service.stats()).toMatchObject({ deadLetters: 2, queueDepth: 0 });
    expect(service.deadLetters()[0]?.lastError).toBe('unconfirmed after 1 h');
  });

  it('gives records offered but not sent back as pending when a pass stops early', async () => {
    const { service, graphiti, outbox } = createIngestionFixture({ settings: { maxBatchSize: 2 } });
    const givenBack: string[][] = [];
    const markPending = outbox.markPending.bind(outbox);
    outbox.markPending = (ids) => {
      givenBack.push([...ids]);
      markPending(ids);
    };
    graphiti.addMessagesFailures = [fakeGraphitiError('server', { status: 500 })];
    for (const index of [1, 2, 3]) service.enqueue(makeTurn(index));
    await service.settled();
    const [first, second, ...rest] = (await outbox.pending(10)).map((record) => record.id);
    await service.drain();
    expect(graphiti.addMessagesCalls.length).toBe(1);
    // The refused batch goes back as a retry; the four no request carried are released as unsent.
    expect(givenBack).toEqual([[first, second], rest]);
  });
});

describe('IngestionService: forgetGroups', () => {
  it('removes what is queued (and still staged) for the groups, and never admits those messages again', async () => {
    const { service, outbox, graphiti } = createIngestionFixture();
    graphiti.autoProcess = false;
    service.enqueue(makeTurn(1, 'a'));
    await service.drain();
    service.enqueue(makeTurn(2, 'a'));
    service.enqueue(makeTurn(3, 'b'));
    expect(await service.forgetGroups(['session-a'])).toBe(4);
    expect((await outbox.pending(10)).map((record) => record.groupId)).toEqual(['session-b', 'session-b']);
    expect(await outbox.inFlight()).toEqual([]);
    service.enqueue(makeTurn(2, 'a'));
    await service.settled();
    expect(outbox.size()).toBe(2);
    expect(service.stats().counters.duplicates).toBe(2);
  });
});
