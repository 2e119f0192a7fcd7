import type { Clock } from '@graphiti-memory/memory-core';

/** The real clock. Timers are unref'd so a pending sleep never keeps the extension host alive. */
export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      timer.unref?.();
      signal?.addEventListener('abort', done, { once: true });
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
    });
  }
}
