import type { Clock } from '@graphiti-memory/memory-core';
import { sleep } from './sleep.js';

/** The process clock. */
export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleep(ms, signal);
  }
}
