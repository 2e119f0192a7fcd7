import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentHooksStatus } from './agent-hook-files.js';
import { connectAgents, disconnectAgents } from './connect-agents.js';
import { installRunner, runnersDirectory } from './runner-install.js';

let root: string;
let home: string;
let stateDirectory: string;
let env: Record<string, string>;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'runner-install-'));
  home = path.join(root, 'home');
  stateDirectory = path.join(root, 'state');
  env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), GRAPHITI_MEMORY_STATE_DIR: stateDirectory, HOME: home, GRAPHITI_MEMORY_HOOK_SERVER: '0' };
  await fs.mkdir(home, { recursive: true });
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** A built runner as agent-hooks' build writes it: the entry names its core's build. */
async function builtRunner(name: string, build: string, options: { prompt?: boolean } = {}): Promise<string> {
  const folder = path.join(root, name, 'dist');
  await fs.mkdir(folder, { recursive: true });
  await fs.writeFile(path.join(folder, 'hook-runner.cjs'), `#!/usr/bin/env node\nconst BUILD = "${build}";\n`);
  await fs.writeFile(path.join(folder, `hook-runner-core-${build}.cjs`), `module.exports = { build: "${build}" };\n`);
  if (options.prompt !== false) await fs.writeFile(path.join(folder, `hook-runner-prompt-${build}.cjs`), 'module.exports = {};\n');
  // An older build's core beside it (turbo's cache leaves them): never copied.
  await fs.writeFile(path.join(folder, 'hook-runner-core-dead00.cjs'), '');
  return path.join(folder, 'hook-runner.cjs');
}

const command = (scriptPath: string) => ({ nodePath: process.execPath, scriptPath, installedBy: 'graphiti-harness' });

const connectedTargets: readonly string[] = ['claude', 'copilot'];

function connect(scriptPath: string, version: string) {
  return connectAgents({ env, home, targets: ['claude', 'copilot'], command: command(scriptPath), runnerVersion: version, endpoint: 'http://127.0.0.1:8000', by: 'graphiti-harness', stateDirectory });
}

async function runnerFolders(): Promise<string[]> {
  return (await fs.readdir(runnersDirectory(stateDirectory))).sort();
}

describe('installRunner', () => {
  it('copies the entry, the cores it names and a runner.json into <state>/runner/<version>+<build>/, once', async () => {
    const source = await builtRunner('checkout', 'abc123');
    const installed = await installRunner({ sourceEntry: source, version: '0.1.0', stateDirectory });
    const folder = path.join(stateDirectory, 'runner', '0.1.0+abc123');
    expect(installed).toEqual({ entry: path.join(folder, 'hook-runner.cjs'), folder, version: '0.1.0', build: 'abc123', copied: true });
    expect((await fs.readdir(folder)).sort()).toEqual(['hook-runner-core-abc123.cjs', 'hook-runner-prompt-abc123.cjs', 'hook-runner.cjs', 'runner.json']);
    expect(JSON.parse(await fs.readFile(path.join(folder, 'runner.json'), 'utf8'))).toEqual({ version: '0.1.0', build: 'abc123' });
    expect(await fs.readFile(installed.entry, 'utf8')).toBe(await fs.readFile(source, 'utf8'));
    // Nothing left under a temporary name; a second install writes nothing.
    expect(await runnerFolders()).toEqual(['0.1.0+abc123']);
    expect((await installRunner({ sourceEntry: source, version: '0.1.0', stateDirectory })).copied).toBe(false);
  });

  it('replaces a damaged copy of the same build', async () => {
    const source = await builtRunner('checkout', 'abc123', { prompt: false });
    const { folder, entry } = await installRunner({ sourceEntry: source, version: '0.1.0', stateDirectory });
    await fs.writeFile(path.join(folder, 'hook-runner-core-abc123.cjs'), '');
    expect((await installRunner({ sourceEntry: source, version: '0.1.0', stateDirectory })).copied).toBe(true);
    expect(await fs.readFile(path.join(folder, 'hook-runner-core-abc123.cjs'), 'utf8')).toContain('abc123');
    expect(await fs.readFile(entry, 'utf8')).toContain('abc123');
  });

  it('refuses a source that is no built runner, naming it, and writes nothing', async () => {
    const missing = path.join(root, 'nowhere', 'hook-runner.cjs');
    await expect(installRunner({ sourceEntry: missing, version: '0.1.0', stateDirectory })).rejects.toThrow(missing);
    await expect(installRunner({ sourceEntry: await builtRunner('checkout', 'abc123'), version: '../x', stateDirectory })).rejects.toThrow(/not a version/);
    await expect(fs.access(runnersDirectory(stateDirectory))).rejects.toThrow();
  });
});

describe('connectAgents and disconnectAgents with a runner copy', () => {
  it('point the hook files at the copy, which keeps working when the source is gone; status names it', async () => {
    const source = await builtRunner('checkout', 'abc123');
    const connected = await connect(source, '0.1.0');
    await fs.rm(path.join(root, 'checkout'), { recursive: true });
    const copy = path.join(stateDirectory, 'runner', '0.1.0+abc123', 'hook-runner.cjs');
    expect(connected.runner?.entry).toBe(copy);
    const statuses = (await agentHooksStatus(home)).filter((status) => connectedTargets.includes(status.target));
    expect(statuses).toHaveLength(2);
    for (const status of statuses) {
      expect(status.entries.length).toBe(4);
      for (const entry of status.entries) expect(entry.command).toContain(copy);
      expect(status.runner).toEqual({ path: copy, version: '0.1.0', present: true });
    }
    // A copy gone missing is reported as such.
    await fs.rm(path.join(stateDirectory, 'runner', '0.1.0+abc123', 'hook-runner-core-abc123.cjs'));
    expect((await agentHooksStatus(home))[0]?.runner).toEqual({ path: copy, version: '0.1.0', present: false });
  });

  it('an upgrade installs beside the old copy, then switches; the copy before that is removed; uninstall removes what no hook file runs', async () => {
    await connect(await builtRunner('v1', 'aaa111'), '0.1.0');
    const second = await connect(await builtRunner('v2', 'bbb222'), '0.2.0');
    // The one the hook files ran until now stays for a session that started it.
    expect(await runnerFolders()).toEqual(['0.1.0+aaa111', '0.2.0+bbb222']);
    expect(second.removedRunners).toEqual([]);
    expect((await agentHooksStatus(home)).filter((status) => connectedTargets.includes(status.target)).map((status) => status.runner?.version)).toEqual(['0.2.0', '0.2.0']);
    const third = await connect(await builtRunner('v3', 'ccc333'), '0.3.0');
    expect(await runnerFolders()).toEqual(['0.2.0+bbb222', '0.3.0+ccc333']);
    expect(third.removedRunners).toEqual([path.join(stateDirectory, 'runner', '0.1.0+aaa111')]);

    // Copilot alone: Claude still runs the copy, so it stays (the unused previous one goes).
    const copilotOnly = await disconnectAgents({ env, home, targets: ['copilot'], by: 'graphiti-harness', stateDirectory });
    expect(copilotOnly.removedRunners).toEqual([path.join(stateDirectory, 'runner', '0.2.0+bbb222')]);
    expect(await runnerFolders()).toEqual(['0.3.0+ccc333']);
    const all = await disconnectAgents({ env, home, targets: ['claude', 'copilot'], by: 'graphiti-harness', stateDirectory });
    expect(all.removedRunners).toEqual([path.join(stateDirectory, 'runner', '0.3.0+ccc333')]);
    expect(await runnerFolders()).toEqual([]);
  });

  it('uninstall finds the copies in the state folder the hook files ran them from', async () => {
    await connect(await builtRunner('checkout', 'abc123'), '0.1.0');
    const elsewhere = path.join(root, 'default-state');
    const removed = await disconnectAgents({ env, home, targets: ['claude', 'copilot'], by: 'graphiti-harness', stateDirectory: elsewhere });
    expect(removed.removedRunners).toEqual([path.join(stateDirectory, 'runner', '0.1.0+abc123')]);
    expect(await runnerFolders()).toEqual([]);
  });

  it('leaves the runner where it is without runnerVersion (a --runner the user points at)', async () => {
    const source = await builtRunner('checkout', 'abc123');
    await connectAgents({ env, home, targets: ['claude'], command: command(source), endpoint: 'http://127.0.0.1:8000', by: 'graphiti-harness', stateDirectory });
    expect((await agentHooksStatus(home))[0]?.runner).toEqual({ path: source, version: null, present: true });
    await expect(fs.access(runnersDirectory(stateDirectory))).rejects.toThrow();
  });
});
