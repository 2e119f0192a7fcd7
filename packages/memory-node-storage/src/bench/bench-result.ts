// The result shape and its helpers are memory-core's, so every package's benchmarks print and
// round alike; only the benchmark names belong to this package.
import type { BenchResult as SharedBenchResult } from '@graphiti-memory/memory-core/bench';

export { benchResult, percentile, round } from '@graphiti-memory/memory-core/bench';

/** The names of memory-node-storage's benchmarks. */
export type StorageBenchName = 'storage.enqueue.p99_ratio' | 'storage.throughput.floor_ratio' | 'storage.journal.growth_ratio';

/** One benchmark outcome, in the shape memory-core's benchmarks and the harness print. */
export type BenchResult = SharedBenchResult<StorageBenchName>;
