// The wall clock: `Date.now` and `setTimeout`, both of which every JavaScript host has, so the
// one implementation serves the extension, the harness and the hooks.
import type { Clock } from '../ports.js';

export interface SystemClockOptions {
  /**
   * Unref each sleep's timer where the host supports it (Node), so a pending sleep (a retry's
   * backoff) never keeps a long-lived host alive on its own. Leave it off in a CLI, where a
   * command awaiting a sleep must not see the process exit under it. Default: off.
   */
  readonly unrefTimers?: boolean;
}

export class SystemClock implements Clock {
  private readonly unrefTimers: boolean;

  constructor(options: SystemClockOptions = {}) {
    this.unrefTimers = options.unrefTimers ?? false;
  }

  now(): number {
    return Date.now();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted === true || ms <= 0) {
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      // Feature-detected: a browser's timer is a number without `unref`.
      if (this.unrefTimers) (timer as { unref?: () => void }).unref?.();
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
