// `pnpm bench`: requests per second of `search` and `addMessages` through the client, as a ratio
// of the raw HTTP floor autocannon measures against the same emulator routes in the same run.
// `--json` prints `{ results: [...] }` for machines; `--duration N` and `--connections N` tune it.
import { parseArgs } from 'node:util';
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { startServerThread } from './server-thread.js';
import {
  BENCHMARK_BODIES,
  benchmarkClientThroughput,
  formatThroughputTable,
  type BenchmarkServer,
  type BenchmarkedRoute,
} from './throughput.js';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
  },
});
const durationSeconds = Number(values.duration);
const connections = Number(values.connections);
if (!(durationSeconds > 0) || !Number.isInteger(connections) || connections < 1) {
  console.error('Usage: pnpm bench [--json] [--duration SECONDS] [--connections N]');
  process.exit(2);
}
const log = (line: string): void => {
  // With --json, stdout carries only the JSON document.
  (values.json ? console.error : console.log)(line);
};

/** Starts an emulator on its own thread; the thread runs the same module kind as this file. */
async function startEmulatorThread(): Promise<BenchmarkServer> {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return startServerThread(new URL(`./emulator-thread${extension}`, import.meta.url), { processingDelayMs: 1 });
}

/** A search server holds facts of the benchmark group, so /search has something to rank. */
async function seedForSearch(url: string): Promise<void> {
  const client = new GraphitiClient({ baseUrl: url });
  try {
    const content = [
      'The build uses pnpm for every package.',
      'The team prefers turbo for task caching.',
      'Ada reviews every change to the client.',
      'The emulator answers on loopback.',
    ];
    for (let index = 0; index < 25; index++) {
      await client.addMessages({
        group_id: BENCHMARK_BODIES.search.group_ids[0],
        messages: content.map((text, position) => ({
          name: `bench.seed.${index}.${position}`,
          role: 'bench',
          role_type: 'user' as const,
          content: `${text} Note ${index}.`,
        })),
      });
    }
    const expected = 25 * content.length;
    for (let waited = 0; waited < 30_000; waited += 50) {
      const episodes = await client.getEpisodes(BENCHMARK_BODIES.search.group_ids[0], { lastN: expected });
      if (episodes.length >= expected) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('The benchmark emulator did not process its seed messages within 30 s.');
  } finally {
    await client.close();
  }
}

async function startServer(route: BenchmarkedRoute): Promise<BenchmarkServer> {
  const server = await startEmulatorThread();
  if (route === 'search') await seedForSearch(server.url);
  return server;
}

log(
  `graphiti-client throughput against the Graphiti EMULATOR on loopback (not Graphiti): ${connections} connections, ${durationSeconds} s per side, raw floor by autocannon.`,
);
const results = await benchmarkClientThroughput(startServer, { connections, durationSeconds });
if (values.json) {
  console.log(JSON.stringify({ results }, null, 2));
} else {
  log(formatThroughputTable(results));
}
// Exit 0 either way: the verdict is in the table and in each result's `pass`, for whoever reads them.
