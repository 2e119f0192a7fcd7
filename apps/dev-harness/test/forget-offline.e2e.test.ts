// Issue 20's forget, with real processes and files: the BUILT hook runner (and the drainer it
// starts), the harness binary, and the emulator over HTTP, stopped and started again on the same
// address, in a temporary HOME. A forget with Graphiti stopped succeeds and drops the queued turn;
// once Graphiti is back the next drain deletes the groups before it sends anything, and never the
// forgotten turn. A transcript resumed under a new session id after a forget sends none of the
// forgotten turns.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { claudeTranscriptLine, harnessSucceeds, loggedRuns, messagesSent, runNode, waitFor, queuedMessageNames, type ProcessRun } from './hook-processes.js';
import { capturePerMessage, endHookTest, ensureBuilt, harnessBinary, startHookTest, type HookTest } from './hook-server-fixture.js';

const runner = hookRunnerFile();

let test: HookTest;
let url: string;

const transcript = (session: string): string => path.join(test.root, `${session}.jsonl`);

function stop(session: string): Promise<ProcessRun> {
  const input = { session_id: session, transcript_path: transcript(session), cwd: test.workspace, hook_event_name: 'Stop', stop_hook_active: false };
  return runNode(test, [runner, '--event', 'Stop'], JSON.stringify(input));
}

/** Appends a finished turn (`u-<n>` / `a-<n>`) to the Claude Code transcript of `session`. */
async function addTurn(session: string, turn: number, question: string, answer: string): Promise<void> {
  const options = { cwd: test.workspace, sessionId: session, second: turn * 4 };
  const lines = [claudeTranscriptLine('user', `u-${turn}`, question, options), claudeTranscriptLine('assistant', `a-${turn}`, answer, { ...options, second: turn * 4 + 2 })];
  await fs.appendFile(transcript(session), `${lines.join('\n')}\n`);
}

const harness = (...args: string[]): Promise<ProcessRun> => harnessSucceeds(test, [...args, '--endpoint', url, '--state-dir', test.stateDir, '--workspace', test.workspace]);
const sentNames = (emulator: RunningEmulator): string[] => messagesSent(emulator).map((message) => message.name);
const ofTurn = (turn: number) => (name: string) => name.includes(`.turn.u-${turn}.`);
const drains = async (): Promise<string[]> => (await loggedRuns(test.stateDir)).filter((run) => run.event === 'drain').map((run) => run.outcome);

const queuedNames = (): Promise<string[]> => queuedMessageNames(test, url);

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('forget-offline-');
  url = test.emulator.url;
  await harnessSucceeds(test, ['hooks', 'install', '--target', 'claude', '--endpoint', url, '--state-dir', test.stateDir]);
  // Each turn its own episode, so the test can follow one turn's fate (digests: hook-runner.e2e's digest tests).
  await capturePerMessage(test);
});

afterEach(() => endHookTest(test));

describe('forget with Graphiti stopped', () => {
  it('succeeds and drops the queued turn; once Graphiti is back the next drain deletes the groups first and never delivers the forgotten turn', async () => {
    // Turn 1 is delivered: the workspace and session groups exist on the server.
    await addTurn('session-1', 1, 'We deploy the billing API with Fly.io.', 'Noted: Fly.io for billing.');
    expect(await stop('session-1')).toMatchObject({ exitCode: 0, stdout: '' });
    await waitFor(() => test.emulator.state.episodes().filter((episode) => ofTurn(1)(episode.name)).length === 4, 'turn 1 stored in both groups', 30_000);
    const groups = [...new Set(test.emulator.state.episodes().map((episode) => episode.group_id))].sort();
    expect(groups).toHaveLength(2);

    // Turn 2 waits in the outbox while Graphiti refuses sends; then Graphiti stops.
    test.emulator.setFaults({ messages: { errorRate: 1 } });
    await addTurn('session-1', 2, 'The staging database password rotates every Monday.', 'Noted: Monday rotation.');
    expect(await stop('session-1')).toMatchObject({ exitCode: 0, stdout: '' });
    await waitFor(() => sentNames(test.emulator).some(ofTurn(2)), 'the drainer to try turn 2');
    const port = Number(new URL(url).port);
    await test.emulator.close();

    const forgot = await runNode(test, [harnessBinary, 'forget', '--scope', 'workspace', '--yes', '--endpoint', url, '--state-dir', test.stateDir, '--workspace', test.workspace]);
    expect(forgot.exitCode, forgot.stderr).toBe(0);
    expect(forgot.stdout).toContain('is unreachable; queued memories were dropped; the groups will be deleted when it is back');
    expect(forgot.stdout).toContain('graphiti-harness forget --retry');
    expect(await queuedNames()).toEqual([]);

    // Graphiti is back at the same address (empty: the restart lost its state; its request log tells).
    const restarted = await startEmulator({ processingDelayMs: 1, port });
    test = { ...test, emulator: restarted };
    const drainsBefore = (await drains()).length;
    // The user goes on in the same chat: turn 3, and the next Stop starts a drainer.
    await addTurn('session-1', 3, 'Logs go to Grafana Loki.', 'Noted: Loki for logs.');
    expect(await stop('session-1')).toMatchObject({ exitCode: 0, stdout: '' });
    await waitFor(async () => (await drains()).slice(drainsBefore).some((outcome) => outcome === 'delivered'), 'a drain after Graphiti is back', 60_000);

    const requests = restarted.requests;
    const deletes = requests.filter((request) => request.route === 'delete-group').map((request) => decodeURIComponent(request.path.slice('/group/'.length)));
    expect(deletes.sort()).toEqual(groups);
    const firstSend = requests.findIndex((request) => request.route === 'messages');
    expect(requests.findLastIndex((request) => request.route === 'delete-group')).toBeLessThan(firstSend);
    const sent = sentNames(restarted);
    expect(sent.filter(ofTurn(2))).toEqual([]);
    expect(sent.filter(ofTurn(1))).toEqual([]);
    expect(sent.some(ofTurn(3))).toBe(true);
    // Nothing is owed any more: forget --retry has nothing to do.
    expect((await harness('forget', '--retry')).stdout).toContain('No group delete is owed');
  });
});

describe('a transcript resumed under a new session id after a forget', () => {
  it('sends none of the forgotten turns, into the new session group or any other; its new turns are sent', async () => {
    await addTurn('session-1', 1, 'We deploy the billing API with Fly.io.', 'Noted: Fly.io for billing.');
    await addTurn('session-1', 2, 'Releases are cut on Fridays.', 'Noted: Friday releases.');
    expect(await stop('session-1')).toMatchObject({ exitCode: 0, stdout: '' });
    await waitFor(() => test.emulator.state.episodes().filter((episode) => ofTurn(2)(episode.name)).length === 4, 'the turns stored', 30_000);
    await harness('forget', '--scope', 'workspace', '--yes');
    expect(test.emulator.state.episodes()).toEqual([]);
    test.emulator.clearRequests();

    // `claude --resume`: the earlier messages, with their uuids, copied into a new session's transcript; then a new turn.
    const copied = (await fs.readFile(transcript('session-1'), 'utf8')).replaceAll('"sessionId":"session-1"', '"sessionId":"session-2"');
    await fs.writeFile(transcript('session-2'), copied);
    await addTurn('session-2', 3, 'Logs go to Grafana Loki.', 'Noted: Loki for logs.');
    const drainsBefore = (await drains()).length;
    expect(await stop('session-2')).toMatchObject({ exitCode: 0, stdout: '' });
    await waitFor(async () => (await drains()).slice(drainsBefore).some((outcome) => outcome === 'delivered'), 'the drain of the resumed session', 60_000);

    const sent = sentNames(test.emulator);
    expect(sent.some(ofTurn(3))).toBe(true);
    expect(sent.filter((name) => ofTurn(1)(name) || ofTurn(2)(name))).toEqual([]);
    expect(test.emulator.state.episodes().every((episode) => ofTurn(3)(episode.name))).toBe(true);
  });
});
