// (b) Recall over three scopes against the emulator with a fixed search latency: concurrent
// searches cost about one latency, not three.
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { startEmulator } from '@graphiti-memory/graphiti-emulator';
import { performance } from 'node:perf_hooks';
import { RecallService } from '@graphiti-memory/memory-core';
import { benchResult, percentile, type BenchResult } from '../bench-result.js';
import { benchMemory } from './stand-ins.js';

export interface RecallBenchOptions {
  readonly searchLatencyMs?: number;
  readonly iterations?: number;
}

export async function measureRecallConcurrency(options: RecallBenchOptions = {}): Promise<BenchResult> {
  const latencyMs = options.searchLatencyMs ?? 100;
  const iterations = options.iterations ?? 20;
  const emulator = await startEmulator({ faults: { search: { latencyMs } } });
  const client = new GraphitiClient({ baseUrl: emulator.url, timeoutMs: 10_000 });
  try {
    const memory = benchMemory({
      api: client,
      settings: { enabled: true, endpoint: emulator.url, recall: { enabled: true, timeoutMs: 5_000 } },
      consentFor: emulator.url,
      accountId: 'bench-user',
    });
    const recallService = memory.get<RecallService>(RecallService);
    const recall = (): ReturnType<RecallService['recall']> =>
      recallService.recall('what do I call the build setup of this project', {
        scopes: 'all',
        sessionId: 'bench-session',
        timeoutMs: 5_000,
      });
    for (let warmup = 0; warmup < 3; warmup++) await recall();
    const searchesBefore = emulator.requests.filter((request) => request.route === 'search').length;
    const times: number[] = [];
    for (let iteration = 0; iteration < iterations; iteration++) {
      const start = performance.now();
      const result = await recall();
      times.push(performance.now() - start);
      if (result.scopes.length !== 3 || result.timedOut) {
        throw new Error(`recall benchmark: expected 3 scopes answered in time, got ${result.scopes.length} (timedOut ${result.timedOut})`);
      }
    }
    const searches = emulator.requests.filter((request) => request.route === 'search').length - searchesBefore;
    times.sort((left, right) => left - right);
    return benchResult({
      name: 'core.recall.concurrency_ratio',
      value: percentile(times, 0.5),
      unit: 'ms',
      baseline: latencyMs,
      goal: 1.3,
      details: { p99Ms: percentile(times, 0.99), searchesPerRecall: searches / iterations, iterations },
    });
  } finally {
    await client.close();
    await emulator.close();
  }
}
