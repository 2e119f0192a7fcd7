// Waiting for ingestion with a progress bar: until every message is sent (accepted by Graphiti),
// or until every message is confirmed stored (found through /episodes). Always bounded: by the
// caller's deadline and by Ctrl-C.
import type { Ingestion, IngestionStats } from '@graphiti-memory/memory-core';
import type { Output } from '../terminal/output.js';
import type { Terminal } from '../terminal/terminal.js';
import { SystemClock } from '@graphiti-memory/memory-core';

export interface DeliveryWait {
  /** `sent`: until nothing is pending (accepted by the server); `confirmed`: until nothing waits at all. */
  readonly until: 'sent' | 'confirmed';
  readonly timeoutMs: number;
  readonly output: Output;
  readonly terminal: Terminal;
}

export interface DeliveryOutcome {
  /** Everything reached the state waited for. */
  readonly complete: boolean;
  readonly interrupted: boolean;
  readonly timedOut: boolean;
  readonly stats: IngestionStats;
}

const STATS_POLL_MS = 100;

export async function waitForDelivery(ingestion: Ingestion, wait: DeliveryWait): Promise<DeliveryOutcome> {
  await ingestion.settled();
  const interrupted = new AbortController();
  const interruption = wait.terminal.onInterrupt(() => interrupted.abort());
  const startStats = ingestion.stats();
  const total = Math.max(1, startStats.queueDepth);
  const progress = wait.output.progress(wait.until === 'confirmed' ? 'confirming' : 'sending', total);
  const update = (stats: IngestionStats): void => {
    const left = wait.until === 'confirmed' ? stats.queueDepth : stats.queueDepth - stats.inFlight;
    progress.update(Math.max(0, total - left));
  };
  const subscription = ingestion.onDidChangeStats(update);
  const deadline = Date.now() + wait.timeoutMs;
  try {
    if (wait.until === 'confirmed') {
      await ingestion.waitForConfirmation({ timeoutMs: wait.timeoutMs, signal: interrupted.signal });
    } else {
      ingestion.drain().catch(() => undefined);
      while (!interrupted.signal.aborted && Date.now() < deadline && !isDone(ingestion.stats(), 'sent')) {
        await new SystemClock().sleep(Math.min(STATS_POLL_MS, deadline - Date.now()), interrupted.signal);
      }
    }
  } finally {
    subscription.dispose();
    interruption.dispose();
    update(ingestion.stats());
    progress.stop();
  }
  const stats = ingestion.stats();
  const complete = isDone(stats, wait.until);
  return { complete, interrupted: interrupted.signal.aborted, timedOut: !complete && !interrupted.signal.aborted, stats };
}

function isDone(stats: IngestionStats, until: DeliveryWait['until']): boolean {
  if (stats.staged > 0) return false;
  // A POST still under way has not been accepted: not sent yet, whichever pass runs it.
  return until === 'confirmed' ? stats.queueDepth === 0 : stats.queueDepth - stats.inFlight === 0 && stats.sending === 0;
}

/** `{ enqueued, sent, confirmed, dropped, deadLettered }` of `--json`, plus what is still waiting. */
export function deliveryCounts(stats: IngestionStats) {
  const { enqueued, sent, confirmed, dropped, deadLettered, duplicates, resent } = stats.counters;
  return { enqueued, sent, confirmed, dropped, deadLettered, duplicates, resent, waiting: stats.queueDepth };
}
