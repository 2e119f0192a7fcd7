// `graphiti-harness bench`: the packages' performance goals as one ratio table — each measured
// against a baseline taken in the same run, so the numbers mean the same on any machine. Short
// runs (about 30 s in all); each package's own `pnpm bench` measures longer.
import type { BenchResult } from '@graphiti-memory/benchmarks';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, UsageError } from '../cli/harness-errors.js';
import { fromAtMost, type BenchmarkResult } from '../benchmark/benchmark-result.js';
import type { Output } from '../terminal/output.js';
import type { CommandRegistrar } from './command-registrar.js';

interface BenchOptions extends RawCommonOptions {
  readonly only?: string;
  readonly strict?: boolean;
}

interface Benchmark {
  readonly name: string;
  readonly run: () => Promise<BenchmarkResult>;
}

// Loaded when run, so the other commands do not pay for the benchmark code (autocannon among it).
const coreBench = () => import('@graphiti-memory/benchmarks');

export const BENCHMARKS: readonly Benchmark[] = [
  {
    name: 'client.search.throughput_ratio',
    run: async () => (await import('../benchmark/client-search-throughput.js')).benchmarkClientSearch(2),
  },
  {
    name: 'core.recall.concurrency_ratio',
    run: async () => fromAtMost(await (await coreBench()).measureRecallConcurrency({ searchLatencyMs: 50, iterations: 10 })),
  },
  {
    name: 'core.enqueue.p99_ratio',
    run: async () => fromAtMost(await (await coreBench()).measureEnqueueCost({ rounds: 5, turnsPerRound: 200 })),
  },
  {
    name: 'core.ingest.requests_per_message',
    run: async () => fromAtMost(await (await coreBench()).measureIngestRequestsPerMessage({ turns: 1_000, sessions: 10 })),
  },
  {
    name: 'storage.enqueue.p99_ratio',
    run: async () => (await import('../benchmark/storage-enqueue.js')).benchmarkStorageEnqueue(4_000),
  },
  {
    name: 'hook.prompt_submit.start_ratio',
    run: async () => (await (await import('../benchmark/hook-prompt-submit.js')).measureHookPromptSubmit()).startRatio,
  },
  {
    name: 'hook.prompt_submit.hang_overhead_ms',
    run: async () => (await (await import('../benchmark/hook-prompt-submit.js')).measureHookPromptSubmit()).hangOverhead,
  },
  {
    name: 'hook.prompt_submit.cold_ratio',
    run: async () => (await (await import('../benchmark/hook-prompt-submit.js')).measureHookPromptSubmit()).coldRatio,
  },
  {
    name: 'hook.prompt_submit.no_server_ratio',
    run: async () => (await (await import('../benchmark/hook-prompt-submit.js')).measureHookPromptSubmit()).noServerRatio,
  },
  {
    name: 'recall.injected_tokens_per_prompt',
    run: async () => (await import('../benchmark/said-once-session.js')).measureSaidOnceSession(),
  },
  {
    name: 'eval.hit_rate_at_5',
    run: async () => (await import('../benchmark/eval-hit-rate.js')).measureEvalHitRate(),
  },
  // What a captured session costs the server (episodes, text), on the corpus of real-format sessions.
  {
    name: 'capture.digest.episodes_per_group',
    run: async () => captureCost('capture.digest.episodes_per_group'),
  },
  {
    name: 'capture.digest.text_per_group',
    run: async () => captureCost('capture.digest.text_per_group'),
  },
];

/** Both capture-cost figures come from one measurement of the corpus, taken once per process. */
let captureCosts: Promise<Array<BenchResult<string>>> | undefined;

/** One of the capture-cost figures. */
async function captureCost(name: string): Promise<BenchmarkResult> {
  captureCosts ??= (await coreBench()).measureCaptureCost();
  const result = (await captureCosts).find((candidate) => candidate.name === name);
  if (result === undefined) throw new Error(`bench: the capture cost measurement gave no ${name}; the benchmarks package and the harness disagree`);
  return fromAtMost(result);
}

export const registerBenchCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('bench')
        .description('measure the performance goals of the packages and print the ratio table (about 30 s, offline)')
        .option('--only <names>', 'comma-separated benchmark names (or prefixes, e.g. core.)')
        .option('--strict', 'exit 1 when a goal is missed')
        .addHelpText(
          'after',
          [
            '',
            `Benchmarks: ${BENCHMARKS.map((benchmark) => benchmark.name).join(', ')}.`,
            'Each runs against in-process emulators; --endpoint is not used.',
            '',
            'Examples:',
            '  graphiti-harness bench',
            '  graphiti-harness bench --only core. --json',
          ].join('\n'),
        ),
      'emulator',
    ).action((raw: BenchOptions) => run(raw, (context) => bench(context, raw), { configFiles: false })),
  );
};

async function bench(context: CommandContext, raw: BenchOptions): Promise<ExitCode> {
  const { output } = context;
  const selected = selectBenchmarks(raw.only);
  const results: BenchmarkResult[] = [];
  const progress = output.progress('benchmarks', selected.length);
  try {
    for (const [index, benchmark] of selected.entries()) {
      output.info(`measuring ${benchmark.name}…`);
      results.push(await benchmark.run());
      progress.update(index + 1);
    }
  } finally {
    progress.stop();
  }
  output.result({ results });
  printTable(output, results);
  const failed = results.filter((result) => !result.pass);
  if (failed.length > 0) output.warn(`${failed.length} goals missed: ${failed.map((result) => result.name).join(', ')} (benchmarks are noisy on a busy machine; run again to confirm).`);
  return raw.strict === true && failed.length > 0 ? ExitCode.failure : ExitCode.ok;
}

export function selectBenchmarks(only: string | undefined): readonly Benchmark[] {
  if (only === undefined) return BENCHMARKS;
  const wanted = only.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const selected = BENCHMARKS.filter((benchmark) => wanted.some((name) => benchmark.name.startsWith(name)));
  if (selected.length === 0) {
    throw new UsageError(`--only ${JSON.stringify(only)} matches no benchmark; use one of ${BENCHMARKS.map((benchmark) => benchmark.name).join(', ')}.`);
  }
  return selected;
}

function printTable(output: Output, results: readonly BenchmarkResult[]): void {
  const rows = [
    ['benchmark', 'value', 'baseline', 'ratio', 'goal', 'result'],
    ...results.map((result) => [
      result.name,
      `${result.value} ${result.unit}`,
      `${result.baseline} ${result.unit}`,
      String(result.ratio),
      result.goal,
      result.pass ? 'pass' : 'FAIL',
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  for (const [index, row] of rows.entries()) {
    const line = row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
    if (index === 0) output.line(output.colors.bold(line));
    else output.line(results[index - 1]?.pass === true ? line : output.colors.red(line));
  }
}
