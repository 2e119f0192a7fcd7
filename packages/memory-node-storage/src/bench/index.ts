// Benchmark measurements of memory-node-storage (the `./bench` export): each returns a BenchResult.
export { benchResult, percentile, type BenchResult } from './bench-result.js';
export { measureEnqueueLatency, measureJournalGrowth, measureSustainedThroughput } from './storage-bench.js';
