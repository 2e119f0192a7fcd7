// One configuration for every tool: every memory setting under VS Code's names, unknown keys
// refused with the nearest valid key, one resolution with origins, and one mapping to memory-core.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseMemorySettings } from '@graphiti-memory/memory-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configurationEntries, configurationLines } from './config-entries.js';
import { readConfigFile } from './config-file.js';
import { userConfigPath } from './config-paths.js';
import { memorySettingsFor } from './memory-settings-for.js';
import { resolveMemoryConfig, resolveMemoryConfigSync, type ResolvedMemoryConfig } from './resolve-config.js';
import { levenshtein, nearestKey } from './unknown-keys.js';

let root: string;
let env: Record<string, string | undefined>;
let workspace: string;
let projectFile: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'one-config-'));
  env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config') };
  workspace = path.join(root, 'repo');
  projectFile = path.join(workspace, '.graphiti-memory.json');
  await fs.mkdir(workspace, { recursive: true });
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function writeJson(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(value));
}

async function resolved(): Promise<ResolvedMemoryConfig> {
  const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env });
  if (!resolution.ok) throw new Error(resolution.message);
  return resolution.config;
}

describe('unknown keys', () => {
  it('refuses a misspelt key, naming the file, the key and the nearest valid key', async () => {
    await writeJson(userConfigPath(env), { endpiont: 'http://localhost:8000' });
    const read = await readConfigFile(userConfigPath(env));
    expect(read.ok).toBe(false);
    expect(!read.ok && read.problems).toEqual([`${userConfigPath(env)}: unknown key \`endpiont\`; did you mean \`endpoint\`?`]);
    const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env });
    expect(!resolution.ok && resolution.message).toContain('unknown key `endpiont`; did you mean `endpoint`?');
  });

  it('finds nested slips, keys at the wrong depth and VS Code names, at any depth and in a project file', async () => {
    await writeJson(projectFile, { recall: { maxFact: 3 }, includeGitMetaData: true, maxFacts: 4, serverKind: 'rest', capture: { backfill: 2 } });
    const read = await readConfigFile(projectFile);
    expect(!read.ok && read.problems).toEqual([
      `${projectFile}: unknown key \`recall.maxFact\`; did you mean \`recall.maxFacts\`?`,
      `${projectFile}: unknown key \`includeGitMetaData\`; did you mean \`includeGitMetadata\`?`,
      `${projectFile}: unknown key \`maxFacts\`; did you mean \`recall.maxFacts\`?`,
      `${projectFile}: unknown key \`serverKind\`; did you mean \`server\`?`,
      `${projectFile}: unknown key \`capture.backfill\`; did you mean \`capture.backfillTurns\`?`,
    ]);
  });

  it('lists the valid keys when nothing is close', async () => {
    await writeJson(projectFile, { brief: { colour: 'blue' } });
    const read = await readConfigFile(projectFile);
    expect(!read.ok && read.problems).toEqual([`${projectFile}: unknown key \`brief.colour\`; valid keys here are \`brief.budget\``]);
  });

  it('measures edit distance', () => {
    expect(levenshtein('endpiont', 'endpoint')).toBe(2);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(nearestKey(['zzzzzz'], ['endpoint', 'enabled'])).toBeUndefined();
  });
});

describe('every memory setting, under the names VS Code uses', () => {
  it('reads each setting a tool honours, with its origin, and defaults with the origin `default`', async () => {
    await writeJson(userConfigPath(env), {
      includeGitMetadata: true,
      includeSystemMessages: true,
      groupIdStrategy: 'raw',
      server: 'mcp',
      maxBatchSize: 5,
      autoPromote: { enabled: true, review: false },
      recall: { enabled: true, scopes: 'auto', maxFacts: 4, timeoutMs: 300 },
      capture: { backfillTurns: 3, claudeCode: true },
      filter: 'full',
      brief: { budget: 800 },
    });
    const config = await resolved();
    expect(config.settings).toMatchObject({
      includeGitMetadata: true,
      includeSystemMessages: true,
      groupIdStrategy: 'raw',
      server: 'mcp',
      maxBatchSize: 5,
      autoPromote: { enabled: true, review: false },
      recall: { enabled: true, scopes: 'auto', maxFacts: 4, timeoutMs: 300 },
      capture: { backfillTurns: 3, claudeCode: true, vscodeChat: false },
      filter: 'full',
      brief: { budget: 800 },
    });
    expect(config.origins['capture.backfillTurns']).toBe('user');
    expect(config.origins['capture.vscodeChat']).toBe('default');
    expect(config.origins['maxQueueSize']).toBe('default');
  });

  it('keeps git metadata off and every feature off by default', async () => {
    const config = await resolved();
    expect(config.settings).toMatchObject({ enabled: false, includeGitMetadata: false, groupIdStrategy: 'hashed', scopes: 'both', recall: { enabled: false, scopes: 'both' } });
    expect(Object.values(config.origins).every((origin) => origin === 'default')).toBe(true);
  });

  it('checks bounds with memory-core\'s schema, naming the file and the key', async () => {
    await writeJson(projectFile, { capture: { backfillTurns: 5000 }, server: 'grpc' });
    const read = await readConfigFile(projectFile);
    expect(!read.ok && read.problems.join('\n')).toContain(`${projectFile}: server:`);
    await writeJson(projectFile, { capture: { backfillTurns: 5000 } });
    const bounded = await readConfigFile(projectFile);
    expect(!bounded.ok && bounded.problems).toEqual([`${projectFile}: capture.backfillTurns: must be at most 1000 (got 5000)`]);
  });

  it('gives `scopes` one meaning, where captured turns go: the word or the list hooks install writes', async () => {
    await writeJson(userConfigPath(env), { scopes: ['session', 'user'] });
    expect((await resolved()).settings.scopes).toBe('session');
    await writeJson(userConfigPath(env), { scopes: ['session', 'workspace'] });
    expect((await resolved()).settings.scopes).toBe('both');
    await writeJson(userConfigPath(env), { scopes: 'workspace' });
    expect((await resolved()).settings.scopes).toBe('workspace');
    await writeJson(userConfigPath(env), { scopes: 'user' });
    const refused = await resolveMemoryConfig({ workspaceFolder: workspace, env });
    expect(refused.ok).toBe(false);
  });

  it('resolves the same synchronously (for VS Code) as asynchronously', async () => {
    await writeJson(userConfigPath(env), { endpoint: 'http://user.example:8000', recall: { maxFacts: 3 } });
    await writeJson(projectFile, { recall: { enabled: true } });
    const sync = resolveMemoryConfigSync({ workspaceFolder: workspace, env });
    expect(sync).toEqual(await resolveMemoryConfig({ workspaceFolder: workspace, env }));
  });

  it('reads only flags and defaults when asked (the demo is never redirected)', async () => {
    await writeJson(userConfigPath(env), { endpoint: 'http://user.example:8000' });
    const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env: { ...env, GRAPHITI_MEMORY_SERVER: 'mcp' }, sources: 'flags', flags: { timeoutMs: 900 } });
    expect(resolution.ok && resolution.config.settings).toMatchObject({ endpoint: undefined, server: 'auto', timeoutMs: 900 });
  });

  it('names flags and variables in problems', async () => {
    const flags = await resolveMemoryConfig({ workspaceFolder: workspace, env, flags: { timeoutMs: 5 }, flagNames: { timeoutMs: '--timeout-ms' } });
    expect(!flags.ok && flags.problems).toEqual(['command line: --timeout-ms: must be at least 100 (got 5)']);
    const variable = await resolveMemoryConfig({ workspaceFolder: workspace, env: { ...env, GRAPHITI_MEMORY_SERVER: 'grpc' } });
    expect(!variable.ok && variable.problems[0]).toContain('environment: GRAPHITI_MEMORY_SERVER:');
  });
});

describe('memorySettingsFor', () => {
  it('turns the configuration into settings memory-core accepts, honouring groupIdStrategy, git metadata and recall', async () => {
    await writeJson(userConfigPath(env), { endpoint: 'http://user.example:8000', groupIdStrategy: 'raw', recall: { scopes: 'workspace', maxFacts: 4 }, scopes: ['session'] });
    const parsed = parseMemorySettings(memorySettingsFor(await resolved()));
    expect(parsed.ok).toBe(true);
    expect(parsed.settings).toMatchObject({
      endpoint: 'http://user.example:8000',
      groupIdStrategy: 'raw',
      includeGitMetadata: false,
      scopes: 'session',
      recall: { enabled: false, scopes: 'workspace', maxFacts: 4 },
    });
  });

  it('keeps recall off when the configuration says so, whatever else a tool overrides', async () => {
    await writeJson(userConfigPath(env), { recall: { enabled: false, timeoutMs: 400 } });
    const settings = memorySettingsFor(await resolved(), { enabled: true, endpoint: 'http://localhost:9', maxQueueSize: 100_000, recall: { maxFacts: 7 } });
    expect(settings).toMatchObject({ enabled: true, endpoint: 'http://localhost:9', maxQueueSize: 100_000, recall: { enabled: false, timeoutMs: 400, maxFacts: 7 } });
    await writeJson(userConfigPath(env), { recall: { enabled: true }, includeGitMetadata: true });
    expect(memorySettingsFor(await resolved())).toMatchObject({ recall: { enabled: true }, includeGitMetadata: true });
  });

  it('leaves the endpoint empty (not configured) when no source names one', async () => {
    const parsed = parseMemorySettings(memorySettingsFor(await resolved()));
    expect(parsed.settings.endpoint).toBe('');
  });
});

describe('configuration entries', () => {
  it('lists every value with the file or variable it came from', async () => {
    await writeJson(userConfigPath(env), { endpoint: 'http://user.example:8000' });
    await writeJson(projectFile, { recall: { maxFacts: 5 } });
    const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env: { ...env, GRAPHITI_MEMORY_SERVER: 'rest' } });
    if (!resolution.ok) throw new Error(resolution.message);
    const entries = configurationEntries(resolution.config);
    expect(entries).toContainEqual({ key: 'endpoint', value: 'http://user.example:8000', origin: 'user', source: userConfigPath(env) });
    expect(entries).toContainEqual({ key: 'recall.maxFacts', value: 5, origin: 'project', source: projectFile });
    expect(entries).toContainEqual({ key: 'server', value: 'rest', origin: 'env', source: 'GRAPHITI_MEMORY_SERVER' });
    expect(entries).toContainEqual({ key: 'includeGitMetadata', value: false, origin: 'default', source: 'default' });
    expect(configurationLines(resolution.config).find((line) => line.startsWith('recall.maxFacts'))).toMatch(/= 5 {2}\(project: .*\.graphiti-memory\.json\)$/);
  });
});
