import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runHook } from '@graphiti-memory/agent-hooks';
import { hashedGroupId, USER_KEY_STORAGE_KEY } from '@graphiti-memory/memory-core';
import { ensureUserKey } from '@graphiti-memory/memory-node-storage';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { answerInputBoxes, clipboardContents, resetTestHost, sessionRequests, signIn, testHost } from '../test-support/vscode-double.js';
import { accountUserKey } from './user-memory-key.js';

const harnesses: Harness[] = [];
const configFolders: string[] = [];
/** A user config folder of its own (one per simulated machine), removed after the test. */
function useFreshConfigFolder(): void {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-memory-config-'));
  configFolders.push(folder);
  vi.stubEnv('GRAPHITI_MEMORY_CONFIG_DIR', folder);
}
beforeEach(() => useFreshConfigFolder());
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.dispose();
  vi.unstubAllEnvs();
  for (const folder of configFolders.splice(0)) fs.rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

async function start(options: Parameters<typeof activateExtension>[0] = { settings: { 'graphitiMemory.enabled': true }, consented: true }) {
  const harness = await activateExtension(options);
  harnesses.push(harness);
  return harness;
}

/** Promotes a user-scope preference and returns the group it was sent to. */
async function userGroupOf(harness: Harness): Promise<string> {
  await harness.command('graphitiMemory.promote', { kind: 'preference', scope: 'user', text: 'Answers in British English.' });
  await waitFor(() => harness.emulator.requests.some((request) => request.path === '/messages'), 5000, 'the promotion sent');
  const request = harness.emulator.requests.find((entry) => entry.path === '/messages');
  return (request?.body as { group_id: string }).group_id;
}

describe('user memory key', () => {
  it('is derived from the signed-in GitHub account, asked silently and hashed: the account never leaves VS Code', async () => {
    signIn('github', { id: '583231', label: 'octocat' }, ['user:email']);
    const harness = await start();
    const copied = await harness.command<{ ok: boolean; source: string }>('graphitiMemory.copyUserKey');
    expect(copied).toEqual({ ok: true, source: 'account' });
    const key = accountUserKey('gh', 'github', '583231');
    expect(clipboardContents()).toBe(key);
    expect(key).toMatch(/^gh_[0-9a-f]{40}$/);
    expect(sessionRequests.length).toBeGreaterThan(0);
    expect(sessionRequests.every((request) => request.options?.silent === true)).toBe(true);

    expect(await userGroupOf(harness)).toBe(await hashedGroupId('user', `user-key:${key}`));
    const sent = JSON.stringify(harness.emulator.requests);
    expect(sent).not.toContain('583231');
    expect(sent).not.toContain('octocat');
    expect(harness.logText()).not.toContain(key);
  });

  it('carries to another machine: Copy on one, Set on the other, and user memories go to one group', async () => {
    const first = await start();
    await first.command('graphitiMemory.copyUserKey');
    const key = clipboardContents();
    expect(key).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
    const firstGroup = await userGroupOf(first);

    // Another machine: a fresh VS Code with its own state and user config.
    useFreshConfigFolder();
    resetTestHost();
    const second = await start();
    answerInputBoxes(key);
    const set = await second.command<{ ok: boolean }>('graphitiMemory.setUserKey');
    expect(set.ok).toBe(true);
    expect(testHost().shownInputBoxes[0]?.options?.password).toBe(true);
    expect(await userGroupOf(second)).toBe(firstGroup);
    // The key is in the user config, where the harness and agent hooks of that machine read it.
    expect(JSON.parse(fs.readFileSync(path.join(process.env['GRAPHITI_MEMORY_CONFIG_DIR'] ?? '', 'config.json'), 'utf8'))).toMatchObject({ userKey: key });
    // A key the user set stays in force even once this VS Code is signed in to an account.
    signIn('github', { id: '42', label: 'someone' });
    await second.command('graphitiMemory.copyUserKey');
    expect(clipboardContents()).toBe(key);
  });

  it('keeps the key config.json already has when VS Code is signed in: the extension, the harness and a hook write one user group', async () => {
    const machineKey = 'machine-key-5f2c9a';
    const configFile = path.join(process.env['GRAPHITI_MEMORY_CONFIG_DIR'] ?? '', 'config.json');
    fs.writeFileSync(configFile, JSON.stringify({ userKey: machineKey }));
    signIn('github', { id: '583231', label: 'octocat' }, ['user:email']);
    const harness = await start();
    // Hooks read the same config: memory and recall on (every scope), this endpoint consented (as Connect writes it).
    fs.writeFileSync(
      configFile,
      JSON.stringify({ userKey: machineKey, enabled: true, endpoint: harness.emulator.url, recall: { enabled: true, scopes: 'all' }, consent: { endpoint: harness.emulator.url, grantedAt: new Date().toISOString(), by: 'test' } }),
    );
    const copied = await harness.command<{ ok: boolean; source: string }>('graphitiMemory.copyUserKey');
    expect(copied.source).toBe('shared');
    expect(clipboardContents()).toBe(machineKey);
    const expected = await hashedGroupId('user', `user-key:${machineKey}`);
    // The extension.
    expect(await userGroupOf(harness)).toBe(expected);
    // graphiti-harness takes the user config's key (ensureUserKey), never writing another one.
    expect(await ensureUserKey(process.env)).toBe(machineKey);
    // An agent hook: a UserPromptSubmit run searches the user group.
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'user-key-hook-'));
    configFolders.push(workspace);
    const printed: string[] = [];
    await runHook({
      argv: ['--event', 'UserPromptSubmit', '--state-dir', path.join(workspace, '.state')],
      stdinText: JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'claude-1', cwd: workspace, prompt: 'Which English do I prefer?' }),
      env: process.env,
      cwd: workspace,
      write: (text) => printed.push(text),
      drainer: undefined,
    });
    const searched = harness.emulator.requests.filter((request) => request.path === '/search').flatMap((request) => (request.body as { group_ids: string[] }).group_ids);
    expect(searched).toContain(expected);
    expect(JSON.parse(fs.readFileSync(configFile, 'utf8'))).toMatchObject({ userKey: machineKey });
  });

  it('rejects a malformed key with a message saying what a key looks like, and keeps the old one', async () => {
    const harness = await start();
    const before = (await harness.command<{ source: string }>('graphitiMemory.copyUserKey')) && clipboardContents();
    const result = await harness.command<{ ok: boolean; message: string }>('graphitiMemory.setUserKey', 'short');
    expect(result.ok).toBe(false);
    expect(result.message).toContain('8 to 128 letters, digits, _ or -');
    expect(harness.context.globalState.get(`graphitiMemory.${USER_KEY_STORAGE_KEY}`)).toBe(before);
  });

  it('looks up no account while memory is off', async () => {
    signIn('github', { id: '583231', label: 'octocat' });
    await start({});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sessionRequests).toEqual([]);
  });
});
