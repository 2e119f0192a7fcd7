/**
 * One line of `graphiti-harness bench --json`. `value` is the measured quantity in `unit`,
 * `baseline` the reference measured in the same run (or the fixed reference), `ratio` the number
 * the goal applies to, `goal` the comparison (`"<= 1.3"`, `">= 0.8"`), `pass` whether it holds.
 */
export interface BenchmarkResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baseline: number;
  readonly ratio: number;
  readonly goal: string;
  readonly pass: boolean;
  /** How it was measured, for humans. */
  readonly note?: string;
}
