import { afterEach, describe, expect, it } from 'vitest';
import { FaultInjector } from './faults.js';
import { startEmulator } from './server.js';
import { get, message, post } from './test-support/http.js';
import type { EmulatorOptions, RunningEmulator } from './types.js';

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(options: EmulatorOptions): Promise<RunningEmulator> {
  emulator = await startEmulator({ processingDelayMs: 1, ...options });
  return emulator;
}

describe('FaultInjector', () => {
  it('replays the same faults for the same seed', () => {
    const plan = { '*': { errorRate: 0.3, hangRate: 0.2, resetRate: 0.1 } };
    const roll = (seed: number) => {
      const injector = new FaultInjector(plan, seed);
      return Array.from({ length: 50 }, () => injector.decide('search').fault);
    };
    expect(roll(42)).toEqual(roll(42));
    expect(roll(42)).not.toEqual(roll(43));
    expect(new Set(roll(42))).toEqual(new Set([null, 'error', 'hang', 'reset']));
  });

  it('lets a route override "*" field by field', () => {
    const injector = new FaultInjector({ '*': { latencyMs: 5, errorRate: 1 }, search: { errorRate: 0 } }, 1);
    expect(injector.decide('search')).toMatchObject({ latencyMs: 5, fault: null });
    expect(injector.decide('messages')).toMatchObject({ latencyMs: 5, fault: 'error', errorStatus: 500 });
    expect(injector.decide(null)).toMatchObject({ fault: 'error' });
  });
});

describe('faults over HTTP', () => {
  it('answers the configured error status with Retry-After, per route', async () => {
    const running = await start({ faults: { search: { errorRate: 1, errorStatus: 429, retryAfterSeconds: 7 } } });
    const limited = await post(running.url, '/search', { group_ids: null, query: 'tea' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.body).toEqual({ detail: 'Too Many Requests' });
    expect((await get(running.url, '/healthcheck')).status).toBe(200);
  });

  it('injects a plain-text 500 by default and does not run the route', async () => {
    const running = await start({ faults: { messages: { errorRate: 1 } } });
    const reply = await post(running.url, '/messages', { group_id: 'g', messages: [message()] });
    expect(reply.status).toBe(500);
    expect(reply.text).toBe('Internal Server Error');
    expect(running.state.queueLength()).toBe(0);
  });

  it('gives the same statuses for the same seed over HTTP', async () => {
    const statuses = async (seed: number) => {
      const running = await startEmulator({ seed, faults: { healthcheck: { errorRate: 0.5, errorStatus: 502 } } });
      try {
        const replies = [];
        for (let index = 0; index < 20; index++) replies.push((await get(running.url, '/healthcheck')).status);
        return replies;
      } finally {
        await running.close();
      }
    };
    const first = await statuses(7);
    expect(first).toEqual(await statuses(7));
    expect(new Set(first)).toEqual(new Set([200, 502]));
  });

  it('setFaults() changes the plan at run time', async () => {
    const running = await start({});
    running.setFaults({ '*': { errorRate: 1, errorStatus: 503 } });
    expect((await get(running.url, '/healthcheck')).status).toBe(503);
    running.setFaults({});
    expect((await get(running.url, '/healthcheck')).status).toBe(200);
  });

  it('adds latency before answering', async () => {
    const running = await start({ faults: { healthcheck: { latencyMs: 150 } } });
    const started = performance.now();
    expect((await get(running.url, '/healthcheck')).status).toBe(200);
    // A lower bound only: the answer cannot come before the injected delay.
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('resets the connection without an answer', async () => {
    const running = await start({ faults: { healthcheck: { resetRate: 1 } } });
    await expect(get(running.url, '/healthcheck')).rejects.toThrow(TypeError);
    expect(running.requests.at(-1)).toMatchObject({ route: 'healthcheck', status: 0, fault: 'reset' });
  });

  it('hangs until close(), which ends the hung request', async () => {
    const running = await start({ faults: { search: { hangRate: 1 } } });
    const hung = post(running.url, '/search', { group_ids: null, query: 'tea' });
    const outcome = hung.then(
      () => 'answered',
      () => 'failed',
    );
    await waitFor(() => running.requests.length === 1);
    expect(running.requests[0]).toMatchObject({ route: 'search', status: 0, fault: 'hang' });
    const raced = await Promise.race([outcome, new Promise((resolve) => setTimeout(() => resolve('pending'), 100))]);
    expect(raced).toBe('pending');
    await running.close();
    expect(await outcome).toBe('failed');
  });

  it('an aborted client does not keep a hung request from closing', async () => {
    const running = await start({ faults: { '*': { hangRate: 1 } } });
    const controller = new AbortController();
    const hung = get(running.url, '/healthcheck', controller.signal);
    await waitFor(() => running.requests.length === 1);
    controller.abort();
    await expect(hung).rejects.toThrow();
    await running.close();
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}
