// `mirror.enabled`: on only from the user's own sources. A project file may turn it off; it can
// never turn it on, not even when the user trusts that file; a project list of recall scopes may not
// add the mirror to what the user searches. `loops.proposeWithModel` (sessions to the chat model) too.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userConfigPath } from './config-paths.js';
import { memorySettingsFor } from './memory-settings-for.js';
import { trustProjectFile } from './project-trust.js';
import { resolveMemoryConfig, type ResolvedMemoryConfig } from './resolve-config.js';

let root: string;
let repo: string;
let projectFile: string;
let env: Record<string, string>;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'mirror-setting-'));
  repo = path.join(root, 'repo');
  projectFile = path.join(repo, '.graphiti-memory.json');
  await fs.mkdir(path.join(repo, '.git'), { recursive: true });
  env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), GRAPHITI_MEMORY_STATE_DIR: path.join(root, 'state') };
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function writeJson(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(value));
}

async function resolved(): Promise<ResolvedMemoryConfig> {
  const resolution = await resolveMemoryConfig({ workspaceFolder: repo, env });
  if (!resolution.ok) throw new Error(resolution.message);
  return resolution.config;
}

describe('mirror.enabled', () => {
  it('is off by default and on from the user config, reaching memory-core’s settings', async () => {
    expect((await resolved()).settings.mirror).toEqual({ enabled: false });
    await writeJson(userConfigPath(env), { mirror: { enabled: true } });
    const config = await resolved();
    expect(config.settings.mirror.enabled).toBe(true);
    expect(config.origins['mirror.enabled']).toBe('user');
    expect(memorySettingsFor(config).mirror).toEqual({ enabled: true });
  });

  it('is never turned on by a project file, trusted or not, and the refusal is named', async () => {
    await writeJson(projectFile, { mirror: { enabled: true } });
    const untrusted = await resolved();
    expect(untrusted.settings.mirror.enabled).toBe(false);
    expect(untrusted.ignored).toContainEqual(expect.objectContaining({ file: projectFile, key: 'mirror.enabled', why: expect.stringMatching(/may only turn it off/) }));
    await trustProjectFile(path.join(root, 'state'), projectFile);
    const trusted = await resolved();
    expect(trusted.projectTrusted).toBe(true);
    expect(trusted.settings.mirror.enabled).toBe(false);
    expect(trusted.ignored.map((entry) => entry.key)).toContain('mirror.enabled');
  });

  it('is turned off by a project file', async () => {
    await writeJson(userConfigPath(env), { mirror: { enabled: true } });
    await writeJson(projectFile, { mirror: { enabled: false } });
    const config = await resolved();
    expect(config.settings.mirror.enabled).toBe(false);
    expect(config.origins['mirror.enabled']).toBe('project');
  });

  it('refuses an unknown key under mirror, naming it', async () => {
    await writeJson(userConfigPath(env), { mirror: { enable: true } });
    const resolution = await resolveMemoryConfig({ workspaceFolder: repo, env });
    expect(resolution.ok).toBe(false);
    expect(resolution.ok ? '' : resolution.message).toMatch(/mirror\.enable/);
  });

  it('lets an untrusted project file not add the mirror to the scopes recall searches', async () => {
    await writeJson(projectFile, { recall: { scopes: ['workspace', 'mirror'] } });
    const config = await resolved();
    expect(config.settings.recall.scopes).toBe('both');
    expect(config.ignored.map((entry) => entry.key)).toContain('recall.scopes');
  });
});

describe('loops.proposeWithModel', () => {
  it('is off by default, on from the user config (reaching memory-core), never on from a project file, trusted or not', async () => {
    expect((await resolved()).settings.loops.proposeWithModel).toBe(false);
    await writeJson(userConfigPath(env), { loops: { proposeWithModel: true } });
    expect(memorySettingsFor(await resolved()).loops.proposeWithModel).toBe(true);
    await writeJson(userConfigPath(env), {});
    await writeJson(projectFile, { loops: { proposeWithModel: true } });
    await trustProjectFile(path.join(root, 'state'), projectFile);
    const trusted = await resolved();
    expect(trusted.settings.loops.proposeWithModel).toBe(false);
    expect(trusted.ignored).toContainEqual(expect.objectContaining({ key: 'loops.proposeWithModel', why: expect.stringMatching(/may only turn it off/) }));
  });
});
