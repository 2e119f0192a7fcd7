// Type-only: bench-command loads memory-core's benchmark code only when `bench` runs.
import type { BenchResult } from '@graphiti-memory/benchmarks';

/**
 * One line of `graphiti-harness bench --json`. `value` is the measured quantity in `unit`,
 * `baseline` the reference measured in the same run, `ratio` the number the goal applies to,
 * `goal` the comparison (`"<= 10"`, `">= 0.8"`), `pass` whether it holds.
 */
export interface BenchmarkResult extends Omit<BenchResult<string>, 'goal'> {
  readonly goal: string;
}

/** memory-core's shape (any package's names): a numeric goal the ratio must stay at or below. */
export type AtMostBenchResult = BenchResult<string>;

export function fromAtMost(result: AtMostBenchResult): BenchmarkResult {
  return { ...result, ratio: round(result.ratio), value: round(result.value), baseline: round(result.baseline), goal: `<= ${result.goal}` };
}

export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
