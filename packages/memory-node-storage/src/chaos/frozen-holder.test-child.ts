// A process of the frozen-holder test: opens the outbox folder and holds a lock while the parent
// freezes it (SIGSTOP) past the lock's stale time. Commands arrive as lines on stdin; reports are
// JSON lines on stdout.
//   FROZEN_MODE=journal: admits FROZEN_COUNT messages, reports `ready`, then waits (its journal locked).
//   FROZEN_MODE=admission: takes the admission lock, reports `locked`, and on `go` appends
//   FROZEN_COUNT messages in it (as admission does), flushes, releases and reports `admitted`.
// `stats` reports whether its outbox still holds its journal (not fenced).
import { createInterface } from 'node:readline';
import type { OutboxEntry } from '@graphiti-memory/memory-core';
import { withAdmissionLock } from '../outbox/admission-lock.js';
import { FileOutbox } from '../outbox/file-outbox.js';

const directory = process.env.FROZEN_DIRECTORY ?? '';
const mode = process.env.FROZEN_MODE ?? 'journal';
const count = Number(process.env.FROZEN_COUNT ?? '5');
const FROZEN_TIMING = { staleMs: 2_000, updateMs: 1_000 };

/** As test-support's `entry` (which loads vitest, so a child cannot import it). */
function entry(index: number): OutboxEntry {
  return { groupId: 'group_a', message: { content: `message ${index}`, role_type: 'user', role: null, name: `test.turn.${index}.user` } };
}

function report(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

async function main(): Promise<void> {
  const outbox = await FileOutbox.open({ directory, staleLockMs: FROZEN_TIMING.staleMs, lockUpdateMs: FROZEN_TIMING.updateMs, commitIntervalMs: 5 });
  const entries = Array.from({ length: count }, (_, index) => entry(index));
  const lines = createInterface({ input: process.stdin });
  const next = (): Promise<string> => new Promise((resolve) => lines.once('line', resolve));
  lines.on('line', (line) => {
    if (line === 'stats') void outbox.holdsDrain().then((holds) => report({ event: 'stats', fenced: outbox.stats().fenced, size: outbox.size(), holds }));
  });
  if (mode === 'journal') {
    const admitted = await outbox.admit(entries, outbox.deliveryLedger);
    await outbox.acquireDrain();
    report({ event: 'ready', accepted: admitted.accepted });
  } else {
    await withAdmissionLock(directory, FROZEN_TIMING, async () => {
      report({ event: 'locked' });
      while ((await next()) !== 'go');
      outbox.append(entries);
      await outbox.flush();
    });
    report({ event: 'admitted', size: outbox.size() });
  }
  await new Promise(() => {});
}

void main().catch((error: unknown) => {
  report({ event: 'error', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
