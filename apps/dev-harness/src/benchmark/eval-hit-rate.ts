// eval.hit_rate_at_5: `graphiti-harness eval` (the command itself, in process) against an
// emulator over HTTP, on memories promoted with `graphiti-harness promote` and a small
// eval.jsonl. The emulator's lexical search is not Graphiti's: this checks the measurement and
// the recall path end to end; run `graphiti-harness eval --endpoint URL` for a real server's figure.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { startEmulator } from '@graphiti-memory/graphiti-emulator';
import type { Terminal } from '../terminal/terminal.js';
import { capturedTerminalFor } from './bench-terminal.js';
import type { BenchmarkResult } from './benchmark-result.js';

export const EVAL_HIT_RATE_GOAL = 0.8;

const MEMORIES: ReadonlyArray<readonly [string, string]> = [
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
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'graphiti-eval-bench-'));
  const emulator = await startEmulator({ processingDelayMs: 1 });
  try {
    const workspace = path.join(root, 'workspace');
    await fs.mkdir(path.join(workspace, '.graphiti-memory'), { recursive: true });
    await fs.writeFile(path.join(workspace, '.graphiti-memory', 'eval.jsonl'), GOLDEN.map((line) => JSON.stringify(line)).join('\n'));
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: root, GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config') };
    const common = ['--endpoint', emulator.url, '--state-dir', path.join(root, 'state'), '--workspace', workspace];
    const { runHarness } = await import('../cli/program.js');
    for (const [kind, text] of MEMORIES) await runHarness(['promote', text, '--kind', kind, '--scope', 'workspace', ...common], { terminal: capturedTerminalFor(workspace, env) });
    await emulator.idle();
    let out = '';
    const terminal: Terminal = { ...capturedTerminalFor(workspace, env), stdout: { write: (text: string) => ((out += text), true), isTTY: false }, stdin: Readable.from([]) };
    const exitCode = await runHarness(['eval', '--json', ...common], { terminal });
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
  } finally {
    await emulator.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}
