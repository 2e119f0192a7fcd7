import { describe, expect, it } from 'vitest';
import { formatThroughputTable, measureCallsPerSecond, type ThroughputResult } from './throughput.js';

describe('measureCallsPerSecond', () => {
  it('counts completed calls and failures separately', async () => {
    let calls = 0;
    const measurement = await measureCallsPerSecond(
      async () => {
        const number = ++calls;
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (number % 2 === 0) throw new Error('every second call fails');
      },
      2,
      0.2,
    );
    expect(calls).toBeGreaterThan(2);
    expect(measurement.errors).toBe(Math.floor(calls / 2));
    expect(measurement.requestsPerSecond).toBeGreaterThan(0);
  });
});

describe('formatThroughputTable', () => {
  it('prints one row per route with the ratio and the verdict', () => {
    const result = (route: 'search' | 'addMessages', ratio: number, errors = 0): ThroughputResult => ({
      name: `client.${route}.throughput_ratio`,
      value: ratio,
      unit: 'ratio',
      baseline: 1000,
      ratio,
      goal: 0.8,
      pass: ratio >= 0.8 && errors === 0,
      clientRequestsPerSecond: 1000 * ratio,
      rawRequestsPerSecond: 1000,
      errors,
    });
    const lines = formatThroughputTable([result('search', 0.91), result('addMessages', 0.9, 3)]).split('\n');
    expect(lines[0]).toMatch(/^route\s+raw req\/s\s+client req\/s\s+ratio\s+goal\s+result$/);
    expect(lines[1]).toMatch(/^search\s+1000\s+910\s+0\.91\s+≥ 0\.8\s+pass/);
    expect(lines[2]).toMatch(/^addMessages\s+1000\s+900\s+0\.90\s+≥ 0\.8\s+fail \(3 errors\)/);
  });
});
