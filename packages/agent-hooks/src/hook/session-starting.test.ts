import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markSessionStarted, markSessionStarting, sessionStartSettled } from './session-starting.js';

let stateDirectory: string;

beforeEach(async () => {
  stateDirectory = await fs.mkdtemp(path.join(os.tmpdir(), 'session-starting-'));
});

afterEach(async () => {
  await fs.rm(stateDirectory, { recursive: true, force: true });
});

/** Whether `promise` settles before `ms` (the waits below are far longer than a settle at once). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
}

describe('a prompt beside a running brief (Copilot CLI runs them at once)', () => {
  it('goes on at once when no brief of its session runs and none is expected', async () => {
    expect(await settlesWithin(sessionStartSettled(stateDirectory, 'session-1', { briefDeadlineMs: 60_000 }), 2_000)).toBe(true);
  });

  it('waits until the brief of its session is done, not for another session’s', async () => {
    const done = await markSessionStarting(stateDirectory, 'session-1');
    expect(await settlesWithin(sessionStartSettled(stateDirectory, 'session-2', { briefDeadlineMs: 60_000 }), 2_000)).toBe(true);
    let settled = false;
    const waiting = sessionStartSettled(stateDirectory, 'session-1', { briefDeadlineMs: 60_000 }).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled).toBe(false);
    await done();
    await waiting;
    expect(settled).toBe(true);
  });

  it('for an assistant that starts them together, waits for a brief that has not begun yet', async () => {
    let settled = false;
    const waiting = sessionStartSettled(stateDirectory, 'session-1', { briefDeadlineMs: 60_000, expectBriefWithinMs: 60_000 }).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled).toBe(false);
    const done = await markSessionStarting(stateDirectory, 'session-1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    await done();
    await waiting;
    expect(settled).toBe(true);
    // The brief is done: the session's later prompts go on at once.
    expect(await settlesWithin(sessionStartSettled(stateDirectory, 'session-1', { briefDeadlineMs: 60_000, expectBriefWithinMs: 60_000 }), 2_000)).toBe(true);
  });

  it('waits no longer than its bounds: a mark left by a crashed brief, a brief that never comes', async () => {
    await markSessionStarting(stateDirectory, 'session-1');
    const later = Date.now() + 60_000;
    expect(await settlesWithin(sessionStartSettled(stateDirectory, 'session-1', { briefDeadlineMs: 3_000, now: () => later }), 2_000)).toBe(true);
    expect(await settlesWithin(sessionStartSettled(stateDirectory, 'session-2', { briefDeadlineMs: 3_000, expectBriefWithinMs: 100 }), 5_000)).toBe(true);
    // A prompt that waited its bound out marks the session started: the next prompt does not wait.
    await markSessionStarted(stateDirectory, 'session-2');
    expect(await settlesWithin(sessionStartSettled(stateDirectory, 'session-2', { briefDeadlineMs: 3_000, expectBriefWithinMs: 60_000 }), 2_000)).toBe(true);
  });
});
