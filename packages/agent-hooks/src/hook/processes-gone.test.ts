import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processAlive, waitUntilGone } from './processes-gone.js';

describe('waitUntilGone', () => {
  it('returns true once a process that was running has left', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 300)'], { stdio: 'ignore' });
    const pid = child.pid ?? -1;
    expect(processAlive(pid)).toBe(true);
    expect(await waitUntilGone([pid], 10_000)).toBe(true);
    expect(processAlive(pid)).toBe(false);
  });

  it('returns false after about the timeout while one of them still runs', async () => {
    const started = Date.now();
    expect(await waitUntilGone([process.pid], 200)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
