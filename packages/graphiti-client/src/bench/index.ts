// `@graphiti-memory/graphiti-client/bench`: the throughput measurement, for the dev harness.
// Workspace-only: not part of the published package.
export {
  BENCHMARK_BODIES,
  THROUGHPUT_GOAL,
  benchmarkClientThroughput,
  formatThroughputTable,
  measureCallsPerSecond,
  measureRawRequestsPerSecond,
  measureRouteThroughput,
  type BenchmarkServer,
  type BenchmarkedRoute,
  type ThroughputResult,
  type ThroughputSettings,
} from './throughput.js';
export { startServerThread } from './server-thread.js';
export {
  formatMcpThroughput,
  MCP_THROUGHPUT_GOAL,
  measureMcpSearchThroughput,
  type McpThroughputResult,
  type McpThroughputSettings,
} from './mcp-throughput.js';
