/** memory-core's benchmarks as functions, for `pnpm bench` here and the harness's `bench`. */
export { benchResult, percentile, round, type BenchResult, type CoreBenchName } from './bench-result.js';
export { benchTurn, measureEnqueueCost, type EnqueueBenchOptions } from './enqueue-bench.js';
export { measureIngestRequestsPerMessage, type IngestBenchOptions } from './ingest-bench.js';
export { measureRecallConcurrency, type RecallBenchOptions } from './recall-bench.js';
