// `graphiti-harness eval` in-process against a real emulator over loopback HTTP: the hit rate is
// computed from real recalls, drops when a memory is missing from Graphiti, and bad golden lines
// fail with their line numbers.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeEmulatorCommands, openEmulatorCommands, runCommand, type EmulatorCommandsFixture } from '../test-support/emulator-commands.js';

let fixture: EmulatorCommandsFixture;
let emulator: RunningEmulator;
let folder: string;

/** The `eval --json` fields these tests read. */
interface EvalJson {
  readonly hitRate: number;
  readonly tokens: { readonly p50: number; readonly p95: number };
  readonly latencyMs: { readonly p50: number; readonly p95: number };
  readonly stale: Record<string, unknown>;
  readonly results: ReadonlyArray<{ readonly hit: boolean }>;
}

const harness = (args: readonly string[]) => runCommand(folder, [...args, '--endpoint', emulator.url]);
const evalFile = () => path.join(folder, 'workspace', '.graphiti-memory', 'eval.jsonl');

beforeEach(async () => {
  fixture = await openEmulatorCommands('harness-eval-');
  ({ emulator, folder } = fixture);
});

afterEach(() => closeEmulatorCommands(fixture));

async function promoteAndWriteGolden(): Promise<void> {
  for (const text of ['Releases are cut from the main branch only.', 'We deploy the billing API with Fly.io.']) {
    const promoted = await harness(['promote', text, '--kind', 'decision', '--scope', 'workspace']);
    expect(promoted.exitCode, promoted.err).toBe(0);
  }
  await fs.mkdir(path.dirname(evalFile()), { recursive: true });
  await fs.writeFile(evalFile(), `${JSON.stringify({ question: 'Which platform hosts the billing API?', expected: 'Fly.io' })}\n\n`);
  await emulator.idle();
}

describe('eval', () => {
  it('reports hit rate at k from real recalls, tokens, latency and stale share; a memory missing from Graphiti lowers the hit rate', async () => {
    await promoteAndWriteGolden();
    const first = await harness(['eval', '--json']);
    expect(first.exitCode, first.err).toBe(0);
    const report = first.json() as Record<string, unknown> & EvalJson;
    expect(Object.keys(report)).toEqual(['ok', 'endpoint', 'emulator', 'file', 'k', 'questions', 'hits', 'hitRate', 'tokens', 'latencyMs', 'stale', 'results']);
    expect(report).toMatchObject({ ok: true, emulator: false, k: 5, questions: { total: 3, fromPromotions: 2, fromFile: 1 }, hits: 3, hitRate: 1 });
    expect(report.tokens.p50).toBeGreaterThan(20);
    expect(report.tokens.p95).toBeGreaterThanOrEqual(report.tokens.p50);
    expect(report.latencyMs.p95).toBeGreaterThan(0);
    expect(report.stale).toMatchObject({ share: 0, marked: 0 });
    const searchesBefore = emulator.requests.filter((request) => request.route === 'search').length;

    // Graphiti loses the release decision's facts: its question misses, the others still hit.
    const lost = emulator.state.facts().filter((fact) => /main branch/.test(fact.fact));
    expect(lost.length).toBeGreaterThan(0);
    for (const fact of lost) expect((await fetch(`${emulator.url}/entity-edge/${fact.uuid}`, { method: 'DELETE' })).status).toBe(200);
    const second = await harness(['eval', '--json', '--min-hit-rate', '0.9']);
    expect(second.exitCode).toBe(1);
    const after = second.json() as Record<string, unknown> & EvalJson;
    expect(after).toMatchObject({ ok: false, hits: 2 });
    expect(after.hitRate).toBeCloseTo(0.667, 3);
    expect(after.results.filter((result) => !result.hit)).toEqual([expect.objectContaining({ source: 'promotion', question: expect.stringContaining('releases'), rank: null })]);
    // Every question was a real search of the emulator.
    expect(emulator.requests.filter((request) => request.route === 'search').length - searchesBefore).toBeGreaterThanOrEqual(3);
  });

  it('prints the figures as a table', async () => {
    await promoteAndWriteGolden();
    const table = await harness(['eval']);
    expect(table.exitCode, table.err).toBe(0);
    expect(table.out).toMatch(/hit rate at 5\s+1 \(3\/3\)/);
    expect(table.out).toMatch(/tokens injected p50 \/ p95\s+\d+ \/ \d+/);
    expect(table.out).toContain(`against ${emulator.url}`);
  });

  it('names each bad line of eval.jsonl with its number and what to write, and runs nothing', async () => {
    await fs.mkdir(path.dirname(evalFile()), { recursive: true });
    await fs.writeFile(evalFile(), ['{"question": "How do we deploy?", "expected": "Fly.io"}', 'not json', '{"question": "Which branch?"}', '{"question": "x", "expected": "y", "answer": 1}'].join('\n'));
    const run = await harness(['eval']);
    expect(run.exitCode).toBe(1);
    expect(run.err).toContain('has 3 bad lines');
    expect(run.err).toContain('line 2: not JSON');
    expect(run.err).toContain('line 3: "expected" must be a non-empty string');
    expect(run.err).toContain('line 4: unknown key "answer"');
    expect(run.err).toContain('{"question": "How do we deploy?", "expected": "Fly.io"}');
    expect(emulator.requests.filter((request) => request.route === 'search')).toEqual([]);
  });

  it('says what to do when there is nothing to ask', async () => {
    const run = await harness(['eval']);
    expect(run.exitCode).toBe(1);
    expect(run.err).toContain('no golden questions');
    expect(run.err).toContain('graphiti-harness promote');
  });
});
