import { describe, expect, it } from 'vitest';
import { formatMcpThroughput, MCP_THROUGHPUT_GOAL, mcpThroughputDetails, type McpThroughputResult } from './mcp-throughput.js';

const result = (overrides: Partial<McpThroughputResult> = {}): McpThroughputResult => ({
  name: 'client.mcp.search.throughput_ratio',
  value: 0.5,
  unit: 'ratio',
  baseline: 2000,
  goal: MCP_THROUGHPUT_GOAL,
  pass: false,
  mcpCallsPerSecond: 1000,
  restCallsPerSecond: 2000,
  clientCostRatio: 1.7,
  emulatorCostRatio: 2.4,
  utilisation: { client: { rest: 0.31, mcp: 0.42 }, emulator: { rest: 0.97, mcp: 0.99 } },
  errors: 0,
  details: {},
  ...overrides,
});

describe('formatMcpThroughput', () => {
  it('prints the ratio, the verdict and each thread’s cost and load, so an emulator-bound ratio shows as one', () => {
    expect(formatMcpThroughput(result())).toBe(
      'mcp.search: REST client 2000 calls/s, MCP client 1000 calls/s, ratio 0.50 (goal ≥ 0.67): fail; client busy time per call MCP ÷ REST 1.70; ' +
        'emulator busy time per call MCP ÷ REST 2.40 (threads busy: emulator REST 97% / MCP 99%, client REST 31% / MCP 42%)',
    );
  });

  it('leaves the emulator out when its thread was not measured, and counts errors in the verdict', () => {
    const line = formatMcpThroughput(result({ emulatorCostRatio: null, utilisation: { client: { rest: 0.3, mcp: 0.4 }, emulator: null }, errors: 2 }));
    expect(line).toMatch(/: fail \(2 errors\); client busy time per call MCP ÷ REST 1\.70$/);
  });
});

describe('mcpThroughputDetails', () => {
  it('puts the client’s busy-time ratio next to the throughput ratio, then the emulator’s and each thread’s load', () => {
    expect(mcpThroughputDetails(result({ value: 0.512345 }))).toEqual({
      throughput_ratio: 0.512,
      client_busy_ratio: 1.7,
      emulator_busy_ratio: 2.4,
      mcp_calls_per_second: 1000,
      rest_calls_per_second: 2000,
      client_busy_share_rest: 0.31,
      client_busy_share_mcp: 0.42,
      emulator_busy_share_rest: 0.97,
      emulator_busy_share_mcp: 0.99,
    });
  });

  it('leaves the emulator’s figures out when its thread was not measured', () => {
    const details = mcpThroughputDetails(result({ emulatorCostRatio: null, utilisation: { client: { rest: 0.3, mcp: 0.4 }, emulator: null } }));
    expect(Object.keys(details)).toEqual([
      'throughput_ratio',
      'client_busy_ratio',
      'mcp_calls_per_second',
      'rest_calls_per_second',
      'client_busy_share_rest',
      'client_busy_share_mcp',
    ]);
  });
});
