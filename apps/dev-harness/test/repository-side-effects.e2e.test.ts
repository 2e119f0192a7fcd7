// A repository is not ours: an extracted archive's `.git/config` can name a command git runs on
// `git status` (core.fsmonitor). Through the BUILT hook runner, as real processes, with real git:
// a prompt and a Stop run none of it, with git metadata off (no git at all) and on (git runs with
// fsmonitor and hooks disabled; the branch still reaches the turn's source description).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { userConfigPath } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { claudeTranscriptLine, hookTestTools, loggedRuns, messagesSent, waitFor, type ProcessRun } from './hook-processes.js';
import { capturePerMessage, endHookTest, ensureBuilt, startHookTest, type HookTest } from './hook-server-fixture.js';

let test: HookTest;
let tools: ReturnType<typeof hookTestTools>;
let marker: string;

const markerExists = () => fs.access(marker).then(() => true, () => false);
const git = (...args: string[]) => execFileSync('git', ['-C', test.workspace, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { stdio: 'pipe' });

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('repository-side-effects-');
  tools = hookTestTools(test);
  marker = path.join(test.root, 'fsmonitor-ran');
  git('init', '-q', '-b', 'feature/side-effects');
  git('remote', 'add', 'origin', 'https://github.com/acme/widget.git');
  await fs.writeFile(path.join(test.workspace, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-q', '-m', 'a');
  await fs.writeFile(path.join(test.workspace, 'a.txt'), 'changed\n');
  const monitor = path.join(test.root, 'monitor.sh');
  await fs.writeFile(monitor, `#!/bin/sh\necho ran >> '${marker}'\n`, { mode: 0o755 });
  git('config', 'core.fsmonitor', monitor);
  await tools.harness('hooks', 'install', '--target', 'claude');
  await capturePerMessage(test);
});

afterEach(() => endHookTest(test));

async function setGitMetadata(on: boolean): Promise<void> {
  const file = userConfigPath({ GRAPHITI_MEMORY_CONFIG_DIR: test.env['GRAPHITI_MEMORY_CONFIG_DIR'] ?? '' });
  const current = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
  await fs.writeFile(file, JSON.stringify({ ...current, includeGitMetadata: on }));
}

/** A prompt and a Stop of `session`, as Claude Code sends them; resolves once the turn was delivered. */
async function aTurn(session: string): Promise<ProcessRun[]> {
  const transcript = [
    claudeTranscriptLine('user', `${session}-u1`, 'How do we release the widget?', { cwd: test.workspace, sessionId: session, second: 1 }),
    claudeTranscriptLine('assistant', `${session}-a1`, 'Tag main and let CI publish it.', { cwd: test.workspace, sessionId: session, second: 2 }),
  ].join('\n');
  await fs.writeFile(path.join(test.root, `${session}.jsonl`), `${transcript}\n`);
  const runs = [await tools.hook('SessionStart', session, { source: 'startup' }), await tools.hook('UserPromptSubmit', session, { prompt: 'How do we release the widget?' })];
  runs.push(await tools.hook('Stop', session, { stop_hook_active: false }));
  await waitFor(() => messagesSent(test.emulator).some((message) => message.content.includes('Tag main')), 'the turn delivered', 60_000);
  return runs;
}

describe('no side effect from a repository', () => {
  it('a plain git status in this repository runs the planted fsmonitor (the check below can fail)', async () => {
    git('status', '--porcelain');
    expect(await markerExists()).toBe(true);
  });

  it('git metadata off: a prompt and a Stop run no git at all, the remote still names the workspace', async () => {
    await setGitMetadata(false);
    const runs = await aTurn('session-off');
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0);
    expect((await loggedRuns(test.stateDir)).map((run) => run.event)).toEqual(expect.arrayContaining(['SessionStart', 'UserPromptSubmit', 'Stop']));
    expect(await markerExists()).toBe(false);
    for (const message of messagesSent(test.emulator)) expect(message.source).not.toContain('branch=');
  });

  it('git metadata on: the branch is sent, and git ran with fsmonitor disabled', async () => {
    await setGitMetadata(true);
    await aTurn('session-on');
    expect(messagesSent(test.emulator).some((message) => message.source.includes('branch=feature/side-effects'))).toBe(true);
    expect(await markerExists()).toBe(false);
  });
});
