import { describe, expect, it } from 'vitest';
import type { OutboxRecord } from '../ports.js';
import type { FakeClock } from '../../test-support/fakes.js';
import { InMemoryOutbox } from './in-memory-outbox.js';
import { createIngestionFixture, fakeGraphitiError, makeTurn, turnMessages } from '../../test-support/ingestion.js';

/** Moves the fake clock in small steps (letting the loop run between them) until `promise` settles. */
async function settleWithTime<T>(clock: FakeClock, promise: Promise<T>, stepMs = 50): Promise<T> {
  let settled = false;
  void promise.finally(() => {
    settled = true;
  });
  for (let steps = 0; !settled && steps < 10_000; steps++) await clock.advance(stepMs);
  return promise;
}

describe('IngestionService: enqueue', () => {
  it('returns before planning or any request, then plans and appends in the background', async () => {
    const { service, planner, graphiti, outbox } = createIngestionFixture();
    const returned: unknown = service.enqueue(makeTurn(1));
    expect(returned).toBeUndefined();
    expect(planner.planned).toBe(0);
    expect(outbox.size()).toBe(0);
    expect(service.stats().staged).toBe(1);
    await service.settled();
    expect(planner.planned).toBe(1);
    expect(outbox.size()).toBe(2);
    expect(graphiti.messagesCallCount).toBe(0);
  });

  it('skips messages the ledger already knows (a turn seen again)', async () => {
    const { service, outbox, telemetry } = createIngestionFixture();
    service.enqueue(makeTurn(1));
    service.enqueue(makeTurn(1));
    service.enqueue(makeTurn(2));
    await service.settled();
    expect(outbox.size()).toBe(4);
    expect(service.stats().counters).toMatchObject({ turns: 3, enqueued: 4, duplicates: 2 });
    expect(telemetry.ofType('enqueued')).toEqual([{ type: 'enqueued', turns: 3 }]);
  });

  it('drops the oldest pending messages when the queue is full, counted and content-free', async () => {
    const { service, outbox, telemetry, logger } = createIngestionFixture({ settings: { maxQueueSize: 5 } });
    for (let index = 1; index <= 4; index++) service.enqueue(makeTurn(index));
    await service.settled();
    expect(outbox.size()).toBe(5);
    const names = (await outbox.pending(10)).map((record) => record.message.name);
    expect(names).toEqual([
      'test.turn.t2.assistant',
      'test.turn.t3.user',
      'test.turn.t3.assistant',
      'test.turn.t4.user',
      'test.turn.t4.assistant',
    ]);
    expect(telemetry.ofType('dropped')).toEqual([{ type: 'dropped', messages: 3, reason: 'overflow' }]);
    expect(service.stats().counters.dropped).toBe(3);
    expect(logger.text()).not.toContain('question number');
  });

  it('enqueueEntries skips planning, still de-duplicates, and refuses a nameless message', async () => {
    const { service, outbox, planner } = createIngestionFixture();
    const entries = turnMessages(makeTurn(7)).map((message) => ({ groupId: 'workspace-a', message }));
    service.enqueueEntries(entries);
    service.enqueueEntries(entries);
    await service.settled();
    expect(planner.planned).toBe(0);
    expect(outbox.size()).toBe(2);
    expect(() =>
      service.enqueueEntries([{ groupId: 'g', message: { content: 'x', role_type: 'user', role: null } }]),
    ).toThrow(/index 0 has no name/);
  });

  it('backfill keeps the newest turns up to the limit, ledger de-duplicated', async () => {
    const { service, outbox } = createIngestionFixture();
    service.enqueue(makeTurn(5));
    const history = [1, 2, 3, 4, 5].map((index) => makeTurn(index));
    expect(service.backfill(history, { limit: 3 })).toBe(3);
    await service.settled();
    const names = new Set((await outbox.pending(100)).map((record) => record.message.name));
    expect(names).toEqual(
      new Set(['t5', 't3', 't4'].flatMap((id) => [`test.turn.${id}.user`, `test.turn.${id}.assistant`])),
    );
    expect(service.stats().counters.duplicates).toBe(2);
    expect(service.backfill(history, { limit: 0 })).toBe(0);
  });
});

describe('IngestionService: sending', () => {
  it('batches per group up to maxBatchSize per /messages call', async () => {
    const { service, graphiti, planner } = createIngestionFixture({ settings: { maxBatchSize: 20 } });
    planner.scopes = ['session', 'workspace'];
    for (let index = 0; index < 45; index++) service.enqueue(makeTurn(index));
    await service.drain();
    // 45 turns → 90 messages per group → ceil(90 / 20) = 5 calls per group.
    const callsByGroup = new Map<string, number[]>();
    for (const call of graphiti.addMessagesCalls) {
      callsByGroup.set(call.group_id, [...(callsByGroup.get(call.group_id) ?? []), call.messages.length]);
    }
    expect(callsByGroup).toEqual(
      new Map([
        ['session-s1', [20, 20, 20, 20, 10]],
        ['workspace-test', [20, 20, 20, 20, 10]],
      ]),
    );
    expect(service.stats().counters.sent).toBe(180);
    expect(service.stats().inFlight).toBe(180);
  });

  it('sends nothing without a connection or with the gate closed, and keeps the messages', async () => {
    const { service, graphiti, connection, gate, outbox } = createIngestionFixture();
    service.enqueue(makeTurn(1));
    connection.client = undefined;
    await service.drain();
    expect(service.stats().blockedReason).toBe('no connection');
    connection.client = graphiti;
    gate.close();
    await service.drain();
    expect(service.stats().blockedReason).toBe('gate closed (no-consent)');
    expect(graphiti.messagesCallCount).toBe(0);
    expect(graphiti.episodeQueries).toHaveLength(0);
    expect(outbox.size()).toBe(2);
    gate.decision = { open: true, endpoint: 'http://127.0.0.1:8000' };
    await service.drain();
    expect(graphiti.messagesCallCount).toBe(1);
    expect(service.stats().blockedReason).toBeUndefined();
  });

  it('retries a 500 and a 429 with backoff, then sends once', async () => {
    const { service, graphiti, clock, telemetry } = createIngestionFixture({
      options: { retryDelayMs: 1000, maxRetryDelayMs: 60_000 },
    });
    graphiti.addMessagesFailures = [
      fakeGraphitiError('server', { status: 500 }),
      fakeGraphitiError('rate-limit', { status: 429, retryAfterMs: 10_000 }),
    ];
    service.enqueue(makeTurn(1));
    await service.drain();
    expect(service.stats()).toMatchObject({ state: 'failing', lastErrorClass: 'GraphitiServerError', inFlight: 0 });
    await service.drain();
    expect(graphiti.messagesCallCount).toBe(1); // still backing off
    await clock.advance(750); // 1000 × (0.5 + 0.5 × 0.5)
    await service.drain();
    expect(graphiti.messagesCallCount).toBe(2);
    await clock.advance(9_999); // Retry-After of 10 s is a floor
    await service.drain();
    expect(graphiti.messagesCallCount).toBe(2);
    await clock.advance(1);
    await service.drain();
    expect(graphiti.messagesCallCount).toBe(3);
    expect(telemetry.ofType('retried').map((event) => [event.attempt, event.errorClass])).toEqual([
      [1, 'GraphitiServerError'],
      [2, 'GraphitiRateLimitError'],
    ]);
    expect(service.stats()).toMatchObject({ state: 'sending', counters: { sent: 2, retried: 2 } });
    expect(graphiti.episodeNames()).toEqual(['test.turn.t1.user', 'test.turn.t1.assistant']);
  });

  it('retryNow ends the backoff at once (the server answered a probe), and the state leaves failing', async () => {
    const { service, graphiti } = createIngestionFixture({ options: { retryDelayMs: 60_000, maxRetryDelayMs: 60_000 } });
    graphiti.addMessagesFailures = [fakeGraphitiError('server', { status: 500 })];
    service.enqueue(makeTurn(1));
    await service.drain();
    expect(service.stats().state).toBe('failing');
    await service.drain();
    expect(graphiti.messagesCallCount).toBe(1); // backing off for a minute
    service.retryNow();
    expect(service.stats().state).toBe('sending');
    await service.drain();
    expect(graphiti.messagesCallCount).toBe(2);
    expect(graphiti.episodeNames()).toEqual(['test.turn.t1.user', 'test.turn.t1.assistant']);
  });

  it('dead-letters a 422 with its reason, sending the rest of the batch one by one', async () => {
    const { service, graphiti, telemetry, outbox } = createIngestionFixture();
    graphiti.invalidMessage = (message) => message.name === 'test.turn.t2.user';
    for (const index of [1, 2, 3]) service.enqueue(makeTurn(index));
    await service.drain();
    expect(graphiti.addMessagesCalls.map((call) => call.messages.length)).toEqual([6, 1, 1, 1, 1, 1, 1]);
    expect(telemetry.ofType('dead-lettered')).toEqual([
      {
        type: 'dead-lettered',
        messages: 1,
        errorClass: 'GraphitiValidationError',
        reason: 'HTTP 422 (validation)',
      },
    ]);
    expect(outbox.droppedByReason['dead-letter']).toBe(1);
    expect(service.stats().counters).toMatchObject({ deadLettered: 1, sent: 5 });
    expect(graphiti.episodeNames()).not.toContain('test.turn.t2.user');
  });

  it('dead-letters what the client refuses before sending (an invalid group id)', async () => {
    const { service, graphiti, outbox } = createIngestionFixture();
    graphiti.addMessagesFailures = [fakeGraphitiError('usage')];
    service.enqueue(makeTurn(1));
    await service.drain();
    expect(outbox.size()).toBe(0);
    expect(service.stats().counters.deadLettered).toBe(2);
  });
});

describe('IngestionService: delivery confirmation', () => {
  it('confirms messages found by name in /episodes, with latency, and only then', async () => {
    const { service, graphiti, clock, telemetry, outbox } = createIngestionFixture();
    graphiti.autoProcess = false;
    service.enqueue(makeTurn(1));
    await service.drain();
    expect(service.stats().counters.confirmed).toBe(0);
    await clock.advance(250);
    await service.drain();
    expect(graphiti.episodeQueries).toEqual([{ groupId: 'session-s1', lastN: 50 }]);
    expect(service.stats().counters.confirmed).toBe(0);
    graphiti.process();
    await clock.advance(499); // the poll delay doubled to 500 ms
    await service.drain();
    expect(graphiti.episodeQueries).toHaveLength(1);
    await clock.advance(1);
    await service.drain();
    expect(telemetry.ofType('confirmed')).toEqual([{ type: 'confirmed', messages: 2, latencyMs: 750 }]);
    expect(outbox.size()).toBe(0);
    expect(service.stats()).toMatchObject({ state: 'idle', counters: { confirmed: 2 }, inFlight: 0 });
  });

  it('reports accepting-not-processing when 202s lead nowhere, then re-sends after a restart and confirms once', async () => {
    const { service, graphiti, clock, telemetry } = createIngestionFixture({
      options: { resendAfterMs: 10_000, maxPollIntervalMs: 1_000 },
    });
    graphiti.killWorker();
    service.enqueue(makeTurn(1));
    await service.drain();
    for (let elapsed = 0; elapsed < 9_000; elapsed += 1_000) {
      await clock.advance(1_000);
      await service.drain();
    }
    expect(service.stats().state).toBe('sending');
    await clock.advance(1_000);
    await service.drain(); // window over, nothing appeared: re-sent into the dead worker
    expect(telemetry.ofType('resent')).toEqual([{ type: 'resent', messages: 2 }]);
    expect(graphiti.messagesCallCount).toBe(2);
    expect(service.stats()).toMatchObject({ state: 'accepting-not-processing', waiting: 2 });

    graphiti.restart();
    // The second resend waits a doubled window (attempt 2).
    for (let elapsed = 0; elapsed < 20_000; elapsed += 1_000) {
      await clock.advance(1_000);
      await service.drain();
    }
    expect(graphiti.messagesCallCount).toBe(3);
    await clock.advance(1_000);
    await service.drain();
    expect(service.stats()).toMatchObject({ state: 'idle', queueDepth: 0, counters: { confirmed: 2, resent: 4 } });
    expect(graphiti.episodeNames()).toEqual(['test.turn.t1.user', 'test.turn.t1.assistant']);
  });

  it('does not re-send while the server shows progress, only once a later message was stored', async () => {
    const { service, graphiti, clock, planner } = createIngestionFixture({
      options: { resendAfterMs: 10_000, maxPollIntervalMs: 1_000 },
    });
    planner.scopes = ['session'];
    graphiti.autoProcess = false;
    service.enqueue(makeTurn(1, 'a'));
    await service.drain();
    graphiti.restart(); // session-a's jobs are lost
    service.enqueue(makeTurn(2, 'b'));
    await clock.advance(1);
    await service.drain();
    // A slow server: session-b's messages are stored after 9 s, session-a's never.
    await clock.advance(9_000);
    graphiti.process();
    await service.drain();
    expect(service.stats().counters.confirmed).toBe(2);
    await clock.advance(998);
    await service.drain();
    expect(service.stats().counters.resent).toBe(0); // window not over yet
    await clock.advance(1_000);
    await service.drain();
    expect(service.stats().counters.resent).toBe(2); // a later send was stored: these were lost
    expect(service.stats().state).not.toBe('accepting-not-processing');
    graphiti.process();
    await clock.advance(1_000);
    await service.drain();
    expect(graphiti.episodeNames('session-a')).toEqual(['test.turn.t1.user', 'test.turn.t1.assistant']);
  });

  it('keeps a timed-out send as sent and finds it instead of sending it twice', async () => {
    const { service, graphiti, clock } = createIngestionFixture();
    graphiti.acceptThenFail = fakeGraphitiError('timeout');
    service.enqueue(makeTurn(1));
    await service.drain();
    expect(service.stats()).toMatchObject({ state: 'failing', inFlight: 2 });
    await clock.advance(1_000);
    await service.drain();
    expect(graphiti.messagesCallCount).toBe(1);
    expect(service.stats()).toMatchObject({ state: 'idle', counters: { confirmed: 2, resent: 0 } });
  });

  it('recovers records already sent (a durable outbox after a crash): found ones are not sent again', async () => {
    const fixture = createIngestionFixture({ options: { resendAfterMs: 5_000, maxPollIntervalMs: 1_000 } });
    const { clock, configuration, graphiti } = fixture;
    const outbox = new InMemoryOutbox(configuration, clock);
    const [storedUser, storedAssistant] = turnMessages(makeTurn(1));
    const [lostUser] = turnMessages(makeTurn(2));
    outbox.append([storedUser!, storedAssistant!, lostUser!].map((message) => ({ groupId: 'session-s1', message })));
    const ids = (await outbox.pending(10)).map((record: OutboxRecord) => record.id);
    outbox.markSent(ids, clock.now() - 60_000); // sent long before the crash
    graphiti.store('session-s1', storedUser!);
    graphiti.store('session-s1', storedAssistant!);

    const { service } = createIngestionFixture({ api: graphiti, outbox, clock, options: { resendAfterMs: 5_000 } });
    service.start();
    await clock.advance(0);
    await service.drain();
    expect(service.stats().counters.confirmed).toBe(2);
    expect(graphiti.messagesCallCount).toBe(0);
    // The lost one waits a window from the start of observation, then is sent again once.
    await clock.advance(4_000);
    expect(graphiti.messagesCallCount).toBe(0);
    await settleWithTime(clock, service.waitForConfirmation({ timeoutMs: 10_000 }));
    expect(graphiti.addMessagesCalls.map((call) => call.messages.map((message) => message.name))).toEqual([
      ['test.turn.t2.user'],
    ]);
    await service.dispose();
  });
});

describe('IngestionService: loop, waiting and disposal', () => {
  it('drains in the background after start and waitForConfirmation reports the outcome', async () => {
    const { service, clock, graphiti } = createIngestionFixture();
    service.start();
    for (let index = 0; index < 3; index++) service.enqueue(makeTurn(index));
    const waiting = service.waitForConfirmation({ timeoutMs: 60_000 });
    expect(await settleWithTime(clock, waiting)).toEqual({ confirmed: 6, pending: 0 });
    expect(graphiti.messagesCallCount).toBe(1);
    await service.dispose();
  });

  it('waitForConfirmation resolves on timeout with what is still pending', async () => {
    const { service, clock, connection } = createIngestionFixture();
    connection.client = undefined;
    service.start();
    service.enqueue(makeTurn(1));
    await service.settled();
    const waiting = service.waitForConfirmation({ timeoutMs: 2_000 });
    await clock.advance(2_000);
    expect(await waiting).toEqual({ confirmed: 0, pending: 2 });
    const aborted = new AbortController();
    aborted.abort();
    expect(await service.waitForConfirmation({ timeoutMs: 2_000, signal: aborted.signal })).toEqual({
      confirmed: 0,
      pending: 2,
    });
    await service.dispose();
  });

  it('dispose closes the storage even when the last flush fails (a full disk), then reports the failure', async () => {
    const { service, outbox, connection } = createIngestionFixture();
    connection.client = undefined;
    service.enqueue(makeTurn(1));
    await service.settled();
    const refused = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    outbox.flush = () => Promise.reject(refused);
    let closed = 0;
    const close = outbox.close.bind(outbox);
    outbox.close = () => {
      closed++;
      return close();
    };
    await expect(service.dispose()).rejects.toBe(refused);
    expect(closed).toBe(1);
  });

  it('dispose appends staged turns and keeps them in the outbox', async () => {
    const { service, outbox, connection } = createIngestionFixture();
    connection.client = undefined;
    service.start();
    service.enqueue(makeTurn(1));
    await service.dispose();
    expect(outbox.size()).toBe(2);
    service.enqueue(makeTurn(2));
    await service.settled();
    expect(outbox.size()).toBe(2);
  });

  it('notifies stats listeners', async () => {
    const { service } = createIngestionFixture();
    const states: string[] = [];
    const subscription = service.onDidChangeStats((stats) => states.push(`${stats.state}:${stats.queueDepth}`));
    service.enqueue(makeTurn(1));
    await service.drain();
    subscription.dispose();
    expect(states).toContain('sending:2');
  });
});
