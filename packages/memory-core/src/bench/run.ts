// `pnpm bench` in packages/memory-core: prints each benchmark's ratio against its goal, or the
// results as JSON with `--json`. Exits 1 when a goal is missed.
import process, { argv, stdout } from 'node:process';
import type { BenchResult } from './bench-result.js';
import { measureEnqueueCost, measureIngestRequestsPerMessage, measureRecallConcurrency } from './index.js';

async function main(): Promise<void> {
  const json = argv.includes('--json');
  const results: BenchResult[] = [];
  for (const measure of [measureEnqueueCost, measureRecallConcurrency, measureIngestRequestsPerMessage]) {
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
