/** The names of memory-core's benchmarks. */
export type CoreBenchName = 'core.enqueue.p99_ratio' | 'core.recall.concurrency_ratio' | 'core.ingest.requests_per_message';

/** The names of memory-node-storage's benchmarks. */
export type StorageBenchName = 'storage.enqueue.p99_ratio' | 'storage.throughput.floor_ratio' | 'storage.journal.growth_ratio';

/** The structured mirror's cost against the digest (capture/mirror-cost-bench.ts). */
export type MirrorBenchName = 'capture.mirror.bytes_per_turn_ratio';

/** Every benchmark name this package measures with `benchResult` (add new ones here). */
export type BenchName = CoreBenchName | StorageBenchName | MirrorBenchName;

/** One benchmark outcome, in the shape the harness and CI read. */
export interface BenchResult<Name extends string = BenchName> {
  readonly name: Name;
  /** The measured quantity, in `unit`. */
  readonly value: number;
  readonly unit: string;
  /** What `value` is compared with (same unit), e.g. JSON.stringify of the same turn. */
  readonly baseline: number;
  /** value / baseline: the number the goal applies to. */
  readonly ratio: number;
  /** The ratio must stay at or below this. */
  readonly goal: number;
  readonly pass: boolean;
  /** Further figures (p50s, counts) for people reading the output. */
  readonly details?: Readonly<Record<string, number | string>>;
}

export function benchResult<Name extends string = BenchName>(
  fields: Omit<BenchResult<Name>, 'ratio' | 'pass'> & { readonly ratio?: number },
): BenchResult<Name> {
  const ratio = fields.ratio ?? (fields.baseline === 0 ? Number.POSITIVE_INFINITY : fields.value / fields.baseline);
  return { ...fields, ratio: round(ratio), value: round(fields.value), baseline: round(fields.baseline), pass: ratio <= fields.goal };
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** Four decimals: enough to compare ratios, few enough to read. */
export function round(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 10_000) / 10_000 : value;
}
