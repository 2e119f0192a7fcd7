// One configuration for every tool, with real processes: the harness binary and the built hook
// runner read the same user config.json, so its settings mean the same in both (issue 19: the
// harness hard-coded hashed group ids and git metadata, the hooks ignored recall.enabled).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { updateConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, runProcess, stopHookServer, temporaryHookHome, type HookTestHome } from './hook-server-fixture.js';

const packageFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runner = hookRunnerFile();
const harnessBinary = path.join(packageFolder, 'bin', 'graphiti-harness.js');

let emulator: RunningEmulator;
let test: HookTestHome;

const harness = (args: readonly string[]) => runProcess(process.execPath, [harnessBinary, ...args], '', test.env, test.workspace);
const hook = (event: string, input: Record<string, unknown>) => runProcess(process.execPath, [runner, '--event', event], JSON.stringify(input), test.env, test.workspace);

function writes(): Array<{ group: string; name: string; source: string }> {
  return emulator.requests
    .filter((request) => request.route === 'messages')
    .flatMap((request) => {
      const body = request.body as { group_id: string; messages?: Array<{ name: string; source_description?: string }> };
      return (body.messages ?? []).map((message) => ({ group: body.group_id, name: message.name, source: message.source_description ?? '' }));
    });
}

function transcriptLine(type: 'user' | 'assistant', uuid: string, text: string): string {
  const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd: test.workspace, sessionId: 'session-1', version: '2.0.61', uuid, timestamp: new Date().toISOString() };
  return JSON.stringify(
    type === 'user'
      ? { ...base, type, message: { role: 'user', content: text } }
      : { ...base, type, message: { id: `msg-${uuid}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], stop_reason: 'end_turn' } },
  );
}

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(() => ensureBuilt(packageFolder, runner), 300_000);
beforeEach(async () => {
  emulator = await startEmulator({ processingDelayMs: 1 });
  test = await temporaryHookHome('one-configuration-');
  // A git repository with a branch and a remote: git metadata would have something to send.
  execFileSync('git', ['init', '-q', '-b', 'main', test.workspace]);
  execFileSync('git', ['-C', test.workspace, 'remote', 'add', 'origin', 'https://github.com/acme/billing.git']);
  const installed = await harness(['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url, '--state-dir', test.stateDir]);
  expect(installed.exitCode, installed.stderr).toBe(0);
});
afterEach(async () => {
  await stopHookServer(test.env);
  await emulator.close();
  await new Promise((resolve) => setTimeout(resolve, 200));
  await fs.rm(test.root, { recursive: true, force: true });
});

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
    await waitFor(() => writes().filter((write) => write.name.includes('turn')).length >= 4);
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
