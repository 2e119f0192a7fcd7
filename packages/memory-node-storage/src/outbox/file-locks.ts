// Cross-process locks through proper-lockfile: a lock is a `<target>.lock` directory whose mtime
// the holder refreshes every `updateMs`; a lock not refreshed for `staleMs` (its holder died or
// hung) is taken over. Pure JavaScript, works on every platform and on network drives.
import { promises as fs } from 'node:fs';
import lockfile from 'proper-lockfile';

export interface LockTiming {
  readonly staleMs: number;
  readonly updateMs: number;
}

export interface HeldLock {
  release(): Promise<void>;
  /** Set when the lock was lost (not refreshed in time and taken by another process). */
  readonly compromised: boolean;
  /**
   * Checks now, not at the next refresh, that the lock folder is still the one this process
   * created (a removed or re-created folder has another inode). Marks the lock compromised if not.
   */
  verify(): Promise<boolean>;
}

/** Tries once to take the lock of `target`; `undefined` when another live process holds it. */
export async function tryLock(target: string, timing: LockTiming, onCompromised: (error: Error) => void): Promise<HeldLock | undefined> {
  const state = { compromised: false, released: false };
  try {
    const release = await lockfile.lock(target, {
      realpath: false,
      lockfilePath: `${target}.lock`,
      stale: timing.staleMs,
      update: timing.updateMs,
      retries: 0,
      onCompromised: (error) => {
        state.compromised = true;
        onCompromised(error);
      },
    });
    const lockPath = `${target}.lock`;
    // The inode and the birth time: a lock folder removed and made again often gets the same inode.
    const made = await fs.stat(lockPath);
    const sameFolder = (current: { ino: number; birthtimeMs: number }): boolean => current.ino === made.ino && current.birthtimeMs === made.birthtimeMs;
    return {
      get compromised() {
        return state.compromised;
      },
      verify: async () => {
        if (state.compromised || state.released) return false;
        const current = await fs.stat(lockPath).catch(() => undefined);
        if (current !== undefined && sameFolder(current)) return true;
        if (!state.compromised) {
          state.compromised = true;
          onCompromised(Object.assign(new Error(`The lock ${lockPath} was removed or replaced by another process.`), { code: 'ECOMPROMISED' }));
        }
        return false;
      },
      release: async () => {
        if (state.released) return;
        state.released = true;
        if (state.compromised) return;
        await release().catch(() => undefined);
      },
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw error;
  }
}
