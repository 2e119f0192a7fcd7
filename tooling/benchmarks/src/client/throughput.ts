// Throughput of the client against the raw HTTP floor. The floor is what autocannon (a load tool
// that sends pre-built requests over raw sockets) gets from the same route with the same body and
// concurrency; the client's number is calls completed per second with the same concurrency.
// Exported through the `./bench` entry so the dev harness's `bench` command can reuse it.
import type { EventLoopUtilization } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import type { AddMessagesRequest, SearchQuery } from '@graphiti-memory/graphiti-client';

export type BenchmarkedRoute = 'search' | 'addMessages';

export interface BenchmarkServer {
  readonly url: string;
  close(): Promise<void>;
  /** The server thread's event-loop utilisation (as `performance.eventLoopUtilization`), when it has its own thread. */
  eventLoopUtilization?(previous?: EventLoopUtilization): EventLoopUtilization;
}

export interface ThroughputSettings {
  /** Concurrent connections (autocannon) and concurrent calls (client). Default 10. */
  readonly connections?: number;
  /** Measured seconds per side, split over the rounds. Default 3. */
  readonly durationSeconds?: number;
  /** Alternating raw/client rounds. Default 3. */
  readonly rounds?: number;
  /** Unmeasured seconds per side first, so both meet a warmed-up server. Default 1. */
  readonly warmupSeconds?: number;
}

export interface ThroughputResult {
  readonly name: `client.${BenchmarkedRoute}.throughput_ratio`;
  /** The ratio (client / raw), the number the goal applies to. */
  readonly value: number;
  readonly unit: 'ratio';
  /** The raw HTTP floor, requests per second. */
  readonly baseline: number;
  readonly ratio: number;
  readonly goal: number;
  readonly pass: boolean;
  readonly clientRequestsPerSecond: number;
  readonly rawRequestsPerSecond: number;
  /** Failed requests or calls on either side; a run with errors does not count as a pass. */
  readonly errors: number;
}

const THROUGHPUT_GOAL = 0.8;

/** The request bodies both sides send. */
export const BENCHMARK_BODIES = {
  search: { group_ids: ['bench_group'], query: 'which package manager does the build use', max_facts: 10 },
  addMessages: {
    group_id: 'bench_group',
    messages: [{ name: 'bench.message', role: 'bench', role_type: 'user', content: 'The build uses pnpm and turbo.' }],
  },
} as const satisfies { search: SearchQuery; addMessages: AddMessagesRequest };

const ROUTE_PATHS: Record<BenchmarkedRoute, string> = { search: '/search', addMessages: '/messages' };

interface Measurement {
  readonly requestsPerSecond: number;
  readonly errors: number;
}

/** Requests per second autocannon gets from `POST url+path` with `body`. */
async function measureRawRequestsPerSecond(
  url: string,
  path: string,
  body: unknown,
  connections: number,
  durationSeconds: number,
): Promise<Measurement> {
  const result = await autocannon({
    url: `${url}${path}`,
    method: 'POST',
    connections,
    duration: durationSeconds,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    requestsPerSecond: result['2xx'] / result.duration,
    errors: result.errors + result.non2xx,
  };
}

/** Calls per second of `call` run by `connections` concurrent loops for `durationSeconds`. */
export async function measureCallsPerSecond(
  call: () => Promise<unknown>,
  connections: number,
  durationSeconds: number,
): Promise<Measurement> {
  let completed = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + durationSeconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        try {
          await call();
          completed++;
        } catch {
          errors++;
        }
      }
    }),
  );
  return { requestsPerSecond: completed / ((performance.now() - started) / 1000), errors };
}

function clientCall(client: GraphitiClient, route: BenchmarkedRoute): () => Promise<unknown> {
  return route === 'search'
    ? () => client.search(BENCHMARK_BODIES.search)
    : () => client.addMessages(BENCHMARK_BODIES.addMessages);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * Measures one route against one server from `startServer`: after a warm-up of both sides, short
 * rounds of raw and client alternate (the order flips each round), so a noisy neighbour or a
 * growing backlog on a write route weighs on both sides alike. The ratio is the median of the
 * per-round ratios; the floor and the client figures are medians too.
 */
export async function measureRouteThroughput(
  route: BenchmarkedRoute,
  startServer: (route: BenchmarkedRoute) => Promise<BenchmarkServer>,
  settings: ThroughputSettings = {},
): Promise<ThroughputResult> {
  const connections = settings.connections ?? 10;
  const durationSeconds = settings.durationSeconds ?? 3;
  const warmupSeconds = settings.warmupSeconds ?? 1;
  const rounds = Math.max(1, settings.rounds ?? 3);
  const roundSeconds = Math.max(1, Math.round(durationSeconds / rounds));
  const server = await startServer(route);
  const client = new GraphitiClient({ baseUrl: server.url });
  try {
    const path = ROUTE_PATHS[route];
    const body = BENCHMARK_BODIES[route];
    const call = clientCall(client, route);
    const raw = (seconds: number) => measureRawRequestsPerSecond(server.url, path, body, connections, seconds);
    const viaClient = (seconds: number) => measureCallsPerSecond(call, connections, seconds);
    if (warmupSeconds > 0) {
      await raw(warmupSeconds);
      await viaClient(warmupSeconds);
    }
    const rawRates: number[] = [];
    const clientRates: number[] = [];
    const ratios: number[] = [];
    let errors = 0;
    for (let round = 0; round < rounds; round++) {
      const [first, second] = round % 2 === 0 ? [raw, viaClient] : [viaClient, raw];
      const firstResult = await first(roundSeconds);
      const secondResult = await second(roundSeconds);
      const [rawResult, clientResult] = round % 2 === 0 ? [firstResult, secondResult] : [secondResult, firstResult];
      rawRates.push(rawResult.requestsPerSecond);
      clientRates.push(clientResult.requestsPerSecond);
      ratios.push(rawResult.requestsPerSecond === 0 ? 0 : clientResult.requestsPerSecond / rawResult.requestsPerSecond);
      errors += rawResult.errors + clientResult.errors;
    }
    const ratio = median(ratios);
    return {
      name: `client.${route}.throughput_ratio`,
      value: ratio,
      unit: 'ratio',
      baseline: median(rawRates),
      ratio,
      goal: THROUGHPUT_GOAL,
      pass: ratio >= THROUGHPUT_GOAL && errors === 0,
      clientRequestsPerSecond: median(clientRates),
      rawRequestsPerSecond: median(rawRates),
      errors,
    };
  } finally {
    await client.close();
    await server.close();
  }
}

/** Both routes, search first. */
export async function benchmarkClientThroughput(
  startServer: (route: BenchmarkedRoute) => Promise<BenchmarkServer>,
  settings: ThroughputSettings = {},
): Promise<ThroughputResult[]> {
  const results: ThroughputResult[] = [];
  for (const route of ['search', 'addMessages'] as const) {
    results.push(await measureRouteThroughput(route, startServer, settings));
  }
  return results;
}

/** A fixed-width table of results, for terminals. */
export function formatThroughputTable(results: readonly ThroughputResult[]): string {
  const rows = [
    ['route', 'raw req/s', 'client req/s', 'ratio', 'goal', 'result'],
    ...results.map((result) => [
      result.name.replace(/^client\.|\.throughput_ratio$/g, ''),
      result.rawRequestsPerSecond.toFixed(0),
      result.clientRequestsPerSecond.toFixed(0),
      result.ratio.toFixed(2),
      `≥ ${result.goal}`,
      result.pass ? 'pass' : result.errors > 0 ? `fail (${result.errors} errors)` : 'fail',
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd())
    .join('\n');
}
