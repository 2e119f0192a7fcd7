// The repository's benchmarks as functions, for `pnpm bench` (src/run.ts) and `graphiti-harness
// bench`. A private workspace package: benchmarks need the emulator, the client and test doubles,
// none of which may ship in a published package. New figures go in a folder per area (core/,
// storage/, client/, …), return a `BenchResult` (or, for the client, a throughput table) and are
// listed in src/run.ts and the harness's BENCHMARKS.
export { type BenchResult } from './bench-result.js';
export { measureEnqueueCost } from './core/enqueue-bench.js';
export { measureIngestRequestsPerMessage } from './core/ingest-bench.js';
export { measureRecallConcurrency } from './core/recall-bench.js';
export { measureEnqueueLatency, measureJournalGrowth, measureSustainedThroughput } from './storage/storage-bench.js';
export { BENCHMARK_BODIES, measureRouteThroughput, type BenchmarkServer } from './client/throughput.js';
export { startServerThread } from './client/server-thread.js';
export { measureCaptureCost } from './capture/capture-cost-bench.js';
export { measureMirrorCost } from './capture/mirror-cost-bench.js';
