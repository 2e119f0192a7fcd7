// A run killed mid-way leaves its outbox journal behind, locked until the lock goes stale. The
// next run takes its records over before it starts, so "run it again" sends what never got
// through rather than finishing early with the records still stranded in the old journal.
import { SystemClock } from '@graphiti-memory/memory-core';
import type { FileOutbox } from '@graphiti-memory/memory-node-storage';

/** Lock staleness of the harness's outbox: short, since a harness run is short-lived. */
export const OUTBOX_STALE_LOCK_MS = 3_000;

/** Adopts journals of other (dead) runs; waits at most a little longer than a lock takes to go stale. */
export async function adoptLeftoverJournals(outbox: FileOutbox, staleMs = OUTBOX_STALE_LOCK_MS): Promise<void> {
  const clock = new SystemClock();
  const deadline = clock.now() + staleMs + 1_500;
  for (;;) {
    if ((await outbox.otherJournalCount()) === 0 || clock.now() >= deadline) return;
    await outbox.adoptOrphans();
    await clock.sleep(250);
  }
}
