// Admission (ledger check + append) is serialised across the processes of an outbox folder by
// `admit.lock`: short, retried long enough for a lock left by a killed process to turn stale.
import path from 'node:path';
import lockfile from 'proper-lockfile';
import type { LockTiming } from './file-locks.js';

const ADMIT_LOCK_TARGET = 'admit';

export async function withAdmissionLock<T>(directory: string, timing: LockTiming, work: () => Promise<T>): Promise<T> {
  const release = await lockfile.lock(path.join(directory, ADMIT_LOCK_TARGET), {
    realpath: false,
    lockfilePath: path.join(directory, `${ADMIT_LOCK_TARGET}.lock`),
    stale: timing.staleMs,
    update: timing.updateMs,
    retries: { retries: Math.ceil((timing.staleMs * 3) / 100), minTimeout: 5, maxTimeout: 100 },
  });
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}
