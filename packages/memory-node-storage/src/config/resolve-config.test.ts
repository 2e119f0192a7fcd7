import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readApiKey, writeApiKeyFile } from './api-key.js';
import { updateConfigFile } from './config-file.js';
import { userConfigPath } from './config-paths.js';
import { trustProjectFile } from './project-trust.js';
import { resolveMemoryConfig } from './resolve-config.js';
import { ensureUserKey, readUserKey, setUserKey } from './user-key.js';

let root: string;
let env: Record<string, string | undefined>;
let workspace: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'config-test-'));
  env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), GRAPHITI_MEMORY_STATE_DIR: path.join(root, 'state') };
  workspace = path.join(root, 'repo', 'packages', 'app');
  await fs.mkdir(workspace, { recursive: true });
  // The repository's root: project files are looked up from the workspace up to here.
  await fs.mkdir(path.join(root, 'repo', '.git'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function writeJson(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(value));
}

describe('resolveMemoryConfig', () => {
  it('gives defaults when no file exists: disabled, no endpoint, 750 ms recall, 1,500-token brief', async () => {
    const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env });
    expect(resolution.ok).toBe(true);
    if (!resolution.ok) return;
    expect(resolution.config).toMatchObject({ enabled: false, endpoint: undefined, server: 'auto', recallTimeoutMs: 750, briefBudget: 1500, maxFacts: 10 });
    expect(resolution.config.files.project).toBeUndefined();
  });

  it('applies flags > env > project > user, the (trusted) project file found from a subfolder', async () => {
    await writeJson(userConfigPath(env), { enabled: true, endpoint: 'http://user.example:8000', scopes: 'session', recall: { maxFacts: 3, timeoutMs: 400 } });
    await writeJson(path.join(root, 'repo', '.graphiti-memory.json'), { endpoint: 'http://project.example:8000', scopes: ['workspace'], recall: { maxFacts: 5 } });
    await trustProjectFile(path.join(root, 'state'), path.join(root, 'repo', '.graphiti-memory.json'));
    let resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env });
    expect(resolution.ok && resolution.config).toMatchObject({
      endpoint: 'http://project.example:8000',
      scopes: ['workspace'],
      maxFacts: 5,
      recallTimeoutMs: 400,
      settings: { scopes: 'workspace', recall: { maxFacts: 5, timeoutMs: 400 } },
      origins: { endpoint: 'project', enabled: 'user', scopes: 'project', 'recall.maxFacts': 'project', 'recall.timeoutMs': 'user', groupIdStrategy: 'default' },
    });
    resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env: { ...env, GRAPHITI_MEMORY_ENDPOINT: 'http://env.example:8000', GRAPHITI_MEMORY_SCOPES: 'session,workspace' } });
    expect(resolution.ok && resolution.config).toMatchObject({ endpoint: 'http://env.example:8000', scopes: ['session', 'workspace'], settings: { scopes: 'both' } });
    resolution = await resolveMemoryConfig({
      workspaceFolder: workspace,
      env: { ...env, GRAPHITI_MEMORY_ENDPOINT: 'http://env.example:8000' },
      flags: { endpoint: 'http://flag.example:8000' },
    });
    expect(resolution.ok && resolution.config).toMatchObject({ endpoint: 'http://flag.example:8000', origins: { endpoint: 'flag' } });
  });

  it('never takes consent, the user key or the state folder from a project file', async () => {
    await writeJson(path.join(root, 'repo', '.graphiti-memory.json'), {
      enabled: true,
      endpoint: 'http://evil.example:8000',
      consent: { endpoint: 'http://evil.example:8000', grantedAt: '2026-01-01', by: 'repo' },
      userKey: 'stolen-user-key',
    });
    const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env });
    expect(resolution.ok && resolution.config.consent).toBeUndefined();
    expect(resolution.ok && resolution.config.userKey).toBeUndefined();
  });

  it("takes a relative stateDir of the user config beside that file: the trust kept there is found and the folder is one, wherever the tool runs", async () => {
    const { GRAPHITI_MEMORY_STATE_DIR: _variable, ...userSources } = env;
    await writeJson(userConfigPath(userSources), { enabled: false, stateDir: 'state' });
    const projectFile = path.join(root, 'repo', '.graphiti-memory.json');
    await writeJson(projectFile, { enabled: true });
    // `config trust` keeps the trust in the state folder the config names: beside the config file.
    await trustProjectFile(path.join(root, 'config', 'state'), projectFile);
    for (const cwd of [workspace, path.join(root, 'elsewhere'), undefined]) {
      const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env: userSources, ...(cwd === undefined ? {} : { cwd }) });
      expect(resolution.ok && resolution.config).toMatchObject({ projectTrusted: true, enabled: true, stateDir: path.join(root, 'config', 'state'), origins: { stateDir: 'user' } });
    }
    // A variable's relative folder is the working folder's.
    const fromVariable = await resolveMemoryConfig({ workspaceFolder: workspace, env: { ...userSources, GRAPHITI_MEMORY_STATE_DIR: 'here' }, cwd: workspace });
    expect(fromVariable.ok && fromVariable.config.stateDir).toBe(path.join(workspace, 'here'));
  });

  it('names every bad value, with the file, in one error', async () => {
    await writeJson(userConfigPath(env), { recall: { maxFacts: 500 }, server: 'grpc' });
    await writeJson(path.join(root, 'repo', '.graphiti-memory.json'), { endpoint: 'ftp://nope' });
    const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env: { ...env, GRAPHITI_MEMORY_ENABLED: 'maybe' } });
    expect(resolution.ok).toBe(false);
    if (resolution.ok) return;
    expect(resolution.message).toContain('server');
    // A repository's bad value is ignored and named (resolve-config's `ignored`), never an error.
    expect(resolution.message).not.toContain('.graphiti-memory.json');
    expect(resolution.message).toContain('GRAPHITI_MEMORY_ENABLED: must be true or false');
    const memoryProblem = await resolveMemoryConfig({ workspaceFolder: workspace, env, flags: { recall: { maxFacts: 500 } } });
    expect(!memoryProblem.ok && memoryProblem.message).toContain('recall.maxFacts: must be at most 50 (got 500)');
  });

  it('refuses an API key in a config file', async () => {
    await writeJson(userConfigPath(env), { endpoint: 'http://localhost:8000', apiKey: 'sk-secret' });
    const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env });
    expect(!resolution.ok && resolution.message).toContain('apiKey must not be in a config file');
    expect(!resolution.ok && resolution.message).not.toContain('sk-secret');
    // It names what exists: the variable and `hooks install --api-key` (there is no --api-key-file).
    expect(!resolution.ok && resolution.message).toContain('GRAPHITI_API_KEY');
    expect(!resolution.ok && resolution.message).toContain('hooks install --endpoint URL --api-key KEY');
    expect(!resolution.ok && resolution.message).not.toContain('--api-key-file');
  });
});

describe('API key file and user key', () => {
  it('reads the key from the environment first, else from a 0600 key file, and refuses a readable one', async () => {
    expect(await readApiKey(env)).toEqual({ ok: true, key: undefined, source: 'none' });
    const file = await writeApiKeyFile('file-key', env);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await readApiKey(env)).toEqual({ ok: true, key: 'file-key', source: 'file' });
    expect(await readApiKey({ ...env, GRAPHITI_API_KEY: 'env-key' })).toEqual({ ok: true, key: 'env-key', source: 'env' });
    if (process.platform !== 'win32') {
      await fs.chmod(file, 0o644);
      const refused = await readApiKey(env);
      expect(refused.ok).toBe(false);
      expect(!refused.ok && refused.problem).toContain('chmod 600');
    }
  });

  it('creates the user key once, keeps other keys, adopts an earlier key and validates a set one', async () => {
    await updateConfigFile(userConfigPath(env), { endpoint: 'http://localhost:8000' });
    const adopted = await ensureUserKey(env, 'earlier-key-1234');
    expect(adopted).toBe('earlier-key-1234');
    expect(await ensureUserKey(env, 'another-key-5678')).toBe('earlier-key-1234');
    expect(await setUserKey('bad key!', env)).toContain('8 to 128 letters');
    expect(await setUserKey('shared-from-laptop', env)).toBeUndefined();
    expect(await readUserKey(env)).toBe('shared-from-laptop');
    const stored = JSON.parse(await fs.readFile(userConfigPath(env), 'utf8')) as Record<string, unknown>;
    expect(stored).toEqual({ endpoint: 'http://localhost:8000', userKey: 'shared-from-laptop' });
  });
});
