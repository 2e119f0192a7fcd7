// `graphiti-harness eval`: how often recall finds what it should, measured against the configured
// Graphiti. Golden questions come from the workspace's promoted memories (the local tier, the
// product's own record of promotions: each memory must come back for a question about it) and the
// user's `.graphiti-memory/eval.jsonl`. Reports hit rate at k, tokens injected (p50/p95, the rendered
// block counted with the real tokenizer), recall latency (p50/p95) and the stale share.
import path from 'node:path';
import type { MemoryScope } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError, UsageError } from '../cli/harness-errors.js';
import { parseInteger } from '../cli/option-parsers.js';
import { openHarnessMemory, type HarnessMemory } from '../composition/harness-container.js';
import { EVAL_FILE, questionAbout, readEvalFile, type GoldenQuestion } from '../eval/golden-questions.js';
import { runEval, type EvalReport } from '../eval/eval-run.js';
import { DEFAULT_PROMPT_BUDGET } from '../prompt/render-memory-prompt.js';
import type { Output } from '../terminal/output.js';
import type { CommandRegistrar } from './command-registrar.js';

interface EvalOptions extends RawCommonOptions {
  readonly k?: string;
  readonly file?: string;
  readonly budget?: string;
  readonly minHitRate?: string;
}

export const DEFAULT_EVAL_K = 5;

export const registerEvalCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('eval')
        .description("measure recall: golden questions from the workspace's promoted memories and .graphiti-memory/eval.jsonl, hit rate at k, tokens, latency, stale share")
        .option('--k <n>', `a question is a hit when an answering fact is among the first k recalled (1 to 50, default ${DEFAULT_EVAL_K})`)
        .option('--file <path>', `the golden questions file (default: <workspace>/${EVAL_FILE}; one {"question": …, "expected": …} per line)`)
        .option('--budget <tokens>', `token budget of the rendered block (default ${DEFAULT_PROMPT_BUDGET})`)
        .option('--min-hit-rate <rate>', 'exit 1 when the hit rate is below this (0 to 1), for CI')
        .addHelpText(
          'after',
          [
            '',
            'A recalled fact answers a question when it was extracted from the promoted memory, contains the expected text,',
            'or shares at least 60 % of its content words. Promoted lessons and task updates are not recorded locally: list them in eval.jsonl.',
            '',
            'Examples:',
            '  graphiti-harness eval',
            '  graphiti-harness eval --k 3 --json',
            '  graphiti-harness eval --endpoint http://localhost:8000 --min-hit-rate 0.8',
          ].join('\n'),
        ),
    ).action((raw: EvalOptions) => run(raw, (context) => evaluate(context, raw))),
  );
};

async function evaluate(context: CommandContext, raw: EvalOptions): Promise<ExitCode> {
  const { output, options } = context;
  const k = raw.k === undefined ? DEFAULT_EVAL_K : parseInteger(raw.k, '--k', { min: 1, max: 50 });
  const budget = raw.budget === undefined ? DEFAULT_PROMPT_BUDGET : parseInteger(raw.budget, '--budget', { min: 50, max: 200_000 });
  const minHitRate = raw.minHitRate === undefined ? undefined : parseRate(raw.minHitRate);
  const file = path.resolve(options.workspace, raw.file ?? EVAL_FILE);
  const fromFile = await readEvalFile(file);
  if (raw.file !== undefined && fromFile.length === 0) throw new UsageError(`--file ${JSON.stringify(raw.file)} holds no golden questions (resolved to ${file}); give a file with one {"question": …, "expected": …} per line.`);
  const memory = await openHarnessMemory(context, { maxFacts: k, needs: {} });
  const questions = [...(await promotedQuestions(memory)), ...fromFile];
  if (questions.length === 0) {
    throw new HarnessError(`no golden questions: this workspace has no promoted memories recorded for ${memory.endpoint.url}, and ${file} does not exist.`, {
      hint: 'Promote a memory (graphiti-harness promote "…" --kind decision) or write .graphiti-memory/eval.jsonl, then run eval again.',
    });
  }
  const scopes: readonly MemoryScope[] | 'auto' | 'all' | undefined = options.scopes === undefined ? undefined : options.scopes.kind === 'list' ? options.scopes.scopes : options.scopes.kind;
  const progress = output.progress('golden questions', questions.length);
  let report: EvalReport;
  try {
    report = await runEval(memory.recall, questions, {
      k,
      budget,
      timeoutMs: options.timeoutMs,
      ...(scopes === undefined ? {} : { scopes }),
      ...(options.session === undefined ? {} : { sessionId: options.session }),
      onProgress: (done) => progress.update(done),
    });
  } finally {
    progress.stop();
  }
  const belowMinimum = minHitRate !== undefined && report.hitRate < minHitRate;
  output.result({ ok: !belowMinimum, endpoint: memory.endpoint.url, emulator: memory.endpoint.emulator !== undefined, file, ...report });
  printReport(output, report, memory.endpoint.url, memory.endpoint.emulator !== undefined);
  if (belowMinimum) output.error(`the hit rate ${report.hitRate} is below --min-hit-rate ${minHitRate}.`, 'See the missed questions above; promote what recall should find, or check the endpoint.');
  return belowMinimum ? ExitCode.failure : ExitCode.ok;
}

/** One question per promoted memory of the workspace's local tier (workspace and user scope). */
async function promotedQuestions(memory: HarnessMemory): Promise<GoldenQuestion[]> {
  const tier = await memory.tier.read();
  return (tier?.promoted ?? []).map((promotion) => questionAbout({ kind: promotion.kind, text: promotion.text, ...(promotion.episodeUuid === undefined ? {} : { episodeUuid: promotion.episodeUuid }) }));
}

function parseRate(value: string): number {
  const rate = Number(value);
  if (value.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) throw new UsageError(`--min-hit-rate ${JSON.stringify(value)} is not a number from 0 to 1; write e.g. --min-hit-rate 0.8.`);
  return rate;
}

function printReport(output: Output, report: EvalReport, endpoint: string, emulator: boolean): void {
  output.line(`${report.questions.total} golden questions (${report.questions.fromPromotions} from promoted memories, ${report.questions.fromFile} from eval.jsonl) against ${endpoint}${emulator ? ' (the emulator, not Graphiti)' : ''}`);
  const rows = [
    ['figure', 'value'],
    [`hit rate at ${report.k}`, `${report.hitRate} (${report.hits}/${report.questions.total})`],
    ['tokens injected p50 / p95', `${report.tokens.p50} / ${report.tokens.p95}`],
    ['recall latency p50 / p95', `${report.latencyMs.p50} ms / ${report.latencyMs.p95} ms`],
    ['stale share', `${report.stale.share} (${report.stale.marked}/${report.stale.recalled} facts)`],
  ];
  const width = Math.max(...rows.map((row) => (row[0] ?? '').length));
  for (const [index, row] of rows.entries()) {
    const line = `${(row[0] ?? '').padEnd(width)}  ${row[1] ?? ''}`;
    output.line(index === 0 ? output.colors.bold(line) : line);
  }
  if (report.stale.note !== null) output.line(output.colors.dim(`note: ${report.stale.note}`));
  const misses = report.results.filter((result) => !result.hit);
  if (misses.length > 0) output.line(output.colors.yellow(`missed (${misses.length}):`));
  for (const miss of misses) output.line(`  ${miss.source === 'file' ? `eval.jsonl:${miss.line}` : 'promoted'}  ${miss.question}  (${miss.facts} facts, ${miss.outcome})`);
}
