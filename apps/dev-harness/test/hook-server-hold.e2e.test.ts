// The hook server through an idle while: an agent session it served that is still open keeps it, so
// the session's first prompt after a break is served warm (issue 22's cold hook); the session's end,
// or memory closing for it, lets it go after the next idle while, as a server with no session always
// did. The BUILT runner in real processes against the emulator; the idle while is shortened with
// GRAPHITI_MEMORY_HOOK_SERVER_IDLE_MS in the environment that starts the server. Who answered is read
// from the run log (`via`), never from timing.
import path from 'node:path';
import { updateConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { HOOK_SERVER_IDLE_VARIABLE, hookServerStatus, type HookServerStatus } from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { additionalContext, harnessSucceeds, loggedRuns, runNode, waitFor, waitForValue, type ProcessRun } from './hook-processes.js';
import { endHookTest, ensureBuiltRunner, startHookTest, type HookTest } from './hook-server-fixture.js';

const runner = hookRunnerFile();
const IDLE_MS = 300;
/** Several idle whiles: a server that would leave after one has long left. */
const SEVERAL_IDLE_WHILES_MS = 6 * IDLE_MS;

let test: HookTest;
let build: string;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function event(name: string, sessionId: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ session_id: sessionId, transcript_path: path.join(test.root, 'none.jsonl'), cwd: test.workspace, hook_event_name: name, ...extra });
}

/** Runs one event with the short idle while (the server it starts inherits it). */
function hook(stdin: string, idleMs = IDLE_MS): Promise<ProcessRun> {
  return runNode(test, [runner], stdin, { env: { [HOOK_SERVER_IDLE_VARIABLE]: String(idleMs) } });
}

async function lastRun(): Promise<{ event: string; outcome: string; via?: string } | undefined> {
  return (await loggedRuns(test.stateDir)).at(-1);
}

function serverUp(): Promise<HookServerStatus & { running: true }> {
  return waitForValue(async () => {
    const status = await hookServerStatus(test.env, build);
    return status.running ? status : undefined;
  }, 'the hook server');
}

const serverRunning = async (): Promise<boolean> => (await hookServerStatus(test.env, build)).running;

/** Installed with consent, one promoted fact; a SessionStart of `sessionId` ran (in-process) and started the server. */
async function sessionStarted(sessionId: string): Promise<HookServerStatus & { running: true }> {
  await harnessSucceeds(test, ['hooks', 'install', '--target', 'claude', '--endpoint', test.emulator.url, '--state-dir', test.stateDir]);
  await harnessSucceeds(test, ['promote', 'We always use pnpm as the package manager in this repository.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', test.emulator.url, '--state-dir', test.stateDir, '--workspace', test.workspace]);
  await test.emulator.idle();
  const start = await hook(event('SessionStart', sessionId, { source: 'startup' }));
  expect(start.exitCode).toBe(0);
  expect(await lastRun()).toMatchObject({ event: 'SessionStart', via: 'in-process' });
  return serverUp();
}

beforeAll(async () => {
  build = await ensureBuiltRunner();
}, 300_000);

beforeEach(async () => {
  test = await startHookTest('hook-server-hold-');
});

afterEach(() => endHookTest(test));

describe('the hook server through an idle while', () => {
  it('stays for an open session: its first prompt after the break is served warm; its SessionEnd lets the server go', async () => {
    const server = await sessionStarted('break-session');
    await sleep(SEVERAL_IDLE_WHILES_MS);
    const held = await hookServerStatus(test.env, build);
    expect(held).toMatchObject({ running: true, pid: server.pid, openSessions: 1 });
    const status = await harnessSucceeds(test, ['hooks', 'status', '--state-dir', test.stateDir]);
    expect(status.stdout).toContain('kept warm for 1 open agent session');

    // The session's brief already gave its decision (said once): the recall runs, on the warm server, and adds nothing.
    const prompt = await hook(event('UserPromptSubmit', 'break-session', { prompt: 'Which package manager do we use?' }));
    expect(prompt.stdout).toBe('');
    expect(await lastRun()).toMatchObject({ event: 'UserPromptSubmit', outcome: 'said-before', via: 'server' });
    // Another session's first prompt, after another break: the same warm server gives it the decision.
    await sleep(SEVERAL_IDLE_WHILES_MS);
    const other = await hook(event('UserPromptSubmit', 'other-session', { prompt: 'Which package manager do we use?' }));
    expect(additionalContext(other)).toContain('We always use pnpm');
    expect(await lastRun()).toMatchObject({ event: 'UserPromptSubmit', outcome: 'context', via: 'server' });
    expect(await hookServerStatus(test.env, build)).toMatchObject({ running: true, pid: server.pid, openSessions: 2 });
    await hook(event('SessionEnd', 'other-session', { reason: 'prompt_input_exit' }));

    const end = await hook(event('SessionEnd', 'break-session', { reason: 'prompt_input_exit' }));
    expect(end.exitCode).toBe(0);
    expect(await lastRun()).toMatchObject({ event: 'SessionEnd', via: 'server' });
    await waitFor(async () => !(await serverRunning()), 'the server to leave after the session ended', 10_000);
  });

  it('lets go of a session whose memory was turned off while it was idle', async () => {
    await sessionStarted('off-session');
    await sleep(2 * IDLE_MS);
    expect(await serverRunning()).toBe(true);
    // Turned off in the user config (as `graphiti-harness disable` or the extension's setting would): no event comes.
    await updateConfigFile(userConfigPath(test.env), { enabled: false });
    await waitFor(async () => !(await serverRunning()), 'the server to leave once memory is off for its only session', 10_000);
  });

  it('an event that names no session holds nothing: the server leaves after the idle while, as before', async () => {
    await harnessSucceeds(test, ['hooks', 'install', '--target', 'claude', '--endpoint', test.emulator.url, '--state-dir', test.stateDir]);
    // A longer idle while here: the server must be seen up before it leaves, on a busy machine too.
    const start = await hook(JSON.stringify({ cwd: test.workspace, hook_event_name: 'SessionStart' }), 1_500);
    expect(start.exitCode).toBe(0);
    await serverUp();
    await waitFor(async () => !(await serverRunning()), 'the server to leave', 10_000);
  });
});
