// client.search.throughput_ratio: requests per second of `GraphitiClient.search` against the
// emulator on loopback, divided by the raw HTTP floor measured in the same run with the same
// concurrency. autocannon is not a dependency here, so the floor is node:http with a keep-alive
// agent (one pooled connection per concurrent caller, the body read and discarded) — what a load
// tool does, minus the client's validation, retries and error mapping.
import http from 'node:http';
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import type { BenchmarkResult } from './benchmark-result.js';

export interface ClientThroughputOptions {
  /** Concurrent callers, for both the client and the raw floor. */
  readonly concurrency?: number;
  /** Duration of each measured round. */
  readonly roundMs?: number;
  /** Alternating rounds per side; the best round of each side counts (noise only slows a round). */
  readonly rounds?: number;
}

const GOAL = 0.8;
const SEARCH_GROUP = 'bench-client-search';

export async function benchmarkClientThroughput(options: ClientThroughputOptions = {}): Promise<BenchmarkResult> {
  const concurrency = options.concurrency ?? 8;
  const roundMs = options.roundMs ?? 1_500;
  const rounds = options.rounds ?? 3;
  const emulator = await startEmulator({ quiet: true });
  try {
    await seed(emulator);
    const body = JSON.stringify({ group_ids: [SEARCH_GROUP], query: 'pnpm workspace build', max_facts: 10 });
    const client = new GraphitiClient({ baseUrl: emulator.url, timeoutMs: 10_000, maxRetries: 0 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    const target = new URL('/search', emulator.url);
    const raw = () => rawPost(agent, target, body);
    const viaClient = async () => {
      await client.search({ group_ids: [SEARCH_GROUP], query: 'pnpm workspace build', max_facts: 10 });
    };
    try {
      // Warm both paths (connections, JIT) before measuring.
      await measure(raw, concurrency, Math.min(300, roundMs));
      await measure(viaClient, concurrency, Math.min(300, roundMs));
      let bestRaw = 0;
      let bestClient = 0;
      for (let round = 0; round < rounds; round += 1) {
        bestRaw = Math.max(bestRaw, await measure(raw, concurrency, roundMs));
        bestClient = Math.max(bestClient, await measure(viaClient, concurrency, roundMs));
      }
      const ratio = bestRaw === 0 ? 0 : bestClient / bestRaw;
      return {
        name: 'client.search.throughput_ratio',
        value: round(bestClient),
        unit: 'requests/s',
        baseline: round(bestRaw),
        ratio: round(ratio, 3),
        goal: `>= ${GOAL}`,
        pass: ratio >= GOAL,
        note: `GraphitiClient.search vs raw node:http keep-alive floor, ${concurrency} concurrent, best of ${rounds} × ${roundMs} ms, in-process emulator`,
      };
    } finally {
      agent.destroy();
      await client.close();
    }
  } finally {
    await emulator.close();
  }
}

async function seed(emulator: RunningEmulator): Promise<void> {
  const client = new GraphitiClient({ baseUrl: emulator.url, maxRetries: 0 });
  try {
    const sentences = [
      'The team uses pnpm workspaces for the monorepo.',
      'The build runs through turbo with a remote cache.',
      'Tests use vitest against the emulator over loopback HTTP.',
      'The workspace build must pass lint and typecheck before release.',
      'Alice prefers small pull requests with one change each.',
    ];
    await client.addMessages({
      group_id: SEARCH_GROUP,
      messages: sentences.map((content, index) => ({
        content,
        role_type: 'user' as const,
        role: 'bench',
        name: `bench.seed.${index}`,
        timestamp: new Date(Date.UTC(2025, 0, 1, 0, index)).toISOString(),
      })),
    });
    await emulator.idle();
  } finally {
    await client.close();
  }
}

function rawPost(agent: http.Agent, target: URL, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      target,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        response.on('data', () => {});
        response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`raw /search answered ${response.statusCode}`))));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Completed calls per second with `concurrency` callers looping for `durationMs`. */
async function measure(call: () => Promise<void>, concurrency: number, durationMs: number): Promise<number> {
  let completed = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      await call();
      completed += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return completed / ((performance.now() - started) / 1000);
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
