// End to end: the BUILT binary, spawned as a user runs it, against a real emulator over HTTP.
// Builds dist first when it is missing (turbo's test task depends on build, so it usually exists).
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_TRANSCRIPT } from '../src/test-support/sample-transcript.js';
import { runProcess, type ProcessRun } from './hook-processes.js';
import { ensureHarnessBuilt, harnessBinary, packageFolder } from './hook-server-fixture.js';

const environment = { ...process.env, NO_COLOR: '1', GRAPHITI_API_KEY: '', GRAPHITI_MEMORY_CONFIG_DIR: path.join(os.tmpdir(), `graphiti-harness-e2e-config-${process.pid}`) };

function harness(args: readonly string[], options: { cwd?: string; killAfterMs?: number } = {}): Promise<ProcessRun> {
  return runProcess(process.execPath, [harnessBinary, ...args], '', environment, options.cwd ?? packageFolder, options.killAfterMs);
}

let emulator: RunningEmulator;
let folder: string;

beforeAll(async () => {
  await ensureHarnessBuilt();
  emulator = await startEmulator({ processingDelayMs: 1 });
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-e2e-'));
}, 120_000);

afterAll(async () => {
  await emulator.close();
  await fs.rm(folder, { recursive: true, force: true });
});

describe('graphiti-harness (built binary)', () => {
  it('runs the demo, offline, and every check passes', async () => {
    const run = await harness(['demo']);
    expect(run.stderr).toContain('EMULATOR');
    expect(run.stdout).toContain('<graphiti_memory>');
    expect(run.stdout).toContain('Demo passed.');
    expect(run.stdout).not.toContain('✘');
    expect(run.exitCode).toBe(0);
  }, 60_000);

  it('ingests a jsonl transcript with --wait, and a second run sends nothing new', async () => {
    const file = path.join(folder, 'session.jsonl');
    await fs.writeFile(file, SAMPLE_TRANSCRIPT);
    const state = path.join(folder, 'state-ingest');
    const first = await harness(['ingest', file, '--granularity', 'turn', '--wait', '30', '--json', '--endpoint', emulator.url, '--state-dir', state]);
    expect(first.exitCode).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ enqueued: 8, sent: 8, confirmed: 8, dropped: 0, deadLettered: 0 });
    const second = await harness(['ingest', file, '--granularity', 'turn', '--wait', '30', '--json', '--endpoint', emulator.url, '--state-dir', state]);
    expect(second.exitCode).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ enqueued: 0, sent: 0, confirmed: 0 });
  }, 60_000);

  it('after a killed run, running it again delivers every message exactly once', async () => {
    const slow = await startEmulator({ processingDelayMs: 600 });
    try {
      const file = path.join(folder, 'killed.jsonl');
      await fs.writeFile(file, SAMPLE_TRANSCRIPT);
      const state = path.join(folder, 'state-killed');
      const killed = await harness(['ingest', file, '--granularity', 'turn', '--wait', '60', '--endpoint', slow.url, '--state-dir', state], { killAfterMs: 2_500 });
      expect(killed.exitCode).toBeNull();
      const again = await harness(['ingest', file, '--granularity', 'turn', '--wait', '60', '--json', '--endpoint', slow.url, '--state-dir', state]);
      expect(again.exitCode).toBe(0);
      await slow.idle();
      // Each message once per group: the same turn goes to the session and the workspace group.
      const keys = slow.state.episodes().map((episode) => `${episode.group_id}:${episode.name}`);
      expect(keys.length).toBe(8);
      expect(new Set(keys).size).toBe(8);
    } finally {
      await slow.close();
    }
  }, 90_000);

  it('recall --json has facts, timedOut, elapsedMs and the rendered prompt', async () => {
    const run = await harness(['recall', 'what does the team use for installs', '--scopes', 'workspace', '--json', '--endpoint', emulator.url, '--state-dir', path.join(folder, 'state-ingest')]);
    expect(run.exitCode).toBe(0);
    const result = JSON.parse(run.stdout) as { facts: Array<Record<string, unknown>>; timedOut: boolean; elapsedMs: number; prompt: string };
    expect(result.timedOut).toBe(false);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(result.facts.length).toBeGreaterThan(0);
    for (const key of ['fact', 'valid_at', 'invalid_at', 'scope']) expect(result.facts[0]).toHaveProperty(key);
    expect(result.prompt).toContain('<graphiti_memory>');
  }, 60_000);

  it('fails with exit 1 and names the URL when nothing listens there', async () => {
    const closed = await startEmulator();
    const url = closed.url;
    await closed.close();
    const run = await harness(['health', '--endpoint', url]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(url);
    expect(run.stderr).toMatch(/refused|cannot reach/);
  }, 30_000);

  it('gives up on a hanging endpoint within its timeout', async () => {
    const hanging = await startEmulator({ faults: { '*': { hangRate: 1 } } });
    try {
      const run = await harness(['recall', 'anything', '--endpoint', hanging.url, '--timeout-ms', '500', '--state-dir', path.join(folder, 'state-hang')]);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toContain('500 ms');
      // Process start, the timeout, and cleanup bounded by the request timeout: far below the wait of a hang.
      expect(run.elapsedMs).toBeLessThan(10_000);
    } finally {
      await hanging.close();
    }
  }, 30_000);

  it('skips and counts malformed transcript lines without crashing', async () => {
    const file = path.join(folder, 'broken.jsonl');
    await fs.writeFile(file, `garbage\n${SAMPLE_TRANSCRIPT}\n{"role": 7}\n{"unterminated": \n`);
    const run = await harness(['ingest', file, '--granularity', 'turn', '--format', 'jsonl', '--wait', '30', '--json', '--endpoint', emulator.url, '--state-dir', path.join(folder, 'state-broken')]);
    expect(run.exitCode).toBe(0);
    const result = JSON.parse(run.stdout) as { malformedLines: number; confirmed: number };
    expect(result.malformedLines).toBeGreaterThanOrEqual(2);
    expect(result.confirmed).toBe(8);
  }, 60_000);

  it('exits 2 on bad usage', async () => {
    const unknownCommand = await harness(['frobnicate']);
    expect(unknownCommand.exitCode, unknownCommand.stderr).toBe(2);
    const badOption = await harness(['recall', 'x', '--timeout-ms', 'soon']);
    expect(badOption.exitCode).toBe(2);
    expect(badOption.stderr).toContain('--timeout-ms');
  }, 30_000);

  it('forget --scope workspace after an ingest leaves none of the groups the run wrote', async () => {
    const forgetting = await startEmulator({ processingDelayMs: 1 });
    try {
      const file = path.join(folder, 'forget.jsonl');
      await fs.writeFile(file, SAMPLE_TRANSCRIPT);
      const state = path.join(folder, 'state-forget');
      const ingested = await harness(['ingest', file, '--granularity', 'turn', '--session', 'forget-me', '--wait', '30', '--json', '--endpoint', forgetting.url, '--state-dir', state]);
      expect(ingested.exitCode, ingested.stderr).toBe(0);
      const written = new Set(forgetting.state.episodes().map((episode) => episode.group_id));
      expect([...written].some((groupId) => groupId.startsWith('gm_session_'))).toBe(true);
      expect([...written].some((groupId) => groupId.startsWith('gm_workspace_'))).toBe(true);
      const forgot = await harness(['forget', '--scope', 'workspace', '--yes', '--json', '--endpoint', forgetting.url, '--state-dir', state]);
      expect(forgot.exitCode, forgot.stderr).toBe(0);
      const result = JSON.parse(forgot.stdout) as { deletedGroups: string[]; dequeued: number };
      expect(new Set(result.deletedGroups)).toEqual(written);
      expect(result.dequeued).toBe(0);
      expect(forgetting.state.episodes()).toEqual([]);
    } finally {
      await forgetting.close();
    }
  }, 90_000);

  it('prints help with examples for every command', async () => {
    for (const command of ['demo', 'health', 'smoke', 'ingest', 'recall', 'promote', 'edit', 'episodes', 'forget', 'pending', 'ui', 'audit', 'track', 'bench']) {
      const run = await harness([command, '--help']);
      expect(run.exitCode, `${command}: ${run.stderr}`).toBe(0);
      expect(run.stdout, command).toContain('Examples:');
    }
    // Fourteen processes one after another: a busy 2-core machine takes several seconds each.
  }, 240_000);
});
