// A process of the chaos test: opens the shared FileOutbox folder, re-enqueues every message of
// the run (as a restarted capture re-reads a transcript: the ledger must drop what was accepted
// before), drains through memory-core's IngestionService against the emulator, and reports on
// stdout. The parent kills it with SIGKILL at random points; only the last one runs to the end.
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { IngestionService, openedIngestionStorage, type OutboxEntry } from '@graphiti-memory/memory-core';
import { FileOutbox } from '../outbox/file-outbox.js';

type IngestionArguments = ConstructorParameters<typeof IngestionService>;

const directory = requiredEnvironment('CHAOS_DIRECTORY');
const url = requiredEnvironment('CHAOS_URL');
const total = Number(requiredEnvironment('CHAOS_TOTAL'));
const groups = Number(process.env.CHAOS_GROUPS ?? '4');

function requiredEnvironment(name: string): string {
  const value = process.env[name];
  if (value === undefined) throw new Error(`chaos-child: set ${name}`);
  return value;
}

function report(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

export function chaosEntry(index: number): OutboxEntry {
  return {
    groupId: `chaos_group_${index % groups}`,
    message: {
      content: `Chaos message number ${index}.`,
      role_type: 'user',
      role: null,
      name: `chaos.turn.${index}.user`,
      timestamp: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(),
    },
  };
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

async function main(): Promise<void> {
  const outbox = await FileOutbox.open({
    directory,
    staleLockMs: 2_000,
    lockUpdateMs: 1_000,
    commitIntervalMs: 10,
    compactMinLines: 500,
    adoptIntervalMs: 300,
    drainIdleReleaseMs: 3_000,
    maxQueueSize: 1_000_000,
  });
  report({ event: 'opened', recovery: outbox.recovery(), size: outbox.size(), journal: outbox.stats().journalPath });
  const client = new GraphitiClient({ baseUrl: url, timeoutMs: 1_000, maxRetries: 0 });
  // Bounded delivery is not under test here: exactly-once is (a message may meet many faults).
  const settings = { enabled: true, endpoint: url, timeoutMs: 1_000, maxBatchSize: 25, maxQueueSize: 1_000_000, maxAttempts: 1_000, maxAgeHours: 72 };
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  // The planner is not used: messages arrive ready through enqueueEntries (ledger-deduplicated all the same).
  const service = new IngestionService(
    { plan: async () => [] },
    openedIngestionStorage(outbox, outbox.deliveryLedger),
    { current: () => client },
    { evaluate: () => ({ open: true, endpoint: url }) },
    // Only the fields ingestion reads; the rest of MemorySettings does not matter here.
    { current: () => settings, problems: () => [], onDidChange: () => ({ dispose() {} }) } as unknown as IngestionArguments[4],
    { now: () => Date.now(), sleep },
    quiet,
    { emit() {} },
    { resendAfterMs: 2_500, pollIntervalMs: 50, maxPollIntervalMs: 300, retryDelayMs: 20, maxRetryDelayMs: 200, idleRecheckMs: 100 },
  );
  service.start();
  for (let start = 0; start < total; start += 40) {
    service.enqueueEntries(Array.from({ length: Math.min(40, total - start) }, (_, offset) => chaosEntry(start + offset)));
    await sleep(2);
  }
  await service.settled();
  await outbox.flush();
  report({ event: 'enqueued', size: outbox.size() });
  // Journals of killed processes become adoptable once their locks are stale (2 s here).
  for (let waited = 0; (await outbox.otherJournalCount()) > 0 && waited < 10_000; waited += 200) {
    await outbox.adoptOrphans();
    await sleep(200);
  }
  // Generous: on a loaded 2-core machine a run with an unlucky seed needs ~45 s to confirm all.
  const result = await service.waitForConfirmation({ timeoutMs: 100_000 });
  await service.dispose();
  await outbox.close();
  await client.close();
  report({ event: 'done', confirmed: result.confirmed, pending: result.pending, stats: outbox.stats(), recovery: outbox.recovery() });
}

main().catch((error: unknown) => {
  report({ event: 'failed', error: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
});
