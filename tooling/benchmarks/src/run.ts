// `pnpm bench` (tooling/benchmarks): memory-core's and memory-node-storage's benchmarks, each
// printed as its ratio against its goal, or all as JSON with `--json`. Exits 1 when a goal is
// missed. The client's throughput has its own runner (src/client/run.ts, `bench:client`).
import process, { argv, stdout } from 'node:process';
import type { BenchResult } from './bench-result.js';
import {
  measureEnqueueCost,
  measureEnqueueLatency,
  measureIngestRequestsPerMessage,
  measureJournalGrowth,
  measureMirrorCost,
  measureRecallConcurrency,
  measureSustainedThroughput,
} from './index.js';

const BENCHMARKS: readonly (() => Promise<BenchResult>)[] = [
  measureEnqueueCost,
  measureRecallConcurrency,
  measureIngestRequestsPerMessage,
  measureEnqueueLatency,
  measureSustainedThroughput,
  measureJournalGrowth,
  // The structured mirror's cost against the digest, measured in the same run.
  measureMirrorCost,
];

async function main(): Promise<void> {
  const json = argv.includes('--json');
  const results: BenchResult[] = [];
  for (const measure of BENCHMARKS) {
    const result = await measure();
    results.push(result);
    if (!json) {
      stdout.write(
        `${result.pass ? 'pass' : 'FAIL'}  ${result.name}: ${result.value} ${result.unit} / ${result.baseline} ${result.unit} = ${result.ratio} (goal ≤ ${result.goal}) ${JSON.stringify(result.details ?? {})}\n`,
      );
    }
  }
  if (json) stdout.write(`${JSON.stringify({ results }, null, 2)}\n`);
  if (results.some((result) => !result.pass)) process.exitCode = 1;
}

await main();
