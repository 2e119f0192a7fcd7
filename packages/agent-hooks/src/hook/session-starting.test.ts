import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markSessionStarting, sessionStartSettled } from './session-starting.js';

let stateDirectory: string;

beforeEach(async () => {
  stateDirectory = await fs.mkdtemp(path.join(os.tmpdir(), 'session-starting-'));
});

afterEach(async () => {
  await fs.rm(stateDirectory, { recursive: true, force: true });
});

describe('a prompt beside a running brief (Copilot CLI runs them at once)', () => {
  it('goes on at once when no brief of its session runs', async () => {
    let settled = false;
    await sessionStartSettled(stateDirectory, 'session-1', 60_000).then(() => (settled = true));
    expect(settled).toBe(true);
  });

  it('waits until the brief of its session is done, not for another session’s', async () => {
    const cleared = await markSessionStarting(stateDirectory, 'session-1');
    await expect(Promise.race([sessionStartSettled(stateDirectory, 'session-2', 60_000).then(() => 'other session: at once'), new Promise((resolve) => setTimeout(() => resolve('waited'), 2_000))])).resolves.toBe('other session: at once');
    let settled = false;
    const waiting = sessionStartSettled(stateDirectory, 'session-1', 60_000).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled).toBe(false);
    await cleared();
    await waiting;
    expect(settled).toBe(true);
  });

  it('waits no longer than the brief’s own deadline: a mark left by a crashed brief holds nobody', async () => {
    await markSessionStarting(stateDirectory, 'session-1');
    const later = Date.now() + 60_000;
    let settled = false;
    await sessionStartSettled(stateDirectory, 'session-1', 3_000, () => later).then(() => (settled = true));
    expect(settled).toBe(true);
  });
});
