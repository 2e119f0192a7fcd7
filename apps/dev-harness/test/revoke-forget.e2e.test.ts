// Issue 19's "Revoke does not stop" and "Forget is not gone", across tools, with real processes
// and files: the BUILT dist/hook-runner.cjs (and the hook server and drainer it starts), the
// harness binary, and the emulator over HTTP, in a temporary HOME.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { FileMemorySwitches, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { processAlive, runnerBuild, runningHookServers, waitUntilGone } from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { claudeTranscriptLine, harnessSucceeds, loggedRuns as readLoggedRuns, runNode, waitFor, queuedMessageNames, type LoggedRun, type ProcessRun } from './hook-processes.js';
import { capturePerMessage, endHookTest, ensureBuilt, startHookTest, type HookTest } from './hook-server-fixture.js';

const runner = hookRunnerFile();

let test: HookTest;
let emulator: RunningEmulator;
let root: string;
let stateDir: string;
let workspace: string;
let env: NodeJS.ProcessEnv;

function hook(event: string, fields: Record<string, unknown>, folder = workspace): Promise<ProcessRun> {
  const input = { session_id: 'claude-session-1', transcript_path: path.join(root, 'claude.jsonl'), cwd: folder, hook_event_name: event, ...fields };
  return runNode(test, [runner, '--event', event], JSON.stringify(input), { cwd: folder });
}

const prompt = (folder = workspace): Promise<ProcessRun> => hook('UserPromptSubmit', { prompt: 'Which package manager do we use here?' }, folder);
const harness = (args: readonly string[]): Promise<ProcessRun> => harnessSucceeds(test, args);
const loggedRuns = (): Promise<LoggedRun[]> => readLoggedRuns(stateDir);
const claudeLine = (type: 'user' | 'assistant', uuid: string, text: string, second: number): string => claudeTranscriptLine(type, uuid, text, { cwd: workspace, second });

const messageRequests = () => emulator.requests.filter((request) => request.route === 'messages');
const searches = () => emulator.requests.filter((request) => request.route === 'search').length;

/** Installed for Claude Code; a transcript with one finished turn whose Stop was queued, while Graphiti refuses every send. */
async function queuedWhileGraphitiFails(): Promise<void> {
  await harness(['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url, '--state-dir', stateDir]);
  // install's own health probe of the endpoint is not a hook's request: the tests count those.
  emulator.clearRequests();
  await capturePerMessage(test);
  emulator.setFaults({ messages: { errorRate: 1 } });
  await fs.writeFile(path.join(root, 'claude.jsonl'), [claudeLine('user', 'u-1', 'Deploy the billing API with Fly.io.', 0), claudeLine('assistant', 'a-1', 'Noted: Fly.io for billing.', 2)].join('\n') + '\n');
  const stop = await hook('Stop', { stop_hook_active: false });
  expect(stop).toMatchObject({ exitCode: 0, stdout: '' });
  expect((await loggedRuns()).filter((run) => run.event === 'Stop').map((run) => run.outcome)).toEqual(['queued']);
  // The detached drainer runs and keeps retrying the refused sends.
  await waitFor(() => messageRequests().length > 0, 'the drainer to try a send');
}

const queuedNames = (): Promise<string[]> => queuedMessageNames(test, emulator.url);

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('revoke-forget-');
  ({ emulator, root, stateDir, workspace, env } = test);
});

afterEach(() => endHookTest(test));

describe('a revoke recorded in the shared memory switches', () => {
  it('silences the hooks of that workspace at once (hook server included): nothing printed, no request; another workspace still works', async () => {
    await harness(['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url, '--state-dir', stateDir]);
    // install's own health probe of the endpoint is not a hook's request: the tests count those.
    emulator.clearRequests();
    await capturePerMessage(test);
    await harness(['promote', 'We always use pnpm as the package manager in this repository.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    await emulator.idle();
    expect((await prompt()).stdout).toContain('We always use pnpm');
    // The first event started the hook server: the revoke must hold on its warm path too.
    const build = runnerBuild(runner);
    await waitFor(async () => (await runningHookServers(env)).some((server) => server.build === build), 'the hook server');

    await FileMemorySwitches.inStateFolder(stateDir).mark({ workspace, switch: 'revoked' }, 'vscode');
    emulator.clearRequests();
    const revoked = await prompt();
    expect(revoked).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(emulator.requests).toHaveLength(0);
    expect((await loggedRuns()).at(-1)).toMatchObject({ event: 'UserPromptSubmit', outcome: 'no-consent' });
    // A folder inside the revoked workspace is covered too.
    const inner = path.join(workspace, 'packages', 'api');
    await fs.mkdir(inner, { recursive: true });
    expect(await prompt(inner)).toMatchObject({ exitCode: 0, stdout: '' });
    expect(emulator.requests).toHaveLength(0);

    const other = path.join(root, 'other-repo');
    await fs.mkdir(other, { recursive: true });
    const elsewhere = await prompt(other);
    expect(elsewhere.exitCode).toBe(0);
    expect(searches()).toBeGreaterThan(0);
    expect((await loggedRuns()).at(-1)).toMatchObject({ event: 'UserPromptSubmit' });
    expect((await loggedRuns()).at(-1)?.outcome).not.toBe('no-consent');

    // Consent given again (the mark cleared): the workspace is served again (in a new session: the
    // first one was already given the decision, and memory says a fact once per session).
    await FileMemorySwitches.inStateFolder(stateDir).clear({ workspace, switch: 'revoked' });
    const again = await hook('UserPromptSubmit', { prompt: 'Which package manager do we use here?', session_id: 'claude-session-2' });
    expect(again.stdout).toContain('We always use pnpm');
  });
});

describe('the background drainer', () => {
  it('notices a revoke in the switches while it retries, and leaves without a stop request; the queue stays', async () => {
    await queuedWhileGraphitiFails();
    const drainerInfo = JSON.parse(await fs.readFile(sharedStateFiles(stateDir).drainerInfo, 'utf8')) as { pid: number };
    await FileMemorySwitches.inStateFolder(stateDir).mark({ endpoint: emulator.url, switch: 'revoked' }, 'vscode');
    expect(await waitUntilGone([drainerInfo.pid], 3_000), 'the drainer to leave').toBe(true);
    expect((await loggedRuns()).filter((run) => run.event === 'drain').at(-1)).toMatchObject({ outcome: 'no-consent' });
    emulator.setFaults({});
    const sendsBefore = messageRequests().length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(messageRequests()).toHaveLength(sendsBefore);
    expect((await queuedNames()).length).toBeGreaterThan(0);
  });
});

describe('hooks uninstall', () => {
  it('stops every hook server and the drainer at once; what was queued stays on disk, unsent', async () => {
    await queuedWhileGraphitiFails();
    const build = runnerBuild(runner);
    await waitFor(async () => (await runningHookServers(env)).some((server) => server.build === build), 'the hook server');
    const servers = await runningHookServers(env);
    const drainerInfo = JSON.parse(await fs.readFile(sharedStateFiles(stateDir).drainerInfo, 'utf8')) as { pid: number };
    expect(processAlive(drainerInfo.pid)).toBe(true);

    const uninstalled = JSON.parse((await harness(['hooks', 'uninstall', '--json', '--state-dir', stateDir])).stdout) as { revokedEndpoints: string[]; stopped: { servers: number; drainer: boolean } };
    const leftAt = Date.now();
    expect(await waitUntilGone([...servers.map((server) => server.pid), drainerInfo.pid], 1_000), 'no hook process left').toBe(true);
    expect(Date.now() - leftAt).toBeLessThanOrEqual(1_000);
    expect(await runningHookServers(env)).toEqual([]);
    expect(uninstalled.stopped).toMatchObject({ drainer: true });
    expect(uninstalled.revokedEndpoints).toEqual([normaliseEndpoint(emulator.url)]);

    // Graphiti answers again: nothing is sent, and the turn waits in the outbox on disk.
    emulator.setFaults({});
    const sendsBefore = messageRequests().length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(messageRequests()).toHaveLength(sendsBefore);
    expect(emulator.state.episodes()).toEqual([]);
    expect((await queuedNames()).length).toBeGreaterThan(0);
    // The endpoint's revoke holds for every hook, even with a consent put back in config by hand.
    const revoked = await FileMemorySwitches.inStateFolder(stateDir).read();
    expect(revoked.ok && Object.keys(revoked.switches.endpoints)).toEqual([normaliseEndpoint(emulator.url)]);
    const status = await harness(['hooks', 'status', '--state-dir', stateDir]);
    expect(status.stdout).toContain(`endpoint ${normaliseEndpoint(emulator.url)}: consent revoked`);
  });
});

describe('forget through the harness while a turn is queued', () => {
  it('drops the turn the drainer holds: it is never delivered, and a new Stop on the same transcript does not send it again', async () => {
    await queuedWhileGraphitiFails();
    const forgot = await harness(['forget', '--scope', 'workspace', '--yes', '--json', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    expect((JSON.parse(forgot.stdout) as { dequeued: number }).dequeued).toBeGreaterThan(0);
    expect(await queuedNames()).toEqual([]);

    // Graphiti answers again; a new Stop on the same transcript starts a drainer.
    emulator.setFaults({});
    const drainsBefore = (await loggedRuns()).filter((run) => run.event === 'drain').length;
    const again = await hook('Stop', { stop_hook_active: false });
    expect(again).toMatchObject({ exitCode: 0, stdout: '' });
    expect((await loggedRuns()).filter((run) => run.event === 'Stop').map((run) => run.outcome)).toEqual(['queued', 'nothing-new']);
    await waitFor(async () => (await loggedRuns()).filter((run) => run.event === 'drain' && ['delivered', 'pending'].includes(run.outcome)).length > 0 && (await loggedRuns()).filter((run) => run.event === 'drain').length > drainsBefore, 'a drain after the forget', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(messageRequests().filter((request) => request.status === 202)).toEqual([]);
    expect(emulator.state.episodes()).toEqual([]);
  });
});
