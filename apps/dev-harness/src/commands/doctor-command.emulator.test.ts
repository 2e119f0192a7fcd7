// `doctor` in a throwaway HOME: a broken state has each problem named with its next step and a
// non-zero exit; the state `setup` leaves behind passes every check with exit 0.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHarness } from '../cli/program.js';
import type { DoctorCheck } from '../doctor/doctor-check.js';
import { capturedTerminal } from '../test-support/captured-terminal.js';
import { SAMPLE_TRANSCRIPT } from '../test-support/sample-transcript.js';

let root: string;
let home: string;
let emulator: RunningEmulator | undefined;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-doctor-'));
  home = path.join(root, 'home');
  await fs.mkdir(path.join(root, 'workspace'), { recursive: true });
  await fs.mkdir(path.join(root, 'empty-bin'));
  await fs.mkdir(home);
});

afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  await fs.rm(root, { recursive: true, force: true });
});

const environment = () => ({ HOME: home, PATH: path.join(root, 'empty-bin'), GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), GRAPHITI_MEMORY_STATE_DIR: path.join(root, 'state') });

async function harness(args: readonly string[]) {
  const terminal = capturedTerminal({ cwd: path.join(root, 'workspace'), env: environment() });
  const exitCode = await runHarness([...args], { terminal });
  return { exitCode, out: terminal.out(), err: terminal.err() };
}

async function doctor() {
  const run = await harness(['doctor', '--json']);
  const result = JSON.parse(run.out) as { ok: boolean; checks: DoctorCheck[] };
  const check = (id: string): DoctorCheck => {
    const found = result.checks.find((each) => each.id === id);
    if (found === undefined) throw new Error(`no check ${id} in ${run.out}`);
    return found;
  };
  return { ...run, result, check };
}

const OUR_HOOK = (runner: string, event: string) => `${process.execPath} ${runner} --event ${event} --installed-by graphiti-harness`;

describe('doctor', () => {
  it('names each broken thing with its next step and exits 1: no endpoint, a config typo, a missing runner, duplicate hook files, a dead letter', async () => {
    // A dead letter: Graphiti refused a write as invalid (422), with one attempt allowed.
    emulator = await startEmulator({ processingDelayMs: 1, faults: { messages: { errorRate: 1, errorStatus: 422 } } });
    const transcript = path.join(root, 'session.jsonl');
    await fs.writeFile(transcript, SAMPLE_TRANSCRIPT);
    const ingest = await harness(['ingest', transcript, '--granularity', 'turn', '--max-attempts', '1', '--endpoint', emulator.url, '--state-dir', path.join(root, 'state')]);
    expect(ingest.exitCode).toBe(1);
    await emulator.close();
    emulator = undefined;
    // A typo in the user config, and no endpoint anywhere.
    await fs.mkdir(path.join(root, 'config'), { recursive: true });
    await fs.writeFile(path.join(root, 'config', 'config.json'), JSON.stringify({ endpiont: 'http://127.0.0.1:8000' }, null, 2));
    // Claude Code's hooks run a runner that is gone.
    await fs.mkdir(path.join(home, '.claude'));
    const gone = path.join(root, 'moved-checkout', 'hook-runner.cjs');
    await fs.writeFile(path.join(home, '.claude', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: OUR_HOOK(gone, 'UserPromptSubmit') }] }] } }));
    // Copilot's hooks in two files: each event would run twice.
    const copilotHooks = path.join(home, '.copilot', 'hooks');
    await fs.mkdir(copilotHooks, { recursive: true });
    const present = path.join(root, 'runner.cjs');
    await fs.writeFile(present, '');
    const copilotFile = JSON.stringify({ version: 1, hooks: { userPromptSubmitted: [{ type: 'command', command: OUR_HOOK(present, 'UserPromptSubmit') }] } });
    await fs.writeFile(path.join(copilotHooks, 'graphiti-memory.json'), copilotFile);
    await fs.writeFile(path.join(copilotHooks, 'graphiti-memory-old.json'), copilotFile);

    const run = await doctor();
    expect(run.exitCode).toBe(1);
    expect(run.result.ok).toBe(false);
    expect(run.check('config')).toMatchObject({ ok: false });
    expect(run.check('config').summary).toContain('endpiont');
    expect(run.check('config').summary).toContain('did you mean `endpoint`');
    expect(run.check('endpoint')).toMatchObject({ ok: false, next: expect.stringContaining('graphiti-harness setup') });
    expect(run.check('hooks.claude')).toMatchObject({ ok: false });
    expect(run.check('hooks.claude').summary).toContain(gone);
    expect(run.check('hooks.claude').next).toContain('setup --target claude');
    expect(run.check('hooks.duplicates')).toMatchObject({ ok: false });
    expect(run.check('hooks.duplicates').summary).toContain('graphiti-memory-old.json');
    expect(run.check('outbox')).toMatchObject({ ok: false });
    expect(run.check('outbox').summary).toMatch(/[1-9]\d* dead-lettered/);
    expect(run.check('outbox').next).toContain('outbox list');
    for (const check of run.result.checks.filter((each) => !each.ok)) expect(check.next, check.id).toBeTruthy();

    const human = await harness(['doctor']);
    expect(human.exitCode).toBe(1);
    expect(human.out).toContain('→ graphiti-harness setup');
    expect(human.out).toContain('Memory does not work here yet');
  }, 90_000);

  it('passes every check after setup against a working Graphiti, and exits 0', async () => {
    emulator = await startEmulator({ processingDelayMs: 1 });
    await fs.mkdir(path.join(home, '.claude'));
    const setup = await harness(['setup', '--endpoint', emulator.url, '--yes']);
    expect(setup.exitCode, setup.err).toBe(0);
    const run = await doctor();
    expect(run.result.checks.filter((check) => !check.ok)).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.check('endpoint').summary).toContain('healthy');
    expect(run.check('hooks.claude').summary).toContain('installed');
    const human = await harness(['doctor']);
    expect(human.out).toContain('Memory works here.');
  }, 90_000);
});
