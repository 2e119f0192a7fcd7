// client.mcp.search.throughput_ratio: searches per second through GraphitiMcpClient divided by
// searches per second through GraphitiClient, each against the emulator's matching face holding
// the same facts, in the same run. It prices the MCP SDK (sessions, JSON-RPC, SSE framing) against
// the REST client; the goal is that MCP costs no more than a third. Calls per second are set by
// the slower of the two threads: each thread's busy time per call (client and emulator, MCP ÷
// REST) and how busy each was are reported too, so a ratio set by the emulator's MCP face (the
// SDK's server) is not read as the client's cost.
import { GraphitiClient, GraphitiMcpClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import type { BenchmarkServer } from './throughput.js';
import { BENCHMARK_BODIES, measureCallsPerSecond } from './throughput.js';

export const MCP_THROUGHPUT_GOAL = 2 / 3;

export interface McpThroughputResult {
  readonly name: 'client.mcp.search.throughput_ratio';
  /** MCP client ÷ REST client. */
  readonly value: number;
  readonly unit: 'ratio';
  /** The REST client's searches per second. */
  readonly baseline: number;
  readonly goal: number;
  readonly pass: boolean;
  readonly mcpCallsPerSecond: number;
  readonly restCallsPerSecond: number;
  /**
   * Client main-thread busy time per call, MCP ÷ REST (event-loop utilisation over calls). Tells
   * the client's own cost apart from the emulator's: the MCP face's server (the SDK's) runs on its
   * own thread and may be what limits the throughput on a small machine.
   */
  readonly clientCostRatio: number;
  /**
   * The emulator thread's busy time per call, MCP face ÷ REST face (null when the servers do not
   * report their threads'). Its MCP face is the SDK's McpServer (JSON-RPC, sessions, SSE framing).
   */
  readonly emulatorCostRatio: number | null;
  /**
   * How busy each thread was while measuring (0–1, medians over the rounds). A thread near 1 sets
   * the pace: when it is the emulator's, the ratio says more about the emulator than the client.
   */
  readonly utilisation: {
    readonly client: { readonly rest: number; readonly mcp: number };
    readonly emulator: { readonly rest: number; readonly mcp: number } | null;
  };
  readonly errors: number;
  /**
   * The same figures as flat numbers for machines (`--json`), the throughput ratio next to the
   * client's busy-time ratio, so a reader sees at once whether the client or the emulator set the pace.
   */
  readonly details: Readonly<Record<string, number>>;
}

export interface McpThroughputSettings {
  readonly connections?: number;
  readonly durationSeconds?: number;
  readonly rounds?: number;
  readonly warmupSeconds?: number;
}

const SEED_TEXTS = [
  'The build uses pnpm for every package.',
  'The team prefers turbo for task caching.',
  'Ada reviews every change to the client.',
  'The emulator answers on loopback.',
];

/** The same 100 facts on either face, confirmed stored before measuring. */
async function seed(client: GraphitiApi): Promise<void> {
  const group = BENCHMARK_BODIES.search.group_ids[0];
  for (let index = 0; index < 25; index++) {
    await client.addMessages({
      group_id: group,
      messages: SEED_TEXTS.map((text, position) => ({
        name: `bench.seed.${index}.${position}`,
        role: 'bench',
        role_type: 'user' as const,
        content: `${text} Note ${index}.`,
      })),
    });
  }
  const expected = 25 * SEED_TEXTS.length;
  for (let waited = 0; waited < 30_000; waited += 50) {
    if ((await client.getEpisodes(group, { lastN: expected })).length >= expected) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('The benchmark emulator did not process its seed messages within 30 s.');
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * Alternating rounds of REST and MCP searches (order flipped each round), after a warm-up of
 * both; the ratio is the median of the per-round ratios.
 */
export async function measureMcpSearchThroughput(
  startServer: (face: 'rest' | 'mcp') => Promise<BenchmarkServer>,
  settings: McpThroughputSettings = {},
): Promise<McpThroughputResult> {
  const connections = settings.connections ?? 10;
  // Five rounds: on a shared two-core machine the median of three one-second rounds moved by ±0.1.
  const rounds = Math.max(1, settings.rounds ?? 5);
  const roundSeconds = Math.max(1, Math.round((settings.durationSeconds ?? 3) / rounds));
  const warmupSeconds = settings.warmupSeconds ?? 1;
  const [restServer, mcpServer] = await Promise.all([startServer('rest'), startServer('mcp')]);
  const rest = new GraphitiClient({ baseUrl: restServer.url });
  const mcp = new GraphitiMcpClient({ baseUrl: mcpServer.url });
  try {
    await Promise.all([seed(rest), seed(mcp)]);
    const busy = async (client: GraphitiApi, server: BenchmarkServer, seconds: number) => {
      const before = performance.eventLoopUtilization();
      const serverBefore = server.eventLoopUtilization?.();
      const measured = await measureCallsPerSecond(() => client.search(BENCHMARK_BODIES.search), connections, seconds);
      const utilisation = performance.eventLoopUtilization(before).utilization;
      const serverUtilisation = serverBefore === undefined ? undefined : server.eventLoopUtilization?.(serverBefore).utilization;
      const perCall = (share: number) => (measured.requestsPerSecond === 0 ? 0 : share / measured.requestsPerSecond);
      return {
        ...measured,
        utilisation,
        busyPerCall: perCall(utilisation),
        serverUtilisation,
        serverBusyPerCall: serverUtilisation === undefined ? undefined : perCall(serverUtilisation),
      };
    };
    const viaRest = (seconds: number) => busy(rest, restServer, seconds);
    const viaMcp = (seconds: number) => busy(mcp, mcpServer, seconds);
    if (warmupSeconds > 0) {
      await viaRest(warmupSeconds);
      await viaMcp(warmupSeconds);
    }
    const restRates: number[] = [];
    const mcpRates: number[] = [];
    const ratios: number[] = [];
    const costRatios: number[] = [];
    const emulatorCostRatios: number[] = [];
    const utilisation = { client: { rest: [] as number[], mcp: [] as number[] }, emulator: { rest: [] as number[], mcp: [] as number[] } };
    let errors = 0;
    for (let round = 0; round < rounds; round++) {
      const restFirst = round % 2 === 0;
      const first = await (restFirst ? viaRest : viaMcp)(roundSeconds);
      const second = await (restFirst ? viaMcp : viaRest)(roundSeconds);
      const [restResult, mcpResult] = restFirst ? [first, second] : [second, first];
      restRates.push(restResult.requestsPerSecond);
      mcpRates.push(mcpResult.requestsPerSecond);
      ratios.push(restResult.requestsPerSecond === 0 ? 0 : mcpResult.requestsPerSecond / restResult.requestsPerSecond);
      costRatios.push(restResult.busyPerCall === 0 ? 0 : mcpResult.busyPerCall / restResult.busyPerCall);
      utilisation.client.rest.push(restResult.utilisation);
      utilisation.client.mcp.push(mcpResult.utilisation);
      if (restResult.serverBusyPerCall !== undefined && mcpResult.serverBusyPerCall !== undefined) {
        emulatorCostRatios.push(restResult.serverBusyPerCall === 0 ? 0 : mcpResult.serverBusyPerCall / restResult.serverBusyPerCall);
        utilisation.emulator.rest.push(restResult.serverUtilisation ?? 0);
        utilisation.emulator.mcp.push(mcpResult.serverUtilisation ?? 0);
      }
      errors += restResult.errors + mcpResult.errors;
    }
    const value = median(ratios);
    const figures = {
      value,
      mcpCallsPerSecond: median(mcpRates),
      restCallsPerSecond: median(restRates),
      clientCostRatio: median(costRatios),
      emulatorCostRatio: emulatorCostRatios.length === 0 ? null : median(emulatorCostRatios),
      utilisation: {
        client: { rest: median(utilisation.client.rest), mcp: median(utilisation.client.mcp) },
        emulator: emulatorCostRatios.length === 0 ? null : { rest: median(utilisation.emulator.rest), mcp: median(utilisation.emulator.mcp) },
      },
    };
    return {
      name: 'client.mcp.search.throughput_ratio',
      unit: 'ratio',
      baseline: figures.restCallsPerSecond,
      goal: MCP_THROUGHPUT_GOAL,
      pass: value >= MCP_THROUGHPUT_GOAL && errors === 0,
      ...figures,
      errors,
      details: mcpThroughputDetails(figures),
    };
  } finally {
    await Promise.all([rest.close(), mcp.close()]);
    await Promise.all([restServer.close(), mcpServer.close()]);
  }
}

const rounded = (value: number): number => Math.round(value * 1000) / 1000;

/** The result's figures, flat: throughput ratio, then each thread's busy time per call MCP ÷ REST, then calls per second and load. */
export function mcpThroughputDetails(
  figures: Pick<McpThroughputResult, 'value' | 'mcpCallsPerSecond' | 'restCallsPerSecond' | 'clientCostRatio' | 'emulatorCostRatio' | 'utilisation'>,
): Record<string, number> {
  const { client, emulator } = figures.utilisation;
  return {
    throughput_ratio: rounded(figures.value),
    client_busy_ratio: rounded(figures.clientCostRatio),
    ...(figures.emulatorCostRatio === null ? {} : { emulator_busy_ratio: rounded(figures.emulatorCostRatio) }),
    mcp_calls_per_second: Math.round(figures.mcpCallsPerSecond),
    rest_calls_per_second: Math.round(figures.restCallsPerSecond),
    client_busy_share_rest: rounded(client.rest),
    client_busy_share_mcp: rounded(client.mcp),
    ...(emulator === null ? {} : { emulator_busy_share_rest: rounded(emulator.rest), emulator_busy_share_mcp: rounded(emulator.mcp) }),
  };
}

const percent = (share: number): string => `${Math.round(share * 100)}%`;

export function formatMcpThroughput(result: McpThroughputResult): string {
  const verdict = result.pass ? 'pass' : result.errors > 0 ? `fail (${result.errors} errors)` : 'fail';
  const { client, emulator } = result.utilisation;
  const emulatorLine =
    result.emulatorCostRatio === null || emulator === null
      ? ''
      : `; emulator busy time per call MCP ÷ REST ${result.emulatorCostRatio.toFixed(2)}` +
        ` (threads busy: emulator REST ${percent(emulator.rest)} / MCP ${percent(emulator.mcp)}, client REST ${percent(client.rest)} / MCP ${percent(client.mcp)})`;
  return (
    `mcp.search: REST client ${result.restCallsPerSecond.toFixed(0)} calls/s, MCP client ${result.mcpCallsPerSecond.toFixed(0)} calls/s, ` +
    `ratio ${result.value.toFixed(2)} (goal ≥ ${result.goal.toFixed(2)}): ${verdict}; ` +
    `client busy time per call MCP ÷ REST ${result.clientCostRatio.toFixed(2)}${emulatorLine}`
  );
}
