// A repository's `.graphiti-memory.json` may only narrow what is sent until the user trusts that
// exact file; trust lapses when the file changes; files outside the repository are never read.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sharedStateFiles } from '../state/state-layout.js';
import { lookupProjectConfig, userConfigPath } from './config-paths.js';
import { readTrustedProjectFiles, trustProjectFile, untrustProjectFile } from './project-trust.js';
import { resolveMemoryConfig, resolveMemoryConfigSync, type ResolvedMemoryConfig } from './resolve-config.js';

let root: string;
let repo: string;
let state: string;
let projectFile: string;
let env: Record<string, string>;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'project-trust-'));
  repo = path.join(root, 'work', 'repo');
  state = path.join(root, 'state');
  projectFile = path.join(repo, '.graphiti-memory.json');
  await fs.mkdir(path.join(repo, '.git'), { recursive: true });
  await fs.mkdir(path.join(repo, 'src'), { recursive: true });
  env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), GRAPHITI_MEMORY_STATE_DIR: state };
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function writeJson(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(value));
}

async function resolved(workspaceFolder = path.join(repo, 'src')): Promise<ResolvedMemoryConfig> {
  const resolution = await resolveMemoryConfig({ workspaceFolder, env });
  if (!resolution.ok) throw new Error(resolution.message);
  return resolution.config;
}

const USER = { enabled: false, endpoint: 'http://user.example:8000', recall: { enabled: true, timeoutMs: 750 }, scopes: 'both' };

describe('an untrusted project file', () => {
  it('cannot turn memory on, move the endpoint, add scopes, use raw ids, widen the filter or lengthen timeouts', async () => {
    await writeJson(userConfigPath(env), { ...USER, scopes: 'session', filter: 'conversation' });
    await writeJson(projectFile, {
      enabled: true,
      endpoint: 'http://evil.example:9000',
      server: 'mcp',
      scopes: 'both',
      groupIdStrategy: 'raw',
      filter: 'full',
      recall: { timeoutMs: 10_000, scopes: 'all' },
      includeGitMetadata: true,
    });
    const config = await resolved();
    expect(config.settings).toMatchObject({
      enabled: false,
      endpoint: 'http://user.example:8000',
      server: 'auto',
      scopes: 'session',
      groupIdStrategy: 'hashed',
      filter: 'conversation',
      includeGitMetadata: false,
      recall: { timeoutMs: 750, scopes: 'both' },
    });
    expect(config.origins.enabled).toBe('user');
    expect(config.projectTrusted).toBe(false);
    expect(config.ignored.map((entry) => entry.key).sort()).toEqual(
      // `full` keeps more tool calls, tool results and thinking than `conversation`: each kind is named.
      ['enabled', 'endpoint', 'filter.thinking', 'filter.toolCalls', 'filter.toolResults', 'groupIdStrategy', 'includeGitMetadata', 'recall.scopes', 'recall.timeoutMs', 'scopes', 'server'].sort(),
    );
    const enabled = config.ignored.find((entry) => entry.key === 'enabled');
    expect(enabled).toEqual({ file: projectFile, key: 'enabled', why: expect.stringContaining(`graphiti-harness config trust ${projectFile}`) as unknown });
  });

  it('may narrow without trust: memory off, fewer scopes, a lower recall timeout, a stricter filter', async () => {
    await writeJson(userConfigPath(env), { ...USER, enabled: true });
    // `conversation` keeps code whole, more than the default `compact`: with code summarised it only narrows.
    const filter = { preset: 'conversation', code: 'summary' };
    await writeJson(projectFile, { enabled: false, scopes: ['workspace'], recall: { timeoutMs: 300, enabled: false }, filter, brief: { budget: 500 } });
    const config = await resolved();
    expect(config.settings).toMatchObject({ enabled: false, scopes: 'workspace', filter, recall: { timeoutMs: 300, enabled: false }, brief: { budget: 500 } });
    expect(config.origins).toMatchObject({ enabled: 'project', scopes: 'project', 'recall.timeoutMs': 'project', filter: 'project' });
    expect(config.ignored).toEqual([]);
  });

  it('cannot add the team scope, consent to it or name the author; may turn the team off', async () => {
    await writeJson(userConfigPath(env), { ...USER, recall: { scopes: 'session' } });
    await writeJson(projectFile, { recall: { scopes: ['session', 'team'] }, team: { consent: true, displayName: 'Mallory' } });
    const config = await resolved();
    expect(config.settings.recall.scopes).toBe('session');
    expect(config.settings.team).toEqual({ consent: false, displayName: '' });
    expect(config.ignored.map((entry) => entry.key).sort()).toEqual(['recall.scopes', 'team.consent', 'team.displayName']);

    await writeJson(userConfigPath(env), { ...USER, team: { consent: true, displayName: 'Alice' } });
    await writeJson(projectFile, { recall: { scopes: ['session', 'workspace', 'team'] }, team: { consent: false } });
    const narrowed = await resolved();
    expect(narrowed.settings.recall.scopes).toEqual(['session', 'workspace', 'team']);
    expect(narrowed.settings.team).toEqual({ consent: false, displayName: 'Alice' });
    expect(narrowed.ignored).toEqual([]);
  });

  it('cannot choose per-message episodes or bigger digests, and may choose smaller or sooner ones', async () => {
    await writeJson(userConfigPath(env), { ...USER, enabled: true });
    await writeJson(projectFile, { capture: { granularity: 'turn', digestTurns: 50, idleMinutes: 60 } });
    const widening = await resolved();
    expect(widening.settings.capture).toMatchObject({ granularity: 'session', digestTurns: 10, idleMinutes: 5 });
    expect(widening.ignored.map((entry) => entry.key).sort()).toEqual(['capture.digestTurns', 'capture.granularity', 'capture.idleMinutes']);
    await writeJson(projectFile, { capture: { granularity: 'session', digestTurns: 4, idleMinutes: 2 } });
    const narrowing = await resolved();
    expect(narrowing.settings.capture).toMatchObject({ granularity: 'session', digestTurns: 4, idleMinutes: 2 });
    expect(narrowing.ignored).toEqual([]);
  });

  it("cannot send the user's chats to a chat model for digests, nor pick the model; may keep the filtered digest", async () => {
    await writeJson(userConfigPath(env), { ...USER, enabled: true });
    await writeJson(projectFile, { capture: { digestWriter: 'chatModel', digestModel: 'some-model' } });
    const widening = await resolved();
    expect(widening.settings.capture).toMatchObject({ digestWriter: 'filtered', digestModel: '' });
    expect(widening.ignored.map((entry) => entry.key).sort()).toEqual(['capture.digestModel', 'capture.digestWriter']);
    await writeJson(userConfigPath(env), { ...USER, enabled: true, capture: { digestWriter: 'chatModel' } });
    await writeJson(projectFile, { capture: { digestWriter: 'filtered' } });
    const narrowing = await resolved();
    expect(narrowing.settings.capture.digestWriter).toBe('filtered');
    expect(narrowing.ignored).toEqual([]);
  });

  it('repeating the user value is not a widening (nothing ignored)', async () => {
    await writeJson(userConfigPath(env), { ...USER, enabled: true });
    await writeJson(projectFile, { enabled: true, endpoint: 'http://user.example:8000/' });
    expect((await resolved()).ignored).toEqual([]);
  });

  it('widens once trusted; editing the file makes the trust lapse; untrust withdraws it', async () => {
    await writeJson(userConfigPath(env), USER);
    await writeJson(projectFile, { enabled: true, endpoint: 'http://project.example:9000', recall: { timeoutMs: 10_000 } });
    await trustProjectFile(state, projectFile);
    expect(await readTrustedProjectFiles(state)).toEqual({ [projectFile]: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown });
    expect((await fs.stat(sharedStateFiles(state).trustedProjectFiles)).mode & 0o777).toBe(0o600);
    let config = await resolved();
    expect(config.projectTrusted).toBe(true);
    expect(config.settings).toMatchObject({ enabled: true, endpoint: 'http://project.example:9000', recall: { timeoutMs: 10_000 } });
    expect(config.ignored).toEqual([]);
    // The synchronous read (VS Code's settings source) agrees.
    const sync = resolveMemoryConfigSync({ workspaceFolder: repo, env });
    expect(sync.ok && sync.config.settings.endpoint).toBe('http://project.example:9000');

    await writeJson(projectFile, { enabled: true, endpoint: 'http://other.example:9000' });
    config = await resolved();
    expect(config.projectTrusted).toBe(false);
    expect(config.settings).toMatchObject({ enabled: false, endpoint: 'http://user.example:8000' });
    expect(config.ignored.find((entry) => entry.key === 'endpoint')?.why).toContain('the file changed since you trusted it');

    await trustProjectFile(state, projectFile);
    expect((await resolved()).settings.endpoint).toBe('http://other.example:9000');
    expect(await untrustProjectFile(state, projectFile)).toBe(true);
    expect(await untrustProjectFile(state, projectFile)).toBe(false);
    expect((await resolved()).settings.endpoint).toBe('http://user.example:8000');
  });

  it('gives the digest it read (projectDigest), and trusting that digest trusts that content only, not a later edit', async () => {
    await writeJson(userConfigPath(env), USER);
    await writeJson(projectFile, { endpoint: 'http://project.example:9000' });
    const seen = (await resolved()).projectDigest;
    expect(seen).toMatch(/^[0-9a-f]{64}$/);
    // Edited after the user was asked about the content above: the answer trusts what was asked about.
    await writeJson(projectFile, { endpoint: 'http://other.example:9000' });
    expect(await trustProjectFile(state, projectFile, seen)).toBe(seen);
    expect((await resolved()).projectTrusted).toBe(false);
    await writeJson(projectFile, { endpoint: 'http://project.example:9000' });
    expect((await resolved()).projectTrusted).toBe(true);
    await expect(trustProjectFile(state, projectFile, 'not-a-digest')).rejects.toThrow(/"not-a-digest" is not a sha256 digest; pass the configuration's projectDigest/);
    await fs.rm(projectFile);
    expect((await resolved()).projectDigest).toBeUndefined();
  });

  it('names user-only keys (state folder, consent, user key) as ignored, trusted or not', async () => {
    await writeJson(projectFile, { stateDir: path.join(root, 'elsewhere'), userKey: 'stolen-user-key' });
    await trustProjectFile(state, projectFile);
    const config = await resolved();
    expect(config.settings.stateDir).toBe(state);
    expect(config.origins.stateDir).toBe('env');
    expect(config.ignored.map((entry) => entry.key).sort()).toEqual(['stateDir', 'userKey']);
  });
});

describe('project file lookup', () => {
  it('never reads a project file above the repository root', async () => {
    await writeJson(path.join(root, 'work', '.graphiti-memory.json'), { endpoint: 'http://parent.example:9000' });
    expect(lookupProjectConfig(path.join(repo, 'src')).file).toBeUndefined();
    expect((await resolved()).files.project).toBeUndefined();
    // Trusting it changes nothing: it is outside the repository.
    await trustProjectFile(state, path.join(root, 'work', '.graphiti-memory.json'));
    expect((await resolved()).settings.endpoint).toBeUndefined();
  });

  it('without a repository, reads only the workspace folder itself', async () => {
    const loose = path.join(root, 'loose', 'sub');
    await fs.mkdir(loose, { recursive: true });
    await writeJson(path.join(root, 'loose', '.graphiti-memory.json'), { enabled: false });
    expect(lookupProjectConfig(loose).file).toBeUndefined();
    await writeJson(path.join(loose, '.graphiti-memory.json'), { enabled: false });
    expect(lookupProjectConfig(loose).file).toBe(path.join(loose, '.graphiti-memory.json'));
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a file owned by another user, and names it', async () => {
    await writeJson(projectFile, { enabled: false });
    await fs.chown(projectFile, 12_345, 12_345);
    const lookup = lookupProjectConfig(repo);
    expect(lookup.file).toBeUndefined();
    expect(lookup.refused).toEqual([{ file: projectFile, why: expect.stringContaining('owned by another user') as unknown }]);
    expect((await resolved(repo)).ignored).toEqual([{ file: projectFile, key: '*', why: expect.stringContaining('owned by another user') as unknown }]);
  });
});
