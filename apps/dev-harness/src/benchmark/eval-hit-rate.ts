// eval.hit_rate_at_5: `graphiti-harness eval` (the command itself, in process) against an
// emulator over HTTP, on memories promoted with `graphiti-harness promote` and a small
// eval.jsonl. The emulator's lexical search is not Graphiti's: this checks the measurement and
// the recall path end to end; run `graphiti-harness eval --endpoint URL` for a real server's figure.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Terminal } from '../terminal/terminal.js';
import { capturedTerminalFor } from './bench-terminal.js';
import type { BenchmarkResult } from './benchmark-result.js';
import { promoteMemories, withBenchWorkspace, type BenchMemory } from './bench-workspace.js';

export const EVAL_HIT_RATE_GOAL = 0.8;

const MEMORIES: readonly BenchMemory[] = [
  ['decision', 'Releases are cut from the main branch only.'],
  ['decision', 'We deploy the billing API with Fly.io.'],
  ['preference', 'Answers are written in British English.'],
  ['procedure', 'Database migrations run through the migrate script before every deploy.'],
  ['terminology', 'A tenant is one customer organisation with its own schema.'],
];

const GOLDEN = [
  { question: 'Where does the billing API run?', expected: 'Fly.io' },
  { question: 'When do database migrations run?', expected: 'migrate script' },
  { question: 'What is a tenant?', expected: 'customer organisation' },
];

export async function measureEvalHitRate(): Promise<BenchmarkResult> {
  return withBenchWorkspace('graphiti-eval-bench-', async (bench) => {
    const { root, workspace, emulator, env } = bench;
    await fs.mkdir(path.join(workspace, '.graphiti-memory'), { recursive: true });
    await fs.writeFile(path.join(workspace, '.graphiti-memory', 'eval.jsonl'), GOLDEN.map((line) => JSON.stringify(line)).join('\n'));
    const common = ['--endpoint', emulator.url, '--state-dir', path.join(root, 'state'), '--workspace', workspace];
    await promoteMemories(bench, MEMORIES, common);
    let out = '';
    const terminal: Terminal = { ...capturedTerminalFor(workspace, env), stdout: { write: (text: string) => ((out += text), true), isTTY: false }, stdin: Readable.from([]) };
    const exitCode = await bench.harness(['eval', '--json', ...common], terminal);
    if (exitCode !== 0) throw new Error(`graphiti-harness eval exited ${exitCode}`);
    const report = JSON.parse(out) as { hitRate: number; hits: number; questions: { total: number }; tokens: { p50: number; p95: number }; latencyMs: { p50: number; p95: number }; stale: { share: number } };
    return {
      name: 'eval.hit_rate_at_5',
      value: report.hitRate,
      unit: 'hit rate',
      baseline: 1,
      ratio: report.hitRate,
      goal: `>= ${EVAL_HIT_RATE_GOAL}`,
      pass: report.hitRate >= EVAL_HIT_RATE_GOAL && report.questions.total === MEMORIES.length + GOLDEN.length,
      details: { questions: report.questions.total, hits: report.hits, tokensP50: report.tokens.p50, tokensP95: report.tokens.p95, latencyP50Ms: report.latencyMs.p50, latencyP95Ms: report.latencyMs.p95, staleShare: report.stale.share, server: 'emulator' },
    };
  });
}
