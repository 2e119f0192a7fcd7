// Issue 31.1 with real processes: the built hook runner (and the hook server and drainer it
// starts), the harness binary, and the emulator over HTTP, stopped and started again on the same
// address. An outage is not a failure: turns captured by several sessions while Graphiti is down
// wait (with backoff, never counted as attempts) and are delivered once, with no further command,
// when it is back; a drainer asked to leave is replaced by the next hook event of any session; a
// write Graphiti refuses (422) still becomes a dead letter, and `hooks status` and the SessionStart
// footer (`systemMessage`, to the user) say so. Short drain timing through the environment.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { startEmulator } from '@graphiti-memory/graphiti-emulator';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { endpointStateFiles, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { claudeTranscriptLine, harnessSucceeds, loggedRuns, messagesSent, runNode, waitFor, type ProcessRun } from './hook-processes.js';
import { capturePerMessage, endHookTest, ensureBuilt, startHookTest, type HookTest } from './hook-server-fixture.js';

const runner = hookRunnerFile();
/** The drainer's rounds and longest retry wait, in milliseconds instead of minutes. */
const FAST_DRAIN = { GRAPHITI_MEMORY_DRAIN_ROUND_MS: '500', GRAPHITI_MEMORY_DRAIN_RETRY_MAX_MS: '300' };

let test: HookTest;
let url: string;

const transcript = (session: string): string => path.join(test.root, `${session}.jsonl`);

function hook(event: string, session: string, fields: Record<string, unknown> = {}): Promise<ProcessRun> {
  const input = { session_id: session, transcript_path: transcript(session), cwd: test.workspace, hook_event_name: event, ...fields };
  return runNode(test, [runner, '--event', event], JSON.stringify(input), { env: FAST_DRAIN });
}

async function addTurn(session: string, turn: number): Promise<void> {
  const options = { cwd: test.workspace, sessionId: session, second: turn * 4 };
  const lines = [
    claudeTranscriptLine('user', `${session}-u-${turn}`, `In ${session}, decision ${turn}: the cache lives in Redis ${turn}.`, options),
    claudeTranscriptLine('assistant', `${session}-a-${turn}`, `Noted for ${session}: Redis ${turn}.`, { ...options, second: turn * 4 + 2 }),
  ];
  await fs.appendFile(transcript(session), `${lines.join('\n')}\n`);
}

const outboxDirectory = (): string => endpointStateFiles(test.stateDir, normaliseEndpoint(url) ?? url).outboxDirectory;

/** How many sends the drainer took back as outages (journal lines `pending` with `outage`). */
async function outageSends(): Promise<number> {
  const names = await fs.readdir(outboxDirectory()).catch(() => [] as string[]);
  let count = 0;
  for (const name of names.filter((candidate) => candidate.endsWith('.journal'))) {
    const text = await fs.readFile(path.join(outboxDirectory(), name), 'utf8').catch(() => '');
    count += text.split('"outage":true').length - 1;
  }
  return count;
}

async function drainerPid(): Promise<number | undefined> {
  try {
    return (JSON.parse(await fs.readFile(sharedStateFiles(test.stateDir).drainerInfo, 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

async function hooksStatus(): Promise<{ deadLetters: number; waiting: number; text: string }> {
  const json = JSON.parse((await harnessSucceeds(test, ['hooks', 'status', '--state-dir', test.stateDir, '--json'])).stdout) as { deadLetters: number; waiting: number };
  const text = (await harnessSucceeds(test, ['hooks', 'status', '--state-dir', test.stateDir])).stdout;
  return { ...json, text };
}

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('outage-delivery-');
  url = test.emulator.url;
  await harnessSucceeds(test, ['hooks', 'install', '--target', 'claude', '--endpoint', url, '--state-dir', test.stateDir]);
  await capturePerMessage(test);
});

afterEach(() => endHookTest(test));

describe('Graphiti stopped under several sessions, then back', { timeout: 180_000 }, () => {
  it('delivers every captured turn exactly once with no further command and no dead letter; a drainer asked to leave is replaced by a later prompt of another session', async () => {
    const port = Number(new URL(url).port);
    await test.emulator.close();
    const sessions = ['session-a', 'session-b', 'session-c', 'session-d'];
    for (const session of sessions) {
      await addTurn(session, 1);
      await addTurn(session, 2);
      expect(await hook('Stop', session, { stop_hook_active: false })).toMatchObject({ exitCode: 0, stdout: '' });
    }
    // Far more refused sends than maxAttempts (8): none of them counts.
    await waitFor(async () => (await outageSends()) >= 24, 'the drainer to retry through the outage', 60_000);
    expect((await hooksStatus()).deadLetters).toBe(0);

    // The drainer is asked to leave (as a forget or an uninstall would); records still wait.
    const first = await drainerPid();
    expect(first).toBeDefined();
    process.kill(first!, 'SIGTERM');
    await waitFor(async () => (await drainerPid()) === undefined, 'the drainer to leave');
    // A prompt of a session that captured nothing starts a new one: the outbox holds records.
    expect(await hook('UserPromptSubmit', 'session-e', { prompt: 'where does the cache live?' })).toMatchObject({ exitCode: 0 });
    await waitFor(async () => {
      const pid = await drainerPid();
      return pid !== undefined && pid !== first;
    }, 'a drainer started by the prompt', 30_000);

    // Graphiti is back at the same address: no command, no hook event; the waiting drainer delivers.
    const restarted = await startEmulator({ processingDelayMs: 1, port });
    test = { ...test, emulator: restarted };
    const expected = sessions.length * 2 * 2 * 2; // sessions × turns × (user, assistant) × (session, workspace group)
    await waitFor(() => restarted.state.episodes().length >= expected, 'every captured turn stored', 90_000);
    await waitFor(async () => (await loggedRuns(test.stateDir)).some((run) => run.event === 'drain' && run.outcome === 'delivered'), 'the drain to end delivered', 60_000);

    const stored = restarted.state.episodes().map((episode) => `${episode.group_id} ${episode.name}`);
    expect(stored).toHaveLength(expected);
    expect(new Set(stored).size).toBe(expected);
    const sent = messagesSent(restarted).map((message) => `${message.group} ${message.name}`);
    expect(new Set(sent).size).toBe(sent.length);
    const status = await hooksStatus();
    expect(status).toMatchObject({ deadLetters: 0, waiting: 0 });
    expect(status.text).toContain('delivery: nothing waits long, no dead letters');
  });
});

describe('a write Graphiti refuses as invalid', { timeout: 120_000 }, () => {
  it('still becomes a dead letter, named by hooks status and by the SessionStart footer to the user (systemMessage), never in the model context', async () => {
    test.emulator.setFaults({ messages: { errorRate: 1, errorStatus: 422 } });
    await addTurn('session-a', 1);
    expect(await hook('Stop', 'session-a', { stop_hook_active: false })).toMatchObject({ exitCode: 0, stdout: '' });
    await waitFor(async () => (await hooksStatus()).deadLetters > 0, 'the refused turn to become a dead letter', 60_000);
    const status = await hooksStatus();
    expect(status.text).toMatch(/delivery: Graphiti Memory: \d+ captured messages? (was|were) not stored and will not be sent again on their own \(dead letters\)/);
    expect(status.text).toContain('graphiti-harness outbox list');

    const started = await hook('SessionStart', 'session-b', { source: 'startup' });
    expect(started.exitCode).toBe(0);
    const output = JSON.parse(started.stdout) as { systemMessage?: string; hookSpecificOutput?: { additionalContext?: string } };
    expect(output.systemMessage).toContain('(dead letters)');
    expect(output.systemMessage?.split('\n')).toHaveLength(1);
    expect(output.hookSpecificOutput?.additionalContext ?? '').not.toContain('dead letters');
  });
});
