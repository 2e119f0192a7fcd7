// The local tier across tools, with real processes: `graphiti-harness promote` and `forget` (the
// built CLI) and the BUILT hook runner, against the emulator over HTTP, then with Graphiti stopped.
// A promote shows in the next brief before any recall refreshed the cache; a cold tier asks
// Graphiti; a forget leaves nothing in the brief or the cached recall; the brief lists a promoted
// decision once.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, stopHookServer, temporaryHookHome } from './hook-server-fixture.js';

const packageFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runner = hookRunnerFile();
const harnessBinary = path.join(packageFolder, 'bin', 'graphiti-harness.js');

interface Run {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let emulator: RunningEmulator;
let root: string;
let stateDir: string;
let workspace: string;
let env: NodeJS.ProcessEnv;

function spawnRun(args: readonly string[], stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { cwd: workspace, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

async function harness(...args: string[]): Promise<Run> {
  const run = await spawnRun([harnessBinary, ...args, '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
  expect(run.exitCode, run.stderr).toBe(0);
  return run;
}

/** A Claude Code hook event of `session`. */
function hook(event: string, session: string, fields: Record<string, unknown> = {}): Promise<Run> {
  const input = { session_id: session, transcript_path: path.join(root, `${session}.jsonl`), cwd: workspace, hook_event_name: event, ...fields };
  return spawnRun([runner, '--event', event, '--installed-by', 'test'], JSON.stringify(input));
}

function printed(run: Run): string {
  expect(run.exitCode).toBe(0);
  if (run.stdout === '') return '';
  return (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

beforeAll(() => ensureBuilt(packageFolder, runner), 300_000);

beforeEach(async () => {
  emulator = await startEmulator({ processingDelayMs: 1 });
  ({ root, stateDir, workspace, env } = await temporaryHookHome('local-tier-'));
  await harness('hooks', 'install', '--target', 'claude');
});

afterEach(async () => {
  await stopHookServer(env);
  await emulator.close();
  // A detached drainer may still be writing; give it a moment, then remove everything.
  await new Promise((resolve) => setTimeout(resolve, 200));
  await fs.rm(root, { recursive: true, force: true });
});

describe('the local tier across tools', () => {
  it('shows a decision promoted with the CLI in the next brief, with Graphiti stopped before any recall', async () => {
    await harness('promote', 'Releases are cut from the main branch only.', '--kind', 'decision', '--scope', 'workspace');
    await emulator.close();
    const brief = printed(await hook('SessionStart', 'session-1', { source: 'startup' }));
    expect(brief).toContain('[workspace decision] Releases are cut from the main branch only.');
  });

  it('lists the decision once, and after a CLI forget prints nothing of it in the brief or the cached recall', async () => {
    await harness('promote', 'Releases are cut from the main branch only.', '--kind', 'decision', '--scope', 'workspace');
    // Promoted from another state folder (another machine's tool): only Graphiti knows it.
    const elsewhere = await spawnRun([harnessBinary, 'promote', 'Answer in British English.', '--kind', 'preference', '--scope', 'workspace', '--endpoint', emulator.url, '--state-dir', path.join(root, 'other-state'), '--workspace', workspace]);
    expect(elsewhere.exitCode, elsewhere.stderr).toBe(0);
    await emulator.idle();
    // A recall brings the fact Graphiti extracted from the decision into the tier; a brief lists the decision once.
    expect(printed(await hook('UserPromptSubmit', 'session-1', { prompt: 'Which branch are releases cut from?' }))).toContain('main branch');
    const brief = printed(await hook('SessionStart', 'session-2', { source: 'startup' }));
    expect(brief).toContain('[workspace decision] Releases are cut from the main branch only.');
    expect(brief.match(/main branch/g)).toHaveLength(1);
    // The tier had only what this machine did (a promote, a recall): cold, so SessionStart asked Graphiti.
    expect(brief).toContain('[workspace preference] Answer in British English.');

    await harness('forget', '--scope', 'workspace', '--yes');
    await emulator.close();
    expect(printed(await hook('SessionStart', 'session-3', { source: 'startup' }))).toBe('');
    expect(printed(await hook('UserPromptSubmit', 'session-3', { prompt: 'Which branch are releases cut from?' }))).toBe('');
  });
});
