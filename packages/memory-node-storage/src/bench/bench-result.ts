/** One benchmark outcome, in the shape memory-core's benchmarks and the harness print. */
export interface BenchResult {
  readonly name: 'storage.enqueue.p99_ratio' | 'storage.throughput.floor_ratio' | 'storage.journal.growth_ratio';
  /** The measured quantity, in `unit`. */
  readonly value: number;
  readonly unit: string;
  /** What `value` is compared with (same unit). */
  readonly baseline: number;
  /** The number the goal applies to. */
  readonly ratio: number;
  /** The ratio must stay at or below this. */
  readonly goal: number;
  readonly pass: boolean;
  readonly details?: Readonly<Record<string, number | string>>;
}

export function benchResult(fields: Omit<BenchResult, 'ratio' | 'pass'> & { readonly ratio?: number }): BenchResult {
  const ratio = fields.ratio ?? (fields.baseline === 0 ? Number.POSITIVE_INFINITY : fields.value / fields.baseline);
  return { ...fields, ratio: round(ratio), value: round(fields.value), baseline: round(fields.baseline), pass: ratio <= fields.goal };
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export function round(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 10_000) / 10_000 : value;
}
