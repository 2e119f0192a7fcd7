// One configuration for every tool, with real processes: the harness binary and the built hook
// runner read the same user config.json, so its settings mean the same in both (issue 19: the
// harness hard-coded hashed group ids and git metadata, the hooks ignored recall.enabled).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { updateConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { claudeTranscriptLine, messagesSent, runNode, waitFor } from './hook-processes.js';
import { capturePerMessage, endHookTest, ensureBuilt, harnessBinary, startHookTest, type HookTest } from './hook-server-fixture.js';

const runner = hookRunnerFile();

let emulator: RunningEmulator;
let test: HookTest;

const harness = (args: readonly string[]) => runNode(test, [harnessBinary, ...args]);
const hook = (event: string, input: Record<string, unknown>) => runNode(test, [runner, '--event', event], JSON.stringify(input));
const writes = () => messagesSent(emulator);
const transcriptLine = (type: 'user' | 'assistant', uuid: string, text: string): string => claudeTranscriptLine(type, uuid, text, { cwd: test.workspace, sessionId: 'session-1' });

beforeAll(() => ensureBuilt(), 300_000);
beforeEach(async () => {
  test = await startHookTest('one-configuration-');
  emulator = test.emulator;
  // A git repository with a branch and a remote: git metadata would have something to send.
  execFileSync('git', ['init', '-q', '-b', 'main', test.workspace]);
  execFileSync('git', ['-C', test.workspace, 'remote', 'add', 'origin', 'https://github.com/acme/billing.git']);
  const installed = await harness(['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url, '--state-dir', test.stateDir]);
  expect(installed.exitCode, installed.stderr).toBe(0);
  await capturePerMessage(test);
});
afterEach(() => endHookTest(test));

describe('one configuration', () => {
  it('groupIdStrategy: raw in config.json makes the harness and the hooks write the same group, with no git data by default', async () => {
    await updateConfigFile(userConfigPath(test.env), { groupIdStrategy: 'raw' });
    const promoted = await harness(['promote', 'We release from the main branch only.', '--kind', 'decision', '--scope', 'workspace', '--state-dir', test.stateDir, '--workspace', test.workspace]);
    expect(promoted.exitCode, promoted.stderr).toBe(0);
    const transcript = path.join(test.root, 'claude.jsonl');
    await fs.writeFile(transcript, `${transcriptLine('user', 'u1', 'Where do releases come from?')}\n${transcriptLine('assistant', 'a1', 'From main only.')}\n`);
    const stopped = await hook('Stop', { session_id: 'session-1', transcript_path: transcript, cwd: test.workspace, hook_event_name: 'Stop' });
    expect(stopped.exitCode).toBe(0);
    // One turn × (user + assistant) × (session + workspace group): the groups' batches may arrive apart.
    await waitFor(() => writes().filter((write) => write.name.includes('turn')).length >= 4, 'the turn sent to both groups');
    const promotion = writes().find((write) => write.name.includes('promotion'));
    const turns = writes().filter((write) => write.name.includes('turn'));
    expect(promotion, 'the harness promoted').toBeDefined();
    expect(turns.length).toBeGreaterThan(0);
    // Raw ids name the scope's identity readably; hashed ones never would. Both tools wrote the same workspace group.
    expect(promotion?.group).toMatch(/github/);
    expect(turns.map((turn) => turn.group), JSON.stringify(writes())).toContain(promotion?.group);
    // includeGitMetadata is off by default everywhere: no branch or commit in any source description.
    for (const write of writes()) expect(write.source).not.toMatch(/branch|commit|main/);
  });

  it('recall.enabled: false in config.json keeps the hooks from searching: nothing printed, no request', async () => {
    await harness(['promote', 'We release from the main branch only.', '--kind', 'decision', '--scope', 'workspace', '--state-dir', test.stateDir, '--workspace', test.workspace]);
    await emulator.idle();
    const on = await hook('UserPromptSubmit', { session_id: 'session-1', cwd: test.workspace, hook_event_name: 'UserPromptSubmit', prompt: 'Which branch do we release from?' });
    expect(on.stdout, await fs.readFile(path.join(test.stateDir, 'hooks', 'runs.jsonl'), 'utf8').catch(() => 'no runs')).toContain('main branch only');
    const config = JSON.parse(await fs.readFile(userConfigPath(test.env), 'utf8')) as { recall?: Record<string, unknown> };
    await updateConfigFile(userConfigPath(test.env), { recall: { ...config.recall, enabled: false } });
    emulator.clearRequests();
    const off = await hook('UserPromptSubmit', { session_id: 'session-1', cwd: test.workspace, hook_event_name: 'UserPromptSubmit', prompt: 'Which branch do we release from?' });
    const brief = await hook('SessionStart', { session_id: 'session-2', cwd: test.workspace, hook_event_name: 'SessionStart', source: 'startup' });
    expect(off).toMatchObject({ exitCode: 0, stdout: '' });
    expect(brief.stdout).not.toContain('main branch only');
    expect(emulator.requests.filter((request) => request.route === 'search')).toEqual([]);
  });
});
