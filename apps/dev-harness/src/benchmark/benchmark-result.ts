/**
 * One line of `graphiti-harness bench --json`. `value` is the measured quantity in `unit`,
 * `baseline` the reference measured in the same run, `ratio` the number the goal applies to,
 * `goal` the comparison (`"<= 10"`, `">= 0.8"`), `pass` whether it holds.
 */
export interface BenchmarkResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline: number;
  readonly ratio: number;
  readonly goal: string;
  readonly pass: boolean;
  /** Further figures for humans (p50s, counts). */
  readonly details?: Readonly<Record<string, number | string>>;
}

/** memory-core's shape: a numeric goal the ratio must stay at or below. */
export interface AtMostBenchResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline: number;
  readonly ratio: number;
  readonly goal: number;
  readonly pass: boolean;
  readonly details?: Readonly<Record<string, number | string>>;
}

export function fromAtMost(result: AtMostBenchResult): BenchmarkResult {
  return { ...result, ratio: round(result.ratio), value: round(result.value), baseline: round(result.baseline), goal: `<= ${result.goal}` };
}

export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
