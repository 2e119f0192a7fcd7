import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentHookFile, agentHooksStatus, BACKUP_SUFFIX, installAgentHooks, uninstallAgentHooks } from './agent-hook-files.js';
import { hookCommandLine, isOurHookCommand, type AgentHookCommand } from './hook-command.js';

let home: string;
const command: AgentHookCommand = { nodePath: '/opt/node 20/bin/node', scriptPath: '/opt/graphiti/hook-runner.cjs', installedBy: 'graphiti-harness' };

beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-hooks-home-'));
});
afterEach(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

const userSettings = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: '/usr/local/bin/my-own-hook' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
  },
};

describe('Claude Code settings', () => {
  it('merges our four events into ~/.claude/settings.json, keeping every other key and hook, with a backup', async () => {
    const file = agentHookFile('claude', home);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify(userSettings, null, 2));
    const change = await installAgentHooks({ target: 'claude', home, command });
    expect(change).toMatchObject({ changed: true, entries: 4, backup: `${file}${BACKUP_SUFFIX}` });
    expect(JSON.parse(await fs.readFile(`${file}${BACKUP_SUFFIX}`, 'utf8'))).toEqual(userSettings);
    const written = JSON.parse(await fs.readFile(file, 'utf8')) as typeof userSettings & { hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>> };
    expect(written.model).toBe('opus');
    expect(written.permissions).toEqual(userSettings.permissions);
    expect(written.hooks['PreToolUse']).toEqual(userSettings.hooks.PreToolUse);
    expect(written.hooks['UserPromptSubmit']?.[0]).toEqual(userSettings.hooks.UserPromptSubmit[0]);
    expect(written.hooks['UserPromptSubmit']?.[1]?.hooks[0]?.command).toBe(
      "'/opt/node 20/bin/node' /opt/graphiti/hook-runner.cjs --event UserPromptSubmit --installed-by graphiti-harness",
    );
    for (const event of ['SessionStart', 'Stop', 'SessionEnd']) expect(written.hooks[event]).toHaveLength(1);
  });

  it('adds nothing when run twice, and uninstall removes exactly our entries', async () => {
    const file = agentHookFile('claude', home);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify(userSettings));
    await installAgentHooks({ target: 'claude', home, command });
    const once = await fs.readFile(file, 'utf8');
    const again = await installAgentHooks({ target: 'claude', home, command });
    expect(again.changed).toBe(false);
    expect(await fs.readFile(file, 'utf8')).toBe(once);
    // A new runner path replaces our entries instead of adding a second set.
    await installAgentHooks({ target: 'claude', home, command: { ...command, scriptPath: '/new/hook-runner.cjs' } });
    expect((await agentHooksStatus(home))[0]?.entries).toHaveLength(4);
    const removed = await uninstallAgentHooks({ target: 'claude', home });
    expect(removed).toMatchObject({ changed: true, entries: 0 });
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual(userSettings);
  });

  it('creates the file when missing and leaves a file that is not JSON untouched', async () => {
    await installAgentHooks({ target: 'claude', home, command });
    expect((await agentHooksStatus(home))[0]).toMatchObject({ target: 'claude', exists: true });
    const file = agentHookFile('claude', home);
    await fs.writeFile(file, '{ "model": "opus", ');
    await expect(installAgentHooks({ target: 'claude', home, command })).rejects.toThrow(/not valid JSON.*left untouched/);
    expect(await fs.readFile(file, 'utf8')).toBe('{ "model": "opus", ');
  });
});

describe('hook command lines', () => {
  it("spells variables before the command (VS Code's Electron binary as node) and still recognises the entry as ours", async () => {
    const electron = { nodePath: '/usr/share/code/code', scriptPath: '/home/u/.config/graphiti-memory/hook-runner.cjs', leadingArguments: ['hook'], installedBy: 'vscode', environment: { ELECTRON_RUN_AS_NODE: '1' } };
    const posix = hookCommandLine(electron, 'Stop', 'posix');
    expect(posix).toBe('ELECTRON_RUN_AS_NODE=1 /usr/share/code/code /home/u/.config/graphiti-memory/hook-runner.cjs hook --event Stop --installed-by vscode');
    expect(hookCommandLine(electron, 'Stop', 'powershell')).toBe(
      "$env:ELECTRON_RUN_AS_NODE='1'; & '/usr/share/code/code' '/home/u/.config/graphiti-memory/hook-runner.cjs' 'hook' '--event' 'Stop' '--installed-by' 'vscode'",
    );
    expect(isOurHookCommand(posix)).toBe(true);
    expect(() => hookCommandLine({ ...electron, environment: { 'A B': '1' } }, 'Stop')).toThrow(/not a valid environment variable name/);
    expect(() => hookCommandLine({ ...electron, nodePath: 'node' }, 'Stop')).toThrow(/absolute path/);
    await installAgentHooks({ target: 'claude', home, command: electron });
    expect((await agentHooksStatus(home))[0]?.entries).toHaveLength(4);
    await uninstallAgentHooks({ target: 'claude', home });
    expect((await agentHooksStatus(home))[0]?.entries).toHaveLength(0);
  });
});

describe('Copilot hooks file', () => {
  it('writes ~/.copilot/hooks/graphiti-memory.json in Copilot format and deletes it on uninstall', async () => {
    const change = await installAgentHooks({ target: 'copilot', home, command });
    expect(change.file).toBe(path.join(home, '.copilot', 'hooks', 'graphiti-memory.json'));
    const written = JSON.parse(await fs.readFile(change.file, 'utf8')) as { version: number; hooks: Record<string, Array<Record<string, unknown>>> };
    expect(written.version).toBe(1);
    expect(Object.keys(written.hooks)).toEqual(['sessionStart', 'userPromptSubmitted', 'agentStop', 'sessionEnd']);
    expect(written.hooks['userPromptSubmitted']?.[0]).toMatchObject({
      type: 'command',
      command: "'/opt/node 20/bin/node' /opt/graphiti/hook-runner.cjs --event UserPromptSubmit --installed-by graphiti-harness",
      windows: "& '/opt/node 20/bin/node' '/opt/graphiti/hook-runner.cjs' '--event' 'UserPromptSubmit' '--installed-by' 'graphiti-harness'",
      timeoutSec: 10,
    });
    expect((await installAgentHooks({ target: 'copilot', home, command })).changed).toBe(false);
    await uninstallAgentHooks({ target: 'copilot', home });
    await expect(fs.stat(change.file)).rejects.toThrow();
    expect((await agentHooksStatus(home))[1]).toMatchObject({ target: 'copilot', exists: false, entries: [] });
  });
});
