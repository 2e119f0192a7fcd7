// A run killed mid-way leaves its outbox journal behind, locked until the lock goes stale. The
// next run takes its records over before it starts, so "run it again" sends what never got
// through rather than finishing early with the records still stranded in the old journal.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { FileOutbox } from '@graphiti-memory/memory-node-storage';
import { sleep } from './sleep.js';

/** Lock staleness of the harness's outbox: short, since a harness run is short-lived. */
export const OUTBOX_STALE_LOCK_MS = 3_000;
const JOURNAL_FILE = /^outbox-.+\.journal$/;

/** Adopts journals of other (dead) runs; waits at most a little longer than a lock takes to go stale. */
export async function adoptLeftoverJournals(outbox: FileOutbox, directory: string, staleMs = OUTBOX_STALE_LOCK_MS): Promise<void> {
  const own = path.basename(outbox.stats().journalPath);
  const deadline = Date.now() + staleMs + 1_500;
  for (;;) {
    const others = (await fs.readdir(directory).catch(() => [] as string[])).filter((name) => JOURNAL_FILE.test(name) && name !== own);
    if (others.length === 0 || Date.now() >= deadline) return;
    await outbox.adoptOrphans();
    await sleep(250);
  }
}
