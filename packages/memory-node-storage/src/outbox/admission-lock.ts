// Admission (ledger check + append) is serialised across the processes of an outbox folder by
// `admit.lock`: short, retried while its holder lives (however long it stalls: a lock taken from a
// live holder let two processes admit the same messages), taken at once when its holder died.
import path from 'node:path';
import { lockWithin, type LockTiming } from './file-locks.js';

const ADMIT_LOCK_TARGET = 'admit';

export async function withAdmissionLock<T>(directory: string, timing: LockTiming, work: () => Promise<T>): Promise<T> {
  const lock = await lockWithin(path.join(directory, ADMIT_LOCK_TARGET), timing, timing.staleMs * 3);
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
