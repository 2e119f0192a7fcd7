// Issue 15 case 3, with real processes: the lock of a running process's journal is removed while
// it sends; a second process starts on the same folder (and takes the journal over). The first
// must notice before its next request and stop, so every message is stored exactly once.
import type { ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { exactlyOnce, spawnChaosChild } from '../../test-support/chaos-process.js';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';

const TOTAL = 400;

let emulator: RunningEmulator | undefined;
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await emulator?.close();
  emulator = undefined;
});

describe('a lock removed while its holder runs', () => {
  it('stops the holder; the process that takes over delivers each message exactly once', async () => {
    // The first process meets a failing server, so its messages wait (pending) in its journal.
    emulator = await startEmulator({ processingDelayMs: 1, faults: { messages: { errorRate: 1 } } });
    const directory = await temporaryDirectory('lost-lock-');
    const first = spawnChaosChild({ directory, url: emulator.url, total: TOTAL, groups: 2 });
    children.push(first.child);
    const opened = await first.event('opened');
    await first.event('enqueued');
    while (emulator.requests.filter((request) => request.route === 'messages').length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    // Someone removes its locks (the journal's and the drain's) while it runs; a second process takes
    // its journal over, then the server recovers.
    await fs.rm(`${String(opened.journal)}.lock`, { recursive: true, force: true });
    await fs.rm(path.join(directory, 'drain.lock'), { recursive: true, force: true });
    const second = spawnChaosChild({ directory, url: emulator.url, total: TOTAL, groups: 2 });
    children.push(second.child);
    expect((await second.event('opened')).recovery).toMatchObject({ adoptedJournals: 1, adoptedRecords: TOTAL });
    emulator.setFaults({});
    expect(await second.exited, second.stderr).toBe(0);
    const done = second.events.find((event) => event.event === 'done');
    expect(done?.pending, JSON.stringify(done)).toBe(0);
    // The first process keeps running a while: it must not send what the second one delivered.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    first.child.kill('SIGKILL');
    await first.exited;
    await emulator.idle();

    const { missing, duplicated } = exactlyOnce(emulator.state.episodes().map((episode) => episode.name), TOTAL);
    expect({ missing, duplicated }).toEqual({ missing: [], duplicated: [] });
  }, 120_000);
});
