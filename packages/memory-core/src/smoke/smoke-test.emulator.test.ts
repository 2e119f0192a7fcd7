import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../clock/system-clock.js';
import { runSmokeTest } from './smoke-test.js';

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const clock = new SystemClock();
const deletes = (running: RunningEmulator) => running.requests.filter((request) => request.method === 'DELETE').map((request) => request.path);

describe('runSmokeTest', () => {
  it('writes one message to a temporary group, finds it stored, and deletes the group', async () => {
    emulator = await startEmulator({ quiet: true, processingDelayMs: 5 });
    const result = await runSmokeTest(new GraphitiClient({ baseUrl: emulator.url }), { tool: 'graphiti-harness', timeoutMs: 5_000, clock });
    expect(result.groupId).toMatch(/^graphiti-harness-smoke-[0-9a-f]{16}$/);
    expect(result.visibleAfterMs).toBeGreaterThanOrEqual(0);
    expect(result).toMatchObject({ cleanedUp: true, interrupted: false });
    expect(result.failure).toBeUndefined();
    expect(deletes(emulator)).toEqual([`/group/${result.groupId}`]);
  });

  it('says nothing was stored in time when the worker is dead, and still deletes the group', async () => {
    emulator = await startEmulator({ quiet: true, processingDelayMs: 5 });
    emulator.killWorker();
    const result = await runSmokeTest(new GraphitiClient({ baseUrl: emulator.url }), { tool: 'graphiti-memory', timeoutMs: 300, pollIntervalMs: 50, clock });
    expect(result.visibleAfterMs).toBeUndefined();
    expect(result.failure).toBeUndefined();
    expect(result.cleanedUp).toBe(true);
    expect(deletes(emulator)).toEqual([`/group/${result.groupId}`]);
  });

  it('reports a failed write with its step, and stops waiting when aborted', async () => {
    emulator = await startEmulator({ quiet: true, processingDelayMs: 5 });
    const url = emulator.url;
    await emulator.close();
    emulator = undefined;
    const failed = await runSmokeTest(new GraphitiClient({ baseUrl: url, maxRetries: 0 }), { tool: 'graphiti-memory', timeoutMs: 300, clock });
    expect(failed.failure?.step).toBe('write');
    expect(failed.cleanedUp).toBe(false);

    emulator = await startEmulator({ quiet: true, processingDelayMs: 5 });
    emulator.killWorker();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const interrupted = await runSmokeTest(new GraphitiClient({ baseUrl: emulator.url }), { tool: 'graphiti-memory', timeoutMs: 30_000, clock, signal: controller.signal });
    expect(interrupted).toMatchObject({ interrupted: true, visibleAfterMs: undefined, cleanedUp: true });
  });
});
