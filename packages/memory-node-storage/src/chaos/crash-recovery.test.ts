// The promise of the package under fire: child processes enqueue and drain through a shared
// FileOutbox and are SIGKILLed at random points, repeatedly, while the emulator answers 30% of
// requests with errors, hangs some, and loses its worker (then its queue, on restart). A last
// process recovers and drains. Every message must then exist exactly once in the emulator.
import type { ChildProcess } from 'node:child_process';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { exactlyOnce, spawnChaosChild } from '../../test-support/chaos-process.js';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';

const TOTAL = 2_000;

let emulator: RunningEmulator | undefined;
const children: ChildProcess[] = [];

function spawnChild(directory: string, url: string) {
  const run = spawnChaosChild({ directory, url, total: TOTAL });
  children.push(run.child);
  return run;
}

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await emulator?.close();
  emulator = undefined;
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('crash and chaos', () => {
  it(`delivers each of ${TOTAL} messages exactly once through SIGKILLs, faults and a worker death`, async () => {
    const seed = Math.floor(Math.random() * 2 ** 31);
    let dice = seed;
    const random = (): number => {
      dice = (dice * 1_103_515_245 + 12_345) % 2 ** 31;
      return dice / 2 ** 31;
    };
    emulator = await startEmulator({
      processingDelayMs: 1,
      seed,
      faults: {
        messages: { errorRate: 0.3, hangRate: 0.02 },
        episodes: { errorRate: 0.3, hangRate: 0.02 },
      },
    });
    const directory = await temporaryDirectory('chaos-');
    const kills = 7;
    for (let round = 0; round < kills; round++) {
      const run = spawnChild(directory, emulator.url);
      await sleep(500 + random() * 1_500);
      if (round === 2) emulator.killWorker();
      if (round === 4) await emulator.restartServer();
      run.child.kill('SIGKILL');
      await run.exited;
    }
    const last = spawnChild(directory, emulator.url);
    const code = await Promise.race([last.exited, sleep(110_000).then(() => 'timeout' as const)]);
    const done = last.events.find((event) => event.event === 'done');
    expect({ code, done: done !== undefined, seed }, last.stderr).toEqual({ code: 0, done: true, seed });
    emulator.setFaults({});
    await emulator.idle();
    const diagnostics = { workerAlive: emulator.state.workerAlive(), workerError: emulator.state.workerError(), queue: emulator.state.queueLength(), episodes: emulator.state.episodes().length };
    expect(done?.pending, JSON.stringify({ done, diagnostics })).toBe(0);

    const { missing, duplicated } = exactlyOnce(emulator.state.episodes().map((episode) => episode.name), TOTAL);
    expect({ seed, missing: missing.slice(0, 20), missingCount: missing.length, duplicated: duplicated.slice(0, 20), duplicatedCount: duplicated.length }).toEqual({
      seed,
      missing: [],
      missingCount: 0,
      duplicated: [],
      duplicatedCount: 0,
    });
  }, 180_000);
});
