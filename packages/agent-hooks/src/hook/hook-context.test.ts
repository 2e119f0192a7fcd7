// A cloned repository's `.graphiti-memory.json` cannot turn the hooks on: an untrusted project file
// may only narrow what is sent, and what it tried to widen is named once in hook.log.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { trustProjectFile } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveHookContext } from './hook-context.js';
import type { HookOptions } from './hook-options.js';

let root: string;
let repo: string;
let state: string;
let env: Record<string, string>;
const ENDPOINT = 'http://127.0.0.1:9';

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'hook-context-'));
  repo = path.join(root, 'repo');
  state = path.join(root, 'state');
  await fs.mkdir(path.join(repo, '.git'), { recursive: true });
  await fs.mkdir(path.join(root, 'config'), { recursive: true });
  env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), HOME: root };
  const consent = { endpoint: ENDPOINT, grantedAt: '2026-01-01T00:00:00.000Z', by: 'graphiti-harness' };
  await fs.writeFile(path.join(root, 'config', 'config.json'), JSON.stringify({ enabled: false, endpoint: ENDPOINT, stateDir: state, consent, userKey: 'user-key-12345678' }));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const options: HookOptions = { event: 'UserPromptSubmit', installedBy: 'test', drain: false, workspace: undefined, flags: {}, ignored: [] };

function prompt(): Promise<Awaited<ReturnType<typeof resolveHookContext>>> {
  const input = { session_id: 's1', transcript_path: path.join(root, 't.jsonl'), cwd: repo, hook_event_name: 'UserPromptSubmit', prompt: 'which package manager?' };
  return resolveHookContext(JSON.stringify(input), { ...options, workspace: repo }, env, repo);
}

const hookLog = (): Promise<string> => fs.readFile(path.join(state, 'hooks', 'hook.log'), 'utf8').catch(() => '');

describe('a project file the user has not trusted', () => {
  it('cannot turn the hooks on when the user config says enabled: false; the key is named once in hook.log', async () => {
    const projectFile = path.join(repo, '.graphiti-memory.json');
    await fs.writeFile(projectFile, JSON.stringify({ enabled: true, recall: { enabled: true } }));
    expect(await prompt()).toMatchObject({ ok: false, outcome: 'disabled' });
    expect(await prompt()).toMatchObject({ ok: false, outcome: 'disabled' });
    const log = await hookLog();
    expect(log.match(/project-file ignored enabled \(/g)).toHaveLength(1);
    expect(log).toContain(`project-file ignored recall.enabled (${projectFile}): `);
    expect(log).not.toContain('which package manager');

    // Trusted, the same file turns memory on for this repository (the run goes on past the gate).
    await trustProjectFile(state, projectFile);
    const trusted = await prompt();
    expect(trusted.ok || trusted.outcome).not.toBe('disabled');
  });
});

describe('a relative stateDir in the user config', () => {
  it("is the config file's folder's, whatever folder the hook runs in: the run, its log and the trust kept there agree with every other tool", async () => {
    const consent = { endpoint: ENDPOINT, grantedAt: '2026-01-01T00:00:00.000Z', by: 'graphiti-harness' };
    await fs.writeFile(path.join(root, 'config', 'config.json'), JSON.stringify({ enabled: false, endpoint: ENDPOINT, stateDir: 'state', consent, userKey: 'user-key-12345678' }));
    const beside = path.join(root, 'config', 'state');
    const projectFile = path.join(repo, '.graphiti-memory.json');
    await fs.writeFile(projectFile, JSON.stringify({ enabled: true }));
    expect(await prompt()).toMatchObject({ ok: false, outcome: 'disabled', stateDirectory: beside });
    expect(await fs.readFile(path.join(beside, 'hooks', 'hook.log'), 'utf8')).toContain('project-file ignored enabled');
    // `config trust` keeps the trust in that same folder: the hook finds it and goes on past the gate.
    await trustProjectFile(beside, projectFile);
    const trusted = await prompt();
    expect(trusted.ok || trusted.outcome).not.toBe('disabled');
    expect(trusted.ok ? trusted.context.stateDirectory : trusted.stateDirectory).toBe(beside);
  });
});

describe('the drainer', () => {
  it("runs with the user's configuration whatever repository started it: a project file's maxAttempts: 1 (or enabled: false) does not reach it", async () => {
    const consent = { endpoint: ENDPOINT, grantedAt: '2026-01-01T00:00:00.000Z', by: 'graphiti-harness' };
    await fs.writeFile(path.join(root, 'config', 'config.json'), JSON.stringify({ enabled: true, endpoint: ENDPOINT, stateDir: state, consent, userKey: 'user-key-12345678', maxAttempts: 7 }));
    const projectFile = path.join(repo, '.graphiti-memory.json');
    await fs.writeFile(projectFile, JSON.stringify({ maxAttempts: 1 }));
    const drain = await resolveHookContext(JSON.stringify({ hook_event_name: 'Stop' }), { ...options, drain: true, workspace: repo }, env, repo);
    expect(drain.ok).toBe(true);
    if (drain.ok) {
      expect(drain.context.config.settings.maxAttempts).toBe(7);
      expect(drain.context.config.files.project).toBeUndefined();
    }
    // An event in that repository names the key it ignored (a delivery setting is the user's).
    const event = await prompt();
    expect(event.ok && event.context.config.settings.maxAttempts).toBe(7);
    expect(await hookLog()).toContain(`project-file ignored maxAttempts (${projectFile})`);

    await fs.writeFile(projectFile, JSON.stringify({ enabled: false }));
    const drainAgain = await resolveHookContext(JSON.stringify({ hook_event_name: 'Stop' }), { ...options, drain: true, workspace: repo }, env, repo);
    expect(drainAgain.ok).toBe(true);
  });
});

describe('a broken user config', () => {
  it('is told to the user once per session as a systemMessage naming the file, the key and the nearest key', async () => {
    const userFile = path.join(root, 'config', 'config.json');
    const consent = { endpoint: ENDPOINT, grantedAt: '2026-01-01T00:00:00.000Z', by: 'graphiti-harness' };
    await fs.writeFile(userFile, JSON.stringify({ enabled: true, endpoint: ENDPOINT, stateDir: state, consent, recall: { enabeld: true } }));
    const resolved = await prompt();
    expect(resolved).toMatchObject({ ok: false, outcome: 'bad-config', userNotice: { sessionId: 's1' } });
    if (resolved.ok || resolved.userNotice === undefined) return;
    expect(resolved.userNotice.text).toContain(`${userFile}: unknown key \`recall.enabeld\`; did you mean \`recall.enabled\`?`);
  });
});
