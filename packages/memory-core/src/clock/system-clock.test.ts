import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SystemClock } from './system-clock.js';

describe('SystemClock', () => {
  it('tells the wall-clock time', () => {
    const before = Date.now();
    const now = new SystemClock().now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('sleeps for about the time asked', async () => {
    const clock = new SystemClock();
    const start = performance.now();
    await clock.sleep(40);
    expect(performance.now() - start).toBeGreaterThanOrEqual(35);
  });

  it('resolves early, without rejecting, when the signal aborts, and at once when already aborted', async () => {
    const clock = new SystemClock();
    const controller = new AbortController();
    const start = performance.now();
    const sleeping = clock.sleep(10_000, controller.signal);
    setTimeout(() => controller.abort(), 20);
    await expect(sleeping).resolves.toBeUndefined();
    expect(performance.now() - start).toBeLessThan(5_000);
    await expect(clock.sleep(10_000, AbortSignal.abort())).resolves.toBeUndefined();
    expect(performance.now() - start).toBeLessThan(5_000);
  });

  // A child process shows the difference: only an unref'd sleep lets the process exit under it.
  it.each([
    [false, 'sleep done'],
    [true, ''],
  ])('with unrefTimers %s, a pending sleep keeps the process alive: %j', (unrefTimers, printed) => {
    const script = `
      import { SystemClock } from ${JSON.stringify(new URL('./system-clock.ts', import.meta.url).href)};
      new SystemClock({ unrefTimers: ${unrefTimers} }).sleep(300).then(() => console.log('sleep done'));
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe(printed);
  });
});
