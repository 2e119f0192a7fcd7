// The warm path of the agent hook: the BUILT dist/hook-runner.cjs hands events to the per-user hook
// server, against the emulator over HTTP, in real processes. Which process answered is read from
// the run log (`via`), never from timing.
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { updateConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOOK_SERVER_PROTOCOL, hookServerPlace, hookServerStatus, pingHookServer, processAlive, runnerBuild, runningHookServers, waitUntilGone, type HookServerPlace, type HookServerStatus } from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { additionalContext, harnessSucceeds, loggedRuns as readLoggedRuns, runNode, waitFor, waitForValue, type LoggedRun, type ProcessRun } from './hook-processes.js';
import { endHookTest, ensureBuiltRunner, startHookTest, stopHookServer, type HookTest } from './hook-server-fixture.js';

const runner = hookRunnerFile();
const dist = path.dirname(runner);

let test: HookTest;
let emulator: RunningEmulator;
let root: string;
let stateDir: string;
let workspace: string;
let env: NodeJS.ProcessEnv;
let place: HookServerPlace;
/** The build of dist/hook-runner.cjs. */
let build: string;

/** Each prompt is its own session: within one session, memory says a fact once (said-once.e2e.test.ts). */
let sessions = 0;
const prompt = (text = 'Which package manager do we use here?'): string =>
  JSON.stringify({ session_id: `session-${++sessions}`, transcript_path: path.join(root, 'none.jsonl'), cwd: workspace, hook_event_name: 'UserPromptSubmit', prompt: text });

function hook(stdin = prompt(), script = runner): Promise<ProcessRun> {
  return runNode(test, [script, '--event', 'UserPromptSubmit'], stdin);
}

const loggedRuns = (): Promise<LoggedRun[]> => readLoggedRuns(stateDir);

async function lastRun(): Promise<LoggedRun | undefined> {
  return (await loggedRuns()).at(-1);
}

/** The running server of `of` (default: dist's build), once it answers. */
function serverUp(of = build): Promise<HookServerStatus & { running: true }> {
  return waitForValue(async () => {
    const status = await hookServerStatus(env, of);
    return status.running ? status : undefined;
  }, `a hook server of build ${of}`);
}

function serverDown(of = build): Promise<void> {
  return waitFor(async () => !(await hookServerStatus(env, of)).running, `the hook server of build ${of} to leave`);
}

const harness = (args: readonly string[]): Promise<ProcessRun> => harnessSucceeds(test, args);

const OTHER_BUILD = '0123456789ab';

/** Installed with consent and one promoted fact; no event has run yet. */
async function installWithFact(): Promise<void> {
  await harness(['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url, '--state-dir', stateDir]);
  // install's own health probe of the endpoint is not a hook's request: the tests count those.
  emulator.clearRequests();
  await harness(['promote', 'We always use pnpm as the package manager in this repository.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
  await emulator.idle();
}

/** Installed with consent, one promoted fact; the first event answers in-process and starts the server. */
async function warmServer(): Promise<HookServerStatus & { running: true }> {
  await installWithFact();
  const first = await hook();
  expect(additionalContext(first)).toContain('We always use pnpm');
  expect(await lastRun()).toMatchObject({ outcome: 'context', via: 'in-process' });
  return serverUp();
}

/** The built runner relabelled as another build (its core copied under that build's name). */
async function otherBuild(build: string): Promise<string> {
  // The core the entry names: turbo's cache may leave an older build's core beside it.
  const current = runnerBuild(runner);
  if (current === undefined) throw new Error('dist/hook-runner.cjs names no hook-runner-core-*.cjs beside it: build agent-hooks');
  const core = `hook-runner-core-${current}.cjs`;
  const folder = path.join(root, 'other-runner');
  await fs.mkdir(folder, { recursive: true });
  const entryText = await fs.readFile(runner, 'utf8');
  expect(entryText).toContain(current);
  await fs.writeFile(path.join(folder, 'hook-runner.cjs'), entryText.replaceAll(current, build));
  await fs.copyFile(path.join(dist, core), path.join(folder, `hook-runner-core-${build}.cjs`));
  return path.join(folder, 'hook-runner.cjs');
}

beforeAll(async () => {
  build = await ensureBuiltRunner();
}, 300_000);

beforeEach(async () => {
  test = await startHookTest('hook-server-');
  ({ emulator, root, stateDir, workspace, env } = test);
  const found = hookServerPlace(env, build);
  if (found === undefined) throw new Error('no private folder for the hook server');
  place = found;
});

afterEach(() => endHookTest(test));

describe('the hook server', () => {
  it('is started by the first event (answered in-process) and serves the next; status shows it', async () => {
    const server = await warmServer();
    expect(processAlive(server.pid)).toBe(true);
    if (process.platform !== 'win32') {
      expect((await fs.stat(place.socket)).mode & 0o777).toBe(0o600);
      expect((await fs.stat(path.dirname(place.socket))).mode & 0o777).toBe(0o700);
    }
    const second = await hook();
    expect(second.exitCode).toBe(0);
    expect(additionalContext(second)).toContain('We always use pnpm');
    expect(await lastRun()).toMatchObject({ event: 'UserPromptSubmit', outcome: 'context', via: 'server' });
    const status = JSON.parse((await harness(['hooks', 'status', '--json', '--state-dir', stateDir])).stdout) as { server: HookServerStatus };
    expect(status.server).toMatchObject({ running: true, pid: server.pid, build: server.build, socket: place.socket });
  });

  it('killed with SIGKILL: the next event still answers (in-process) and a new server takes over', async () => {
    const server = await warmServer();
    process.kill(server.pid, 'SIGKILL');
    expect(await waitUntilGone([server.pid], 20_000), 'the killed server to be gone').toBe(true);
    const after = await hook();
    expect(after.exitCode).toBe(0);
    expect(additionalContext(after)).toContain('We always use pnpm');
    expect(await lastRun()).toMatchObject({ outcome: 'context', via: 'in-process' });
    const replacement = await serverUp();
    expect(replacement.pid).not.toBe(server.pid);
    await hook();
    expect(await lastRun()).toMatchObject({ outcome: 'context', via: 'server' });
  });

  it('one server under races: of several started at once, one serves and the others leave', async () => {
    await harness(['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url, '--state-dir', stateDir]);
    // install's own health probe of the endpoint is not a hook's request: the tests count those.
    emulator.clearRequests();
    const servers = [0, 1, 2].map(() => spawn(process.execPath, [runner, '--serve'], { env, stdio: 'ignore' }));
    // Two leave on their own; the one left is the one that answers.
    await waitFor(() => servers.filter((child) => child.exitCode === null && child.signalCode === null).length === 1, 'two of three servers to leave');
    const survivor = servers.find((child) => child.exitCode === null && child.signalCode === null);
    expect((await serverUp()).pid).toBe(survivor?.pid);
  });

  it('servers of two builds coexist: alternating events of both are served warm, each by its own', async () => {
    await installWithFact();
    const other = await otherBuild(OTHER_BUILD);
    // Each build's first event runs in its runner's own process and starts that build's server.
    await hook(prompt(), other);
    expect(await lastRun()).toMatchObject({ outcome: 'context', via: 'in-process', build: OTHER_BUILD });
    const otherServer = await serverUp(OTHER_BUILD);
    await hook();
    expect(await lastRun()).toMatchObject({ outcome: 'context', via: 'in-process', build });
    const ownServer = await serverUp();
    expect(ownServer.pid).not.toBe(otherServer.pid);
    expect(ownServer.socket).not.toBe(otherServer.socket);
    for (let round = 0; round < 3; round++) {
      for (const [script, of] of [[other, OTHER_BUILD], [runner, build]] as const) {
        const run = await hook(prompt(), script);
        expect(additionalContext(run)).toContain('We always use pnpm');
        expect(await lastRun()).toMatchObject({ outcome: 'context', via: 'server', build: of });
      }
    }
    // Neither replaced the other: the same two processes answered all along.
    expect((await serverUp(OTHER_BUILD)).pid).toBe(otherServer.pid);
    expect((await serverUp()).pid).toBe(ownServer.pid);
    const status = JSON.parse((await harness(['hooks', 'status', '--json', '--state-dir', stateDir])).stdout) as { server: HookServerStatus; otherServers: unknown[] };
    expect(status.server).toMatchObject({ running: true, pid: ownServer.pid, build });
    expect(status.otherServers).toEqual([{ pid: otherServer.pid, since: otherServer.since, build: OTHER_BUILD, socket: otherServer.socket }]);
  });

  it.skipIf(process.platform === 'win32')('a runner never talks to a server of another build, even one on its own socket, and leaves it running', async () => {
    await installWithFact();
    const other = await otherBuild(OTHER_BUILD);
    await hook(prompt(), other);
    const otherServer = await serverUp(OTHER_BUILD);
    // This build's socket leads to the other build's server.
    await fs.symlink(otherServer.socket, place.socket);
    const before = (await loggedRuns()).length;
    const run = await hook();
    expect(additionalContext(run)).toContain('We always use pnpm');
    // One run, by this build's runner itself: the other server refused the event and ran nothing.
    expect((await loggedRuns()).slice(before)).toEqual([expect.objectContaining({ outcome: 'context', via: 'in-process', build })]);
    // A server of this build finds the other build on its socket and leaves, without stopping it.
    const server = spawn(process.execPath, [runner, '--serve'], { env, stdio: 'ignore' });
    expect(await new Promise((resolve) => server.on('exit', resolve))).toBe(0);
    expect(processAlive(otherServer.pid)).toBe(true);
    expect((await runningHookServers(env)).map((server) => server.pid)).toEqual([otherServer.pid]);
    await hook(prompt(), other);
    expect(await lastRun()).toMatchObject({ via: 'server', build: OTHER_BUILD });
  });

  it('a killed server of another build: its socket and info file are removed by the next server that starts', async () => {
    await installWithFact();
    const other = await otherBuild(OTHER_BUILD);
    await hook(prompt(), other);
    const otherServer = await serverUp(OTHER_BUILD);
    const otherPlace = hookServerPlace(env, OTHER_BUILD);
    process.kill(otherServer.pid, 'SIGKILL');
    expect(await waitUntilGone([otherServer.pid], 20_000), 'the killed server to be gone').toBe(true);
    expect(existsSync(otherPlace?.info ?? '')).toBe(true);
    await hook();
    await serverUp();
    await waitFor(() => !existsSync(otherPlace?.info ?? ''), "the dead server's info file to be removed");
    if (process.platform !== 'win32') expect(existsSync(otherPlace?.socket ?? '')).toBe(false);
  });

  it('reads config and consent for every event: enabled: false and a revoked consent apply at once, with no network call', async () => {
    await warmServer();
    await fs.writeFile(path.join(workspace, '.graphiti-memory.json'), JSON.stringify({ enabled: false }));
    let requests = emulator.requests.length;
    const disabled = await hook();
    expect(disabled).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await lastRun()).toMatchObject({ outcome: 'disabled', via: 'server' });
    expect(emulator.requests).toHaveLength(requests);
    // Memory off: nothing to keep warm.
    await serverDown();

    await fs.rm(path.join(workspace, '.graphiti-memory.json'));
    await hook();
    await serverUp();
    await updateConfigFile(userConfigPath(env), { consent: undefined });
    requests = emulator.requests.length;
    const revoked = await hook();
    expect(revoked).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await lastRun()).toMatchObject({ outcome: 'no-consent', via: 'server' });
    expect(emulator.requests).toHaveLength(requests);
    await serverDown();
  });

  it('holds the deadline against a hanging Graphiti: exit 0, nothing printed, logged as missed', async () => {
    await warmServer();
    emulator.setFaults({ search: { hangRate: 1 } });
    const run = await hook(prompt('What is the deploy process for the billing service?'));
    expect(run).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(await lastRun()).toMatchObject({ outcome: 'missed', detail: 'deadline', via: 'server' });
  });

  it.runIf(process.platform === 'linux')('200 stalled connections with partial 7 MB frames: the server stays small and serves the next event', async () => {
    const server = await warmServer();
    // One 7 MB buffer, a request never finished, written to every connection (not copied per socket).
    const partial = Buffer.alloc(7 * 1024 * 1024, 'x');
    partial.write('{"kind":"hook","stdinText":"');
    const closed = Array.from({ length: 200 }, () =>
      new Promise<void>((resolve) => {
        const socket = net.connect(place.socket, () => socket.write(partial));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve());
      }),
    );
    await Promise.all(closed);
    const answer = await pingHookServer(place, build, HOOK_SERVER_PROTOCOL, 'ping', 2_000);
    expect(answer).toMatchObject({ kind: 'pong', pid: server.pid });
    const connections = answer?.kind === 'pong' ? answer.connections : undefined;
    expect((connections?.refused ?? 0) + (connections?.oversized ?? 0) + (connections?.timedOut ?? 0)).toBe(200);
    expect(connections?.oversized).toBeGreaterThanOrEqual(1);
    // The server's peak resident memory, from the kernel.
    const peak = /VmHWM:\s+(\d+) kB/.exec(await fs.readFile(`/proc/${server.pid}/status`, 'utf8'))?.[1];
    expect(Number(peak) * 1024).toBeLessThan(150 * 1024 * 1024);
    const served = await hook();
    expect(additionalContext(served)).toContain('We always use pnpm');
    expect(await lastRun()).toMatchObject({ outcome: 'context', via: 'server' });
  });

  it('garbage on stdin: exit 0, nothing printed, logged as bad input', async () => {
    await warmServer();
    const run = await hook('this is not json {');
    expect(run).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(await lastRun()).toMatchObject({ outcome: 'bad-input', via: 'server' });
  });

  it.skipIf(process.platform === 'win32')('a wedged server that never takes the event is bypassed: the runner answers itself', async () => {
    await warmServer();
    await stopHookServer(env);
    // Something listens on the socket and reads, but answers nothing (a wedged server).
    const stuck = net.createServer((socket) => socket.on('data', () => undefined));
    await new Promise<void>((resolve) => stuck.listen(place.socket, resolve));
    try {
      const bypassed = await hook();
      expect(additionalContext(bypassed)).toContain('We always use pnpm');
      expect(await lastRun()).toMatchObject({ outcome: 'context', via: 'in-process' });
    } finally {
      stuck.close();
    }
  });

  it.skipIf(process.platform === 'win32')('a server that takes the event and never answers: exit 0, nothing printed', async () => {
    await warmServer();
    await stopHookServer(env);
    const stuck = net.createServer((socket) => socket.on('data', () => socket.write(`${JSON.stringify({ kind: 'accepted' })}\n`)));
    await new Promise<void>((resolve) => stuck.listen(place.socket, resolve));
    try {
      const runsBefore = await lastRun();
      const run = await hook();
      expect(run).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
      // The event was the (wedged) server's: the runner did not run it as well.
      expect(await lastRun()).toEqual(runsBefore);
    } finally {
      stuck.close();
    }
  });
});
