// The harness's commands take what the command line leaves open from the shared configuration:
// flags > env > project > user, against a real emulator over HTTP.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { parseMemorySettings } from '@graphiti-memory/memory-core';
import { memorySettingsFor, writeApiKeyFile, type ResolvedMemoryConfig } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capturedTerminal } from '../test-support/captured-terminal.js';
import { runCommand } from './command-runner.js';
import { ExitCode } from './harness-errors.js';
import { runHarness } from './program.js';

let user: RunningEmulator;
let project: RunningEmulator;
let root: string;
let workspace: string;
let env: Record<string, string>;

beforeEach(async () => {
  [user, project] = await Promise.all([startEmulator({}), startEmulator({})]);
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-config-'));
  workspace = path.join(root, 'repo');
  // The repository's root: project files are looked up from the workspace up to here.
  await fs.mkdir(path.join(workspace, '.git'), { recursive: true });
  env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config') };
  await fs.mkdir(env['GRAPHITI_MEMORY_CONFIG_DIR'] ?? '', { recursive: true });
  await fs.writeFile(path.join(root, 'config', 'config.json'), JSON.stringify({ endpoint: user.url, stateDir: path.join(root, 'state') }));
});

afterEach(async () => {
  await Promise.all([user.close(), project.close()]);
  await fs.rm(root, { recursive: true, force: true });
});

async function health(args: readonly string[] = [], extraEnv: Record<string, string> = {}) {
  const terminal = capturedTerminal({ cwd: workspace, env: { ...env, ...extraEnv } });
  const exitCode = await runHarness(['health', '--json', ...args], { terminal });
  return { exitCode, out: terminal.out(), err: terminal.err() };
}

async function runHarnessIn(args: readonly string[], cwd = workspace) {
  const terminal = capturedTerminal({ cwd, env });
  const exitCode = await runHarness(args, { terminal });
  return { exitCode, out: terminal.out(), err: terminal.err() };
}

describe('project files the user has not trusted', () => {
  async function recall(cwd = workspace) {
    return runHarnessIn(['recall', 'what does the team use for installs', '--scopes', 'workspace', '--json'], cwd);
  }

  beforeEach(async () => {
    await writeApiKeyFile('sk-user-key-for-user-endpoint', env);
  });

  it("recall never sends to a project file's endpoint (nor the user's API key) until the file is trusted; editing it lapses the trust", async () => {
    const projectFile = path.join(workspace, '.graphiti-memory.json');
    await fs.writeFile(projectFile, JSON.stringify({ endpoint: project.url, recall: { timeoutMs: 10_000 } }));
    const untrusted = await recall();
    expect(untrusted.exitCode, untrusted.err).toBe(0);
    expect(project.requests).toHaveLength(0);
    expect(user.requests.some((request) => request.headerNames.includes('authorization') || request.headerNames.includes('x-api-key'))).toBe(true);
    expect(untrusted.err).toContain(`${projectFile}: ignored endpoint (a project file may not set it); recall.timeoutMs (a project file may only lower it (below: 750)) — \`graphiti-harness config trust ${projectFile}\` trusts it`);

    const trusted = await runHarnessIn(['config', 'trust', '--json']);
    expect(trusted.exitCode, trusted.err).toBe(0);
    expect(JSON.parse(trusted.out)).toMatchObject({ ok: true, file: projectFile, trusted: true, applies: ['endpoint', 'recall.timeoutMs'] });
    user.clearRequests();
    expect((await recall()).exitCode).toBe(0);
    expect(project.requests.length).toBeGreaterThan(0);
    expect(user.requests).toHaveLength(0);

    // An edit (a pull, a checkout) makes the trust lapse.
    await fs.writeFile(projectFile, JSON.stringify({ endpoint: project.url }));
    project.clearRequests();
    expect((await recall()).exitCode).toBe(0);
    expect(project.requests).toHaveLength(0);
    expect(user.requests.length).toBeGreaterThan(0);

    expect((await runHarnessIn(['config', 'trust', projectFile])).exitCode).toBe(0);
    expect((await runHarnessIn(['config', 'untrust', workspace])).exitCode).toBe(0);
    user.clearRequests();
    expect((await recall()).exitCode).toBe(0);
    expect(project.requests).toHaveLength(0);
  });

  it("never reads a project file in a parent folder outside the repository, even trusted", async () => {
    const parentFile = path.join(root, '.graphiti-memory.json');
    await fs.writeFile(parentFile, JSON.stringify({ endpoint: project.url }));
    expect((await runHarnessIn(['config', 'trust', parentFile])).exitCode).toBe(0);
    expect((await recall(path.join(workspace))).exitCode).toBe(0);
    expect(project.requests).toHaveLength(0);
    expect(user.requests.length).toBeGreaterThan(0);
  });

  it('hooks status names what the hooks ignore of the project file', async () => {
    const projectFile = path.join(workspace, '.graphiti-memory.json');
    await fs.writeFile(projectFile, JSON.stringify({ enabled: true, groupIdStrategy: 'raw' }));
    const terminal = capturedTerminal({ cwd: workspace, env: { ...env, HOME: root } });
    expect(await runHarness(['hooks', 'status', '--json'], { terminal }), terminal.err()).toBe(0);
    const json = JSON.parse(terminal.out()) as { ignored: { key: string; file: string }[] };
    expect(json.ignored.map((entry) => [entry.key, entry.file])).toEqual([
      ['enabled', projectFile],
      ['groupIdStrategy', projectFile],
    ]);
  });

  it('config show lists the ignored keys and why', async () => {
    const projectFile = path.join(workspace, '.graphiti-memory.json');
    await fs.writeFile(projectFile, JSON.stringify({ enabled: true, recall: { timeoutMs: 10_000, maxFacts: 3 } }));
    const shown = await runHarnessIn(['config', 'show', '--json']);
    expect(shown.exitCode, shown.err).toBe(0);
    const json = JSON.parse(shown.out) as { projectTrusted: boolean; ignored: { key: string; file: string }[]; values: { key: string; value: unknown; origin: string }[] };
    expect(json.projectTrusted).toBe(false);
    expect(json.ignored.map((entry) => entry.key)).toEqual(['enabled', 'recall.timeoutMs']);
    expect(json.values.find((entry) => entry.key === 'recall.maxFacts')).toMatchObject({ value: 3, origin: 'project' });
    const human = await runHarnessIn(['config', 'show']);
    expect(human.out).toContain('(not trusted: it may only narrow what is sent)');
    expect(human.out).toContain(`ignored recall.timeoutMs (${projectFile}): a project file may only lower it (below: 750)`);
  });
});

describe('config files for harness commands', () => {
  it('uses the user config when no flag is given, the project file over it, env over both, and a flag over all', async () => {
    expect((await health()).exitCode).toBe(0);
    expect(user.requests.some((request) => request.route === 'healthcheck')).toBe(true);
    expect(project.requests).toHaveLength(0);

    await fs.writeFile(path.join(workspace, '.graphiti-memory.json'), JSON.stringify({ endpoint: project.url }));
    expect((await runHarnessIn(['config', 'trust'])).exitCode).toBe(0);
    user.clearRequests();
    expect((await health()).exitCode).toBe(0);
    expect(project.requests.some((request) => request.route === 'healthcheck')).toBe(true);
    expect(user.requests).toHaveLength(0);

    project.clearRequests();
    expect((await health([], { GRAPHITI_MEMORY_ENDPOINT: user.url })).exitCode).toBe(0);
    expect(user.requests.length).toBeGreaterThan(0);
    expect(project.requests).toHaveLength(0);

    user.clearRequests();
    expect((await health(['--endpoint', project.url], { GRAPHITI_MEMORY_ENDPOINT: user.url })).exitCode).toBe(0);
    expect(project.requests.length).toBeGreaterThan(0);
    expect(user.requests).toHaveLength(0);
  });

  it("ignores a repository's bad value and names it with the file (a cloned repository cannot stop a command)", async () => {
    await fs.writeFile(path.join(workspace, '.graphiti-memory.json'), JSON.stringify({ recall: { timeoutMs: 5 } }));
    const result = await health();
    expect(result.exitCode, result.err).toBe(0);
    expect(result.err).toContain(`${path.join(workspace, '.graphiti-memory.json')}: ignored recall.timeoutMs (recall.timeoutMs: must be at least 50 (got 5))`);
  });

  it('refuses a misspelt key with exit 2, naming the file and the nearest key, and sends nothing', async () => {
    const file = path.join(root, 'config', 'config.json');
    await fs.writeFile(file, JSON.stringify({ endpiont: project.url, stateDir: path.join(root, 'state') }));
    const result = await health();
    expect(result.exitCode).toBe(2);
    expect(result.err).toContain(`${file}: unknown key \`endpiont\`; did you mean \`endpoint\`?`);
    expect(project.requests).toHaveLength(0);
  });

  it("honours the config's server, and GRAPHITI_MEMORY_SERVER over it, unless --server is given", async () => {
    // The emulators speak REST: asking for MCP fails, naming the URL.
    await fs.writeFile(path.join(root, 'config', 'config.json'), JSON.stringify({ endpoint: user.url, server: 'mcp' }));
    const fromFile = await health();
    expect(fromFile.exitCode).toBe(1);
    expect(fromFile.err).toContain(user.url);
    expect((await health(['--server', 'rest'])).exitCode).toBe(0);

    await fs.writeFile(path.join(root, 'config', 'config.json'), JSON.stringify({ endpoint: user.url, server: 'rest' }));
    expect((await health()).exitCode).toBe(0);
    expect((await health([], { GRAPHITI_MEMORY_SERVER: 'mcp' })).exitCode).toBe(1);
    const flagWins = await health(['--server', 'rest'], { GRAPHITI_MEMORY_SERVER: 'mcp' });
    expect(flagWins.exitCode).toBe(0);
    expect(JSON.parse(flagWins.out)).toMatchObject({ ok: true, server: 'rest' });
  });
});

describe('the configuration in the command context', () => {
  async function contextConfiguration(raw: Record<string, string>, extraEnv: Record<string, string> = {}): Promise<ResolvedMemoryConfig> {
    let seen: ResolvedMemoryConfig | undefined;
    const terminal = capturedTerminal({ cwd: workspace, env: { ...env, ...extraEnv } });
    const exitCode = await runCommand({ terminal }, raw, async (context) => {
      seen = context.configuration;
      return ExitCode.ok;
    });
    expect(exitCode, terminal.err()).toBe(0);
    if (seen === undefined) throw new Error('the command body did not run');
    return seen;
  }

  it('carries every value with its origin, flags on top, for memorySettingsFor', async () => {
    await fs.writeFile(path.join(root, 'config', 'config.json'), JSON.stringify({ endpoint: user.url, groupIdStrategy: 'raw', recall: { enabled: false, scopes: 'workspace' } }));
    await fs.writeFile(path.join(workspace, '.graphiti-memory.json'), JSON.stringify({ recall: { maxFacts: 4 } }));
    const configuration = await contextConfiguration({ timeoutMs: '900' }, { GRAPHITI_MEMORY_SERVER: 'rest' });
    expect(configuration.origins).toMatchObject({ groupIdStrategy: 'user', 'recall.maxFacts': 'project', server: 'env', timeoutMs: 'flag', includeGitMetadata: 'default' });
    const settings = parseMemorySettings(memorySettingsFor(configuration, { enabled: true }));
    expect(settings.ok).toBe(true);
    expect(settings.settings).toMatchObject({
      groupIdStrategy: 'raw',
      includeGitMetadata: false,
      serverKind: 'rest',
      timeoutMs: 900,
      recall: { enabled: false, scopes: 'workspace', maxFacts: 4 },
    });
  });
});

