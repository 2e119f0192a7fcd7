// Issue 13's bounded delivery and forget support, at the level of the service: dead letters after
// `maxAttempts` failed sends or past `maxAgeHours`, retry and drop, offered-but-unsent given back,
// and forgetting what is still queued for a set of groups.
import { describe, expect, it } from 'vitest';
import { createIngestionFixture, fakeGraphitiError, makeTurn } from '../../test-support/ingestion.js';

describe('IngestionService: bounded delivery', () => {
  it('dead-letters a message after maxAttempts failed sends, with its last error, and stops sending it', async () => {
    const { service, graphiti, clock, outbox } = createIngestionFixture({ settings: { maxAttempts: 2 } });
    graphiti.addMessagesFailures = [fakeGraphitiError('server', { status: 500 }), fakeGraphitiError('server', { status: 500 })];
    service.enqueue(makeTurn(1));
    await service.drain();
    expect(service.stats()).toMatchObject({ deadLetters: 0, queueDepth: 2 });
    await clock.advance(60_000);
    await service.drain();
    expect(graphiti.addMessagesCalls.length).toBe(2);
    expect(service.stats()).toMatchObject({ deadLetters: 2, queueDepth: 0, counters: { deadLettered: 2 } });
    expect(service.deadLetters().map((letter) => [letter.name, letter.attempts, letter.lastError])).toEqual([
      ['test.turn.t1.user', 2, 'failed 2 times, last: HTTP 500 (server)'],
      ['test.turn.t1.assistant', 2, 'failed 2 times, last: HTTP 500 (server)'],
    ]);
    await clock.advance(60_000);
    await service.drain();
    expect(graphiti.addMessagesCalls.length).toBe(2);
    expect(outbox.size()).toBe(0);
  });

  it('retries dead letters with fresh attempts, and drops them for good', async () => {
    const { service, graphiti, clock } = createIngestionFixture({ settings: { maxAttempts: 1 } });
    graphiti.addMessagesFailures = [fakeGraphitiError('server', { status: 503 })];
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
