// No session lost to a wrong endpoint: real hook processes capture a Claude Code session while the
// hooks point at https:// against an http Graphiti (the emulator); `hooks install` with the right
// URL moves what was queued there and says how many; every message then arrives exactly once.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { claudeTranscriptLine, harnessSucceeds, loggedRuns, messagesSent, queuedMessageNames, runNode, waitFor, type ProcessRun } from './hook-processes.js';
import { endHookTest, ensureBuilt, startHookTest, type HookTest } from './hook-server-fixture.js';

const runner = hookRunnerFile();
let test: HookTest;

beforeAll(() => ensureBuilt(), 300_000);
beforeEach(async () => {
  test = await startHookTest('wrong-endpoint-');
});
afterEach(() => endHookTest(test));

function hook(event: string, fields: Record<string, unknown> = {}): Promise<ProcessRun> {
  const input = { session_id: 'claude-session-1', transcript_path: path.join(test.root, 'claude.jsonl'), cwd: test.workspace, hook_event_name: event, ...fields };
  return runNode(test, [runner, '--event', event, '--installed-by', 'test'], JSON.stringify(input));
}

describe('a session captured under a wrong endpoint', () => {
  it('arrives exactly once after `hooks install` with the right endpoint, which says how many records it moved', { timeout: 180_000 }, async () => {
    const { emulator, stateDir, workspace } = test;
    const wrong = emulator.url.replace(/^http:/, 'https:');
    await harnessSucceeds(test, ['hooks', 'install', '--target', 'claude', '--endpoint', wrong, '--state-dir', stateDir]);
    const line = (type: 'user' | 'assistant', uuid: string, text: string, second: number): string => claudeTranscriptLine(type, uuid, text, { cwd: workspace, second });
    await fs.writeFile(path.join(test.root, 'claude.jsonl'), [line('user', 'u-1', 'Pin the Node version to 20.18.', 0), line('assistant', 'a-1', 'Pinned it in .nvmrc and engines.', 2)].join('\n') + '\n');
    expect((await hook('Stop', { stop_hook_active: false })).exitCode).toBe(0);
    expect((await hook('SessionEnd', { reason: 'prompt_input_exit' })).exitCode).toBe(0);
    // Queued for the wrong endpoint (nothing reached the emulator): one digest per group.
    await waitFor(async () => (await queuedMessageNames(test, wrong)).length === 2, 'two digests queued for the wrong endpoint');
    expect(messagesSent(emulator)).toEqual([]);
    // Today's trap: the next Stop finds nothing new (the turns were taken).
    await hook('Stop', { stop_hook_active: false });
    expect((await loggedRuns(stateDir)).filter((run) => run.event === 'Stop').at(-1)?.outcome).toBe('nothing-new');

    const fixed = await harnessSucceeds(test, ['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url, '--state-dir', stateDir]);
    expect(fixed.stdout).toContain(`moved 2 queued records from ${wrong}`);
    expect(await queuedMessageNames(test, wrong)).toEqual([]);
    expect(await queuedMessageNames(test, emulator.url)).toHaveLength(2);
    // `outbox list` shows them as queued, beside the dead letters.
    const listed = await harnessSucceeds(test, ['outbox', 'list', '--endpoint', emulator.url, '--state-dir', stateDir]);
    expect(listed.stdout).toContain('2 queued (not sent yet), 0 unconfirmed');
    expect(listed.stdout).toContain('No dead letters.');

    // The next event of the session: nothing is taken again; the drainer delivers what moved.
    expect((await hook('Stop', { stop_hook_active: false })).exitCode).toBe(0);
    expect((await loggedRuns(stateDir)).filter((run) => run.event === 'Stop').at(-1)?.outcome).toBe('nothing-new');
    await runNode(test, [runner, '--drain', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    await waitFor(() => messagesSent(emulator).length >= 2, 'the moved digests delivered');
    await waitFor(async () => (await queuedMessageNames(test, emulator.url)).length === 0, 'the outbox emptied');
    const sent = messagesSent(emulator);
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((message) => `${message.group}:${message.name}`)).size).toBe(2);
    for (const message of sent) expect(message.content).toContain('Pin the Node version to 20.18.');
  });
});
