// Releasing a lock removes its folder whatever it holds: the owner file alone (the common case,
// removed without a recursive walk) or a taker's marker beside it.
import { spawnSync } from 'node:child_process';
import { promises as fs, promises } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tryLock } from './file-locks.js';

const TIMING = { staleMs: 10_000, updateMs: 5_000 };
let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'file-locks-'));
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('a released lock', () => {
  it('leaves nothing behind, and the next process takes the lock at once', async () => {
    const target = path.join(root, 'state.json');
    const first = await tryLock(target, TIMING, () => {});
    expect(await fs.readdir(root)).toEqual(['state.json.lock']);
    await first?.release();
    expect(await fs.readdir(root)).toEqual([]);
    const second = await tryLock(target, TIMING, () => {});
    expect(second).toBeDefined();
    await second?.release();
  });

  it("leaves nothing behind after a takeover, whose marker shares the folder with the owner file", async () => {
    const target = path.join(root, 'state.json');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    await fs.mkdir(`${target}.lock`);
    await fs.writeFile(path.join(`${target}.lock`, 'owner'), JSON.stringify({ host: os.hostname(), pid: dead, nonce: 'dead-owner' }));
    const lock = await tryLock(target, TIMING, () => {});
    expect(lock).toBeDefined();
    expect((await fs.readdir(`${target}.lock`)).sort()).toEqual(['owner', 'taken-dead-owner']);
    await lock?.release();
    expect(await fs.readdir(root)).toEqual([]);
  });
});

describe('a takeover', () => {
  it('leaves alone a lock that changed hands between reading its dead owner and taking it', async () => {
    const target = path.join(root, 'state.json');
    const lockPath = `${target}.lock`;
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    await fs.mkdir(lockPath);
    await fs.writeFile(path.join(lockPath, 'owner'), JSON.stringify({ host: os.hostname(), pid: dead, nonce: 'dead-owner' }));
    // A live holder of this process (its nonce counts as held), as tryLock records it.
    const held = (globalThis as Record<symbol, unknown>)[Symbol.for('graphiti-memory.held-locks')] as Set<string>;
    const writeFile = promises.writeFile.bind(promises);
    const spy = vi.spyOn(promises, 'writeFile').mockImplementation(async (file, ...rest) => {
      if (String(file).endsWith('taken-dead-owner')) {
        spy.mockRestore();
        // Just before the marker: the dead owner's lock is cleared and a live process takes the path.
        await fs.rm(lockPath, { recursive: true });
        await fs.mkdir(lockPath);
        await writeFile(path.join(lockPath, 'owner'), JSON.stringify({ host: os.hostname(), pid: process.pid, nonce: 'live-holder' }));
        held.add('live-holder');
      }
      return writeFile(file, ...(rest as [string]));
    });
    try {
      expect(await tryLock(target, TIMING, () => {})).toBeUndefined();
      expect(JSON.parse(await fs.readFile(path.join(lockPath, 'owner'), 'utf8'))).toMatchObject({ nonce: 'live-holder' });
      expect(await fs.readdir(lockPath)).toEqual(['owner']);
    } finally {
      spy.mockRestore();
      held.delete('live-holder');
    }
  });
});
