// client.search.throughput_ratio through graphiti-client's own benchmark (autocannon's raw floor
// vs the client, same route, body and concurrency), against an emulator on a worker thread seeded
// with facts so /search has something to rank. Short rounds: the harness's bench is a quick check.
import { measureRouteThroughput, startServerThread, type BenchmarkServer } from '@graphiti-memory/benchmarks';
import { round, type BenchmarkResult } from './benchmark-result.js';

const CONNECTIONS = 10;

export async function benchmarkClientSearch(durationSeconds = 2): Promise<BenchmarkResult> {
  const result = await measureRouteThroughput('search', startEmulatorThread, { durationSeconds, warmupSeconds: 0.5, connections: CONNECTIONS });
  return {
    name: result.name,
    value: round(result.clientRequestsPerSecond, 1),
    unit: 'requests/s',
    baseline: round(result.rawRequestsPerSecond, 1),
    ratio: round(result.ratio),
    goal: `>= ${result.goal}`,
    pass: result.pass,
    details: { errors: result.errors, durationSeconds, connections: CONNECTIONS },
  };
}

async function startEmulatorThread(): Promise<BenchmarkServer> {
  // The thread runs the same kind of module as this file (.js when built, .ts from source).
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return startServerThread(new URL(`./emulator-thread${extension}`, import.meta.url));
}
