// Measurements of the durable outbox: append latency against memory-core's InMemoryOutbox in the
// same run, sustained appends per second through journal + group commit, and journal size and
// RSS over 100 000 appends with the queue capped (they must stay flat after compaction).
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { InMemoryOutbox, type Outbox, type OutboxEntry } from '@graphiti-memory/memory-core';
import { FileOutbox } from '@graphiti-memory/memory-node-storage';
import { benchResult, percentile, round, type BenchResult } from '../bench-result.js';

function benchEntry(index: number): OutboxEntry {
  return {
    groupId: `bench_group_${index % 3}`,
    message: {
      content: `A finished chat turn of ordinary length, number ${index}, with some words in it to serialise.`,
      role_type: 'user',
      role: null,
      name: `bench.turn.${index}.user`,
      timestamp: '2026-01-01T00:00:00.000Z',
    },
  };
}

async function temporaryFolder(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'storage-bench-'));
}

function createInMemoryOutbox(maxQueueSize: number): Outbox {
  return new InMemoryOutbox({ current: () => ({ maxQueueSize }) }, { now: () => Date.now() });
}

/** Times single appends (nanoseconds), yielding to the event loop as a chat host would between turns. */
async function timeAppends(outbox: Outbox, start: number, count: number, samples: number[]): Promise<void> {
  for (let index = start; index < start + count; index++) {
    const entry = [benchEntry(index)];
    const before = process.hrtime.bigint();
    outbox.append(entry);
    samples.push(Number(process.hrtime.bigint() - before));
    if (index % 50 === 0) await yieldToEventLoop();
  }
}

export async function measureEnqueueLatency(options: { appends?: number } = {}): Promise<BenchResult> {
  const appends = options.appends ?? 50_000;
  const directory = await temporaryFolder();
  const file = await FileOutbox.open({ directory, maxQueueSize: 10_000 });
  const memory = createInMemoryOutbox(10_000);
  const fileSamples: number[] = [];
  const memorySamples: number[] = [];
  // Warm up both, then interleave rounds so garbage collection and JIT hit both alike.
  await timeAppends(file, 0, 2_000, []);
  await timeAppends(memory, 0, 2_000, []);
  const roundSize = 1_000;
  for (let done = 0; done < appends; done += roundSize) {
    await timeAppends(file, 10_000 + done, roundSize, fileSamples);
    await timeAppends(memory, 10_000 + done, roundSize, memorySamples);
  }
  await file.close();
  await fs.rm(directory, { recursive: true, force: true });
  fileSamples.sort((left, right) => left - right);
  memorySamples.sort((left, right) => left - right);
  const fileP99 = percentile(fileSamples, 0.99) / 1_000;
  const memoryP99 = percentile(memorySamples, 0.99) / 1_000;
  return benchResult({
    name: 'storage.enqueue.p99_ratio',
    value: fileP99,
    baseline: memoryP99,
    unit: 'µs (p99 append)',
    goal: 2,
    details: {
      fileP50Microseconds: round(percentile(fileSamples, 0.5) / 1_000),
      memoryP50Microseconds: round(percentile(memorySamples, 0.5) / 1_000),
      p50Ratio: round(percentile(fileSamples, 0.5) / percentile(memorySamples, 0.5)),
      appends,
    },
  });
}

/**
 * Appends per second made durable: batches of appends with the sender confirming behind them,
 * ending with `flush`. The floor (1 000/s) is far above what chat produces; the ratio is floor ÷ measured.
 */
export async function measureSustainedThroughput(options: { turns?: number } = {}): Promise<BenchResult> {
  const turns = options.turns ?? 100_000;
  const directory = await temporaryFolder();
  const outbox = await FileOutbox.open({ directory, maxQueueSize: 20_000 });
  const started = performance.now();
  for (let done = 0; done < turns; done += 500) {
    outbox.append(Array.from({ length: 500 }, (_, offset) => benchEntry(done + offset)));
    await drainSome(outbox, 500);
    await yieldToEventLoop();
  }
  await outbox.flush();
  const seconds = (performance.now() - started) / 1_000;
  const stats = outbox.stats();
  await outbox.close();
  await fs.rm(directory, { recursive: true, force: true });
  const perSecond = turns / seconds;
  return benchResult({
    name: 'storage.throughput.floor_ratio',
    value: perSecond,
    baseline: 1_000,
    ratio: 1_000 / perSecond,
    unit: 'turns/s',
    goal: 1,
    details: { turns, seconds: round(seconds), compactions: stats.compactions },
  });
}

async function drainSome(outbox: FileOutbox, count: number): Promise<void> {
  const records = await outbox.pending(count);
  const ids = records.map((record) => record.id);
  outbox.markSent(ids, Date.now());
  outbox.markConfirmed(ids);
}

/** Journal bytes and RSS at 25 000-append checkpoints up to 100 000, queue capped at 1 000, nothing drained. */
export async function measureJournalGrowth(options: { turns?: number; maxQueueSize?: number } = {}): Promise<BenchResult> {
  const turns = options.turns ?? 100_000;
  const directory = await temporaryFolder();
  const maxQueueSize = options.maxQueueSize ?? 1_000;
  const outbox = await FileOutbox.open({ directory, maxQueueSize });
  const checkpoints: { turns: number; journalBytes: number; rssMegabytes: number }[] = [];
  let unsettledLargest = 0;
  for (let done = 0; done < turns; done += 100) {
    outbox.append(Array.from({ length: 100 }, (_, offset) => benchEntry(done + offset)));
    await yieldToEventLoop();
    if ((done + 100) % (turns / 4) === 0) {
      await outbox.flush();
      const { size: beforeSettling } = await fs.stat(outbox.stats().journalPath);
      // Appends here outpace any disk by far; "bounded" means: once the running compaction lands.
      while (outbox.stats().compacting) await new Promise((resolve) => setTimeout(resolve, 5));
      await outbox.flush();
      const { size } = await fs.stat(outbox.stats().journalPath);
      unsettledLargest = Math.max(unsettledLargest, beforeSettling);
      checkpoints.push({ turns: done + 100, journalBytes: size, rssMegabytes: round(process.memoryUsage().rss / 2 ** 20) });
    }
  }
  const stats = outbox.stats();
  await outbox.close();
  await fs.rm(directory, { recursive: true, force: true });
  const last = checkpoints.at(-1);
  // The largest settled size must stay bounded, against what the capped queue itself takes in a
  // freshly compacted journal (about one `enqueued` line per live record).
  const largest = Math.max(...checkpoints.map((checkpoint) => checkpoint.journalBytes));
  const liveBytes = (maxQueueSize * (Buffer.byteLength(JSON.stringify({ t: 'enqueued', id: 'xxxxxxxxxxxxxxxxxxxxxx-xxxx', ...benchEntry(turns), enqueuedAt: Date.now() })) + 10));
  const details: Record<string, number> = { droppedOverflow: stats.droppedOverflow, compactions: stats.compactions, uncappedJournalBytesEstimate: Math.round((liveBytes / maxQueueSize) * turns), largestJournalBytesMidCompaction: unsettledLargest };
  for (const checkpoint of checkpoints) {
    details[`journalBytesAt${checkpoint.turns}`] = checkpoint.journalBytes;
    details[`rssMegabytesAt${checkpoint.turns}`] = checkpoint.rssMegabytes;
  }
  return benchResult({
    name: 'storage.journal.growth_ratio',
    value: largest,
    baseline: liveBytes,
    unit: 'bytes (largest settled journal ÷ the capped queue compacted)',
    goal: 3,
    details: { ...details, finalJournalBytes: last?.journalBytes ?? 0, finalRssMegabytes: last?.rssMegabytes ?? 0 },
  });
}
