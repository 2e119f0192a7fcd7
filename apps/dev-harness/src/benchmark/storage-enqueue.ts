// storage.enqueue.p99_ratio: `FileOutbox.append` (durable: journaled, fsync batched off the
// caller's path) against `InMemoryOutbox.append`, one entry per call, alternating, p99 of each.
// memory-node-storage has no ./bench entry yet; this is the harness's own measurement until then.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InMemoryOutbox, type OutboxEntry } from '@graphiti-memory/memory-core';
import { FileOutbox } from '@graphiti-memory/memory-node-storage';
import { round, type BenchmarkResult } from './benchmark-result.js';

export const STORAGE_ENQUEUE_GOAL = 10;

export async function benchmarkStorageEnqueue(appends = 4_000): Promise<BenchmarkResult> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'graphiti-harness-bench-'));
  const durable = await FileOutbox.open({ directory, maxQueueSize: appends * 2 });
  const inMemory = new InMemoryOutbox({ current: () => ({ maxQueueSize: appends * 2 }) }, { now: () => Date.now() });
  try {
    const durableTimes: number[] = [];
    const memoryTimes: number[] = [];
    for (let index = 0; index < appends; index++) {
      const entries = [entry(index)];
      const first = index % 2 === 0 ? durable : inMemory;
      const second = first === durable ? inMemory : durable;
      for (const outbox of [first, second]) {
        const start = performance.now();
        outbox.append(entries);
        (outbox === durable ? durableTimes : memoryTimes).push(performance.now() - start);
      }
      // Let the group commit run now and then, as it does between chat turns.
      if (index % 200 === 199) await durable.flush();
    }
    await durable.flush();
    const warm = Math.floor(appends / 10);
    const durableP99 = p99(durableTimes.slice(warm)) * 1000;
    const memoryP99 = p99(memoryTimes.slice(warm)) * 1000;
    const ratio = memoryP99 === 0 ? Number.POSITIVE_INFINITY : durableP99 / memoryP99;
    return {
      name: 'storage.enqueue.p99_ratio',
      value: round(durableP99),
      unit: 'µs',
      baseline: round(memoryP99),
      ratio: round(ratio),
      goal: `<= ${STORAGE_ENQUEUE_GOAL}`,
      pass: ratio <= STORAGE_ENQUEUE_GOAL,
      details: { appends },
    };
  } finally {
    await durable.close();
    await fs.rm(directory, { recursive: true, force: true });
  }
}

function entry(index: number): OutboxEntry {
  return {
    groupId: 'bench_group',
    message: {
      content: `Turn ${index}: the build uses pnpm and turbo; tests run with vitest against the emulator.`,
      role_type: 'user',
      role: 'bench',
      name: `bench.turn.${index}.user`,
      timestamp: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(),
    },
  };
}

function p99(times: readonly number[]): number {
  const sorted = [...times].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? Number.NaN;
}
