// Asynchronous processing, ordering and upstream's silent worker death, over HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from './server.js';
import { get, message, post } from './test-support/http.js';
import type { EmulatorOptions, EpisodeRecord, RunningEmulator } from './types.js';

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  emulator = await startEmulator({ processingDelayMs: 1, ...options });
  return emulator;
}

async function episodes(running: RunningEmulator, groupId: string, lastN = 100): Promise<EpisodeRecord[]> {
  const reply = await get(running.url, `/episodes/${groupId}?last_n=${lastN}`);
  expect(reply.status).toBe(200);
  return reply.body as EpisodeRecord[];
}

describe('asynchronous processing', () => {
  it('accepts with 202 before the episode exists', async () => {
    const running = await start({ processingDelayMs: 60_000 });
    const reply = await post(running.url, '/messages', { group_id: 'g', messages: [message(), message()] });
    expect(reply.status).toBe(202);
    expect(await episodes(running, 'g')).toEqual([]);
    expect(running.state.queueLength()).toBe(2);
  });

  it('processes one message at a time, in order, and idle() waits for the queue', async () => {
    const running = await start({ processingDelayMs: 2 });
    const names = ['m1', 'm2', 'm3', 'm4'];
    await post(running.url, '/messages', { group_id: 'g', messages: names.map((name) => message({ name })) });
    await running.idle();
    expect(running.state.queueLength()).toBe(0);
    expect((await episodes(running, 'g')).map((episode) => episode.name)).toEqual(names);
  });

  it('orders oldest first by valid_at and last_n keeps the newest, still oldest first', async () => {
    const running = await start();
    const at = (minute: number) => `2025-01-01T10:0${minute}:00Z`;
    await post(running.url, '/messages', {
      group_id: 'g',
      messages: [
        message({ name: 'third', timestamp: at(3) }),
        message({ name: 'first', timestamp: at(1) }),
        message({ name: 'second', timestamp: at(2) }),
        message({ name: 'fourth', timestamp: '2025-01-01T11:04:00+01:00' }),
      ],
    });
    await running.idle();
    expect((await episodes(running, 'g')).map((episode) => episode.name)).toEqual(['first', 'second', 'third', 'fourth']);
    expect((await episodes(running, 'g', 2)).map((episode) => episode.name)).toEqual(['third', 'fourth']);
    expect(await episodes(running, 'g', 0)).toEqual([]);
    expect((await episodes(running, 'g'))[3]?.valid_at).toBe('2025-01-01T10:04:00+00:00');
  });

  it('does not return future-timestamped episodes', async () => {
    const running = await start();
    await post(running.url, '/messages', {
      group_id: 'g',
      messages: [message({ name: 'now' }), message({ name: 'future', timestamp: '2999-01-01T00:00:00Z' })],
    });
    await running.idle();
    expect((await episodes(running, 'g')).map((episode) => episode.name)).toEqual(['now']);
    expect(running.state.episodes('g')).toHaveLength(2);
  });

  it('answers [] for a group id outside ^[a-zA-Z0-9_-]+$', async () => {
    const running = await start();
    const reply = await get(running.url, `/episodes/${encodeURIComponent('bad group')}?last_n=5`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([]);
  });
});

describe('silent worker death', () => {
  it('dies on a bad group id; later jobs are accepted but never processed', async () => {
    const running = await start();
    await post(running.url, '/messages', { group_id: 'bad group', messages: [message()] });
    await running.idle();
    expect(running.state.workerAlive()).toBe(false);
    expect(running.state.workerError()).toMatch(/group_id/);
    const later = await post(running.url, '/messages', { group_id: 'good', messages: [message({ name: 'lost' })] });
    expect(later.status).toBe(202);
    await running.idle();
    expect(running.state.queueLength()).toBe(1);
    expect(await episodes(running, 'good')).toEqual([]);
  });

  it('dies on a uuid that is not an existing episode', async () => {
    const running = await start();
    await post(running.url, '/messages', { group_id: 'g', messages: [message({ uuid: 'no-such-episode' })] });
    await running.idle();
    expect(running.state.workerAlive()).toBe(false);
    expect(running.state.workerError()).toContain('no-such-episode');
  });

  it('re-processes an existing episode when given its uuid', async () => {
    const running = await start();
    await post(running.url, '/messages', { group_id: 'g', messages: [message({ content: 'Alice likes tea.' })] });
    await running.idle();
    const [episode] = running.state.episodes('g');
    await post(running.url, '/messages', {
      group_id: 'g',
      messages: [message({ uuid: episode?.uuid, content: 'Bob drinks coffee.' })],
    });
    await running.idle();
    expect(running.state.workerAlive()).toBe(true);
    expect(running.state.episodes('g')).toHaveLength(1);
    expect(running.state.facts('g').map((fact) => fact.fact)).toEqual(['Alice likes tea', 'Bob drinks coffee']);
  });

  it('dies on demand with killWorker(), keeping queued jobs unprocessed', async () => {
    const running = await start({ processingDelayMs: 60_000 });
    await post(running.url, '/messages', { group_id: 'g', messages: [message(), message()] });
    running.killWorker();
    await running.idle();
    expect(running.state.workerAlive()).toBe(false);
    expect(running.state.queueLength()).toBe(1);
  });

  it('restartServer() revives the worker, loses the queue and keeps the data', async () => {
    const running = await start();
    await post(running.url, '/messages', { group_id: 'g', messages: [message({ name: 'kept' })] });
    await running.idle();
    running.killWorker();
    await post(running.url, '/messages', { group_id: 'g', messages: [message({ name: 'lost-in-queue' })] });
    expect(running.state.queueLength()).toBe(1);

    await running.restartServer();
    expect(running.state.workerAlive()).toBe(true);
    expect(running.state.queueLength()).toBe(0);
    await post(running.url, '/messages', { group_id: 'g', messages: [message({ name: 'after-restart' })] });
    await running.idle();
    expect((await episodes(running, 'g')).map((episode) => episode.name)).toEqual(['kept', 'after-restart']);
  });
});
