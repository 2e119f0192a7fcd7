// The right to send for a shared outbox folder: one process at a time holds `drain.lock`. Taken
// when a pass starts, released when passes stop for `idleReleaseMs`, handed over after `leaseMs`
// when other journals wait, and verified on disk before each request.
import path from 'node:path';
import type { Logger } from '@graphiti-memory/memory-core';
import { tryLock, type HeldLock, type LockTiming } from './file-locks.js';

const DRAIN_LOCK_TARGET = 'drain';

export interface DrainLease {
  /** Takes (or keeps) the lease; `false` when another process holds it or it was just handed over. */
  acquire(): Promise<boolean>;
  /** Whether the lease is still this process's, checked on disk now. */
  holds(): Promise<boolean>;
  release(): Promise<void>;
  readonly held: boolean;
}

export interface DrainLeaseOptions {
  readonly leaseMs: number;
  readonly idleReleaseMs: number;
  readonly now: () => number;
  /** Whether journals of other processes hold records (then the lease is handed over). */
  readonly othersWaiting: () => Promise<boolean>;
  readonly logger?: Logger;
}

export class FileDrainLease implements DrainLease {
  #lock: HeldLock | undefined;
  #heldSince = 0;
  #cooldownUntil = 0;
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly directory: string,
    private readonly timing: LockTiming,
    private readonly options: DrainLeaseOptions,
  ) {}

  get held(): boolean {
    return this.#lock !== undefined;
  }

  async acquire(): Promise<boolean> {
    const now = this.options.now();
    if (this.#lock?.compromised === true) this.#lock = undefined;
    if (this.#lock !== undefined) {
      if (now - this.#heldSince > this.options.leaseMs && (await this.options.othersWaiting())) {
        // Hand over: other processes drain only their own journals, and only while holding this lock.
        await this.release();
        this.#cooldownUntil = now + this.timing.updateMs * 2;
        return false;
      }
    } else {
      if (now < this.#cooldownUntil) return false;
      const lock = await tryLock(path.join(this.directory, DRAIN_LOCK_TARGET), this.timing, (error) => {
        this.options.logger?.warn('outbox drain lock lost', { code: (error as NodeJS.ErrnoException).code ?? error.name });
      });
      if (lock === undefined) return false;
      this.#lock = lock;
      this.#heldSince = now;
    }
    this.#armIdleRelease();
    return true;
  }

  async holds(): Promise<boolean> {
    if (this.#lock === undefined) return false;
    if (await this.#lock.verify()) return true;
    this.#lock = undefined;
    return false;
  }

  async release(): Promise<void> {
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    const lock = this.#lock;
    this.#lock = undefined;
    await lock?.release();
  }

  #armIdleRelease(): void {
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      void this.release();
    }, this.options.idleReleaseMs);
    this.#idleTimer.unref();
  }
}
