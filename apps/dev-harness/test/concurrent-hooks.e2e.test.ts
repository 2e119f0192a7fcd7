// Issue 20's crowd: ten agent hook processes at once through one warm hook server, as ten chat
// windows of one user would start them: the BUILT dist/hook-runner.cjs against the emulator over
// HTTP. Every prompt prints its context, every Stop is queued and delivered once, and no run fails
// (the state files each request writes never share a temporary name).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hookServerStatus } from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { claudeTranscriptLine, hookTestTools, loggedRuns, messagesSent, printedContext, runNode, waitFor, waitForValue, type ProcessRun } from './hook-processes.js';
import { capturePerMessage, endHookTest, ensureBuiltRunner, startHookTest, type HookTest } from './hook-server-fixture.js';

const runner = hookRunnerFile();
const CROWD = 10;
const PROMPT = 'Which package manager do we use here?';

let test: HookTest;
let emulator: RunningEmulator;
let tools: ReturnType<typeof hookTestTools>;
let build: string;

function hook(event: string, session: string, fields: Record<string, unknown> = {}): Promise<ProcessRun> {
  const input = { session_id: session, transcript_path: path.join(test.root, `${session}.jsonl`), cwd: test.workspace, hook_event_name: event, ...fields };
  return runNode(test, [runner, '--event', event], JSON.stringify(input));
}

async function writeTranscript(session: string, turn: number): Promise<void> {
  const options = { cwd: test.workspace, sessionId: session, second: turn * 4 };
  const lines = [
    claudeTranscriptLine('user', `${session}-u-${turn}`, `Session ${session} asks: which queue handles job ${turn}?`, options),
    claudeTranscriptLine('assistant', `${session}-a-${turn}`, `Session ${session} answers: the jobs queue handles job ${turn}.`, { ...options, second: turn * 4 + 2 }),
  ];
  await fs.appendFile(path.join(test.root, `${session}.jsonl`), `${lines.join('\n')}\n`);
}

/**
 * Every prompt of `runs` printed its context, except those its runner left at its deadline (the
 * server names them in hook.log: `late runner-left-before-the-answer`): on two shared cores a
 * crowd of node processes can pass a prompt's deadline, and then nothing is printed by design.
 * Prompts of one session print a fact once (say it once): the others log `said-before`.
 * No run failed, and nothing was missing on disk (ENOENT).
 */
async function everyPromptPrinted(prompts: readonly ProcessRun[], oneSession = false): Promise<void> {
  for (const run of prompts) expect(run.exitCode, run.stderr).toBe(0);
  const log = await fs.readFile(path.join(test.stateDir, 'hooks', 'hook.log'), 'utf8').catch(() => '');
  expect(log).not.toMatch(/ENOENT|failed/);
  const late = log.split('\n').filter((line) => line.includes('UserPromptSubmit late runner-left-before-the-answer')).length;
  const saidBefore = oneSession ? (await loggedRuns(test.stateDir)).filter((run) => run.event === 'UserPromptSubmit' && run.outcome === 'said-before').length : 0;
  const silent = prompts.filter((run) => run.stdout === '');
  if (oneSession) expect(silent.length, 'no prompt of the session printed the decision').toBeLessThan(prompts.length);
  expect(silent.length, `${silent.length} prompts printed nothing; hook.log names ${late} late, the runs log ${saidBefore} said before`).toBeLessThanOrEqual(late + saidBefore);
  for (const run of prompts) if (run.stdout !== '') expect(printedContext(run)).toContain('We always use pnpm');
  const failed = (await loggedRuns(test.stateDir)).filter((run) => run.outcome === 'failed');
  expect(failed, JSON.stringify(failed)).toEqual([]);
}

beforeAll(async () => {
  build = await ensureBuiltRunner();
}, 300_000);

beforeEach(async () => {
  test = await startHookTest('concurrent-hooks-');
  emulator = test.emulator;
  tools = hookTestTools(test);
  // A long recall deadline: this is about ten requests sharing one server and one state folder,
  // not about speed (two shared cores start twenty node processes slowly; deadlines have their own tests).
  await tools.harness('hooks', 'install', '--target', 'claude', '--timeout-ms', '5000');
  // Each turn its own episode at its Stop (the crowd is about Stops racing; digests have their own tests).
  await capturePerMessage(test);
  await tools.harness('promote', 'We always use pnpm as the package manager in this repository.', '--kind', 'decision', '--scope', 'workspace');
  await emulator.idle();
  // The first event runs in the runner's own process and starts the one warm server. Its recall
  // is cached in the tier: a crowd on two cores may pass a prompt's deadline, and then the tier
  // answers (outcome `cached`), as designed; what must never happen is a failed run.
  expect(printedContext(await hook('UserPromptSubmit', 'warm-up', { prompt: PROMPT }))).toContain('We always use pnpm');
  await waitForValue(async () => ((await hookServerStatus(test.env, build)).running ? true : undefined), 'the hook server');
  // Install, promote and a cold first event: on two cores shared with a crowd, more than vitest's 20 s.
}, 60_000);

afterEach(() => endHookTest(test));

describe(`${CROWD} hook processes at once through one warm hook server`, () => {
  it('every UserPromptSubmit prints its context, each answered by the server, none failed', async () => {
    const sessions = Array.from({ length: CROWD }, (_, index) => `prompt-${index}`);
    const runs = await Promise.all(sessions.map((session) => hook('UserPromptSubmit', session, { prompt: PROMPT })));
    await everyPromptPrinted(runs);
    // A runner the server did not accept in time runs the event itself: at least ten runs.
    const logged = (await loggedRuns(test.stateDir)).filter((run) => run.event === 'UserPromptSubmit').slice(1);
    expect(logged.length).toBeGreaterThanOrEqual(CROWD);
    // The warm server took them (a runner it does not accept within 150 ms runs the event itself).
    expect(logged.filter((run) => run.via === 'server').length).toBeGreaterThan(0);
  });

  it('prompts and Stops of ten sessions at once: every prompt prints, every Stop is queued, each message delivered once', async () => {
    const sessions = Array.from({ length: CROWD }, (_, index) => `session-${index}`);
    await Promise.all(sessions.map((session) => writeTranscript(session, 1)));
    const runs = await Promise.all(
      sessions.flatMap((session) => [hook('UserPromptSubmit', session, { prompt: PROMPT }), hook('Stop', session, { stop_hook_active: false })]),
    );
    await everyPromptPrinted(runs.filter((_, index) => index % 2 === 0));
    for (const run of runs.filter((_, index) => index % 2 === 1)) expect(run).toMatchObject({ exitCode: 0, stdout: '' });
    const stops = (await loggedRuns(test.stateDir)).filter((run) => run.event === 'Stop');
    expect(stops.length).toBeGreaterThanOrEqual(CROWD);
    // A runner the server did not accept in time runs its Stop itself, and the server may run it
    // too: the second finds nothing new (the delivery ledger refuses it). Each session's turn is
    // queued by exactly one of them.
    expect(stops.every((run) => run.outcome === 'queued' || run.outcome === 'nothing-new'), JSON.stringify(stops)).toBe(true);
    expect(stops.filter((run) => run.outcome === 'queued'), JSON.stringify(stops)).toHaveLength(CROWD);

    // Each session's turn: user + assistant into its session and the workspace group.
    await waitFor(() => new Set(messagesSent(emulator).map((message) => `${message.group}\n${message.name}`)).size >= CROWD * 4, `${CROWD * 4} messages`, 60_000);
    await emulator.idle();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const sent = messagesSent(emulator).filter((message) => message.name.includes('.turn.'));
    expect(new Set(sent.map((message) => `${message.group}\n${message.name}`)).size).toBe(CROWD * 4);
    expect(sent).toHaveLength(CROWD * 4);
  });

  it('ten Stops and ten prompts of one session at once (one transcript, one ledger, one tier): all succeed, the turns are delivered once', async () => {
    for (let turn = 1; turn <= 3; turn++) await writeTranscript('shared', turn);
    const runs = await Promise.all(
      Array.from({ length: CROWD }, () => [hook('Stop', 'shared', { stop_hook_active: false }), hook('UserPromptSubmit', 'shared', { prompt: PROMPT })]).flat(),
    );
    await everyPromptPrinted(runs.filter((_, index) => index % 2 === 1), true);
    for (const run of runs.filter((_, index) => index % 2 === 0)) expect(run).toMatchObject({ exitCode: 0, stdout: '' });
    const stops = (await loggedRuns(test.stateDir)).filter((run) => run.event === 'Stop');
    expect(stops.length).toBeGreaterThanOrEqual(CROWD);
    expect(stops.every((run) => run.outcome === 'queued' || run.outcome === 'nothing-new'), JSON.stringify(stops)).toBe(true);
    // The three turns are queued by one Stop; the others find them taken or already queued.
    expect(stops.filter((run) => run.outcome === 'queued'), JSON.stringify(stops)).toHaveLength(1);
    await waitFor(() => new Set(messagesSent(emulator).map((message) => `${message.group}\n${message.name}`)).size >= 12, '12 messages', 60_000);
    await emulator.idle();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const sent = messagesSent(emulator).filter((message) => message.name.includes('.turn.'));
    expect(sent).toHaveLength(12);
    expect(new Set(sent.map((message) => `${message.group}\n${message.name}`)).size).toBe(12);
  });
});
