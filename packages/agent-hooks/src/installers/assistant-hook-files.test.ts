// Codex, Gemini CLI and Copilot CLI hook files, as their descriptors lay them out; Claude Code's and
// Copilot-in-VS-Code's are in agent-hook-files.test.ts.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexHookHash } from '../assistants/codex-hook-trust.js';
import { agentHookFile, agentHooksStatus, installAgentHooks, uninstallAgentHooks } from './agent-hook-files.js';
import { AGENT_HOOK_TARGETS } from '../assistants/assistant-registry.js';
import type { AgentHookCommand } from './hook-command.js';

let home: string;
const command: AgentHookCommand = { nodePath: '/opt/node/bin/node', scriptPath: '/opt/graphiti/hook-runner.cjs', installedBy: 'graphiti-harness' };

beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'assistant-hooks-home-'));
});
afterEach(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

const readJson = async (file: string): Promise<Record<string, unknown>> => JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;

describe('Codex', () => {
  it("merges our four events into $CODEX_HOME/hooks.json after the user's own, naming the assistant, and records Codex's trust for exactly them", async () => {
    const codexHome = path.join(home, 'codex-home');
    const env = { CODEX_HOME: codexHome };
    const file = agentHookFile('codex', home, env);
    expect(file).toBe(path.join(codexHome, 'hooks.json'));
    await fs.mkdir(codexHome, { recursive: true });
    const users = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }] } };
    await fs.writeFile(file, JSON.stringify(users));
    await fs.writeFile(path.join(codexHome, 'config.toml'), 'model = "o4"\n');
    const change = await installAgentHooks({ target: 'codex', home, command, env });
    expect(change).toMatchObject({ changed: true, entries: 4, trust: { changed: true } });
    const written = (await readJson(file)) as { hooks: Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>> };
    expect(Object.keys(written.hooks)).toEqual(['Stop', 'SessionStart', 'UserPromptSubmit', 'SessionEnd']);
    expect(written.hooks['Stop']?.[0]).toEqual(users.hooks.Stop[0]);
    const stop = written.hooks['Stop']?.[1]?.hooks[0];
    expect(stop?.command).toBe('/opt/node/bin/node /opt/graphiti/hook-runner.cjs --event Stop --agent codex --installed-by graphiti-harness');
    expect(stop?.timeout).toBe(15);
    expect(written.hooks['SessionEnd']?.[0]?.hooks[0]?.timeout).toBe(3);
    const state = (parse(await fs.readFile(path.join(codexHome, 'config.toml'), 'utf8')) as { model: string; hooks: { state: Record<string, { trusted_hash: string }> } });
    expect(state.model).toBe('o4');
    expect(Object.keys(state.hooks.state).sort()).toEqual([`${file}:session_end:0:0`, `${file}:session_start:0:0`, `${file}:stop:1:0`, `${file}:user_prompt_submit:0:0`]);
    expect(state.hooks.state[`${file}:stop:1:0`]?.trusted_hash).toBe(codexHookHash('Stop', { command: stop?.command ?? '', timeout: 15 }));
    const status = (await agentHooksStatus(home, env)).find((entry) => entry.target === 'codex');
    expect(status).toMatchObject({ entries: expect.arrayContaining([{ event: 'Stop', command: stop?.command }]), trust: { trusted: true } });
    // Installing again changes nothing.
    expect(await installAgentHooks({ target: 'codex', home, command, env })).toMatchObject({ changed: false, trust: { changed: false } });
    const removed = await uninstallAgentHooks({ target: 'codex', home, env });
    expect(removed).toMatchObject({ changed: true, entries: 0, trust: { changed: true } });
    expect(await readJson(file)).toEqual(users);
    expect(await fs.readFile(path.join(codexHome, 'config.toml'), 'utf8')).toBe('model = "o4"\n');
  });

  it('status says when Codex would skip our hooks (not trusted: the user edited one by hand)', async () => {
    await installAgentHooks({ target: 'codex', home, command });
    const file = agentHookFile('codex', home);
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace('"timeout": 10', '"timeout": 11'));
    const status = (await agentHooksStatus(home)).find((entry) => entry.target === 'codex');
    expect(status?.trust).toMatchObject({ trusted: false, detail: expect.stringMatching(/1 of 4 not trusted/) });
  });
});

describe('Gemini CLI', () => {
  it('merges named entries with timeouts in milliseconds under its own event names into ~/.gemini/settings.json', async () => {
    const file = agentHookFile('gemini', home);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ general: { enableAutoUpdate: false }, hooks: { BeforeAgent: [{ hooks: [{ name: 'mine', type: 'command', command: 'mine.sh', timeout: 500 }] }] } }));
    expect(await installAgentHooks({ target: 'gemini', home, command })).toMatchObject({ changed: true, entries: 4 });
    const written = (await readJson(file)) as { general: unknown; hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>> };
    expect(written.general).toEqual({ enableAutoUpdate: false });
    expect(Object.keys(written.hooks).sort()).toEqual(['AfterAgent', 'BeforeAgent', 'SessionEnd', 'SessionStart']);
    expect(written.hooks['BeforeAgent']?.[1]?.hooks[0]).toEqual({
      name: 'graphiti-memory-UserPromptSubmit',
      type: 'command',
      command: '/opt/node/bin/node /opt/graphiti/hook-runner.cjs --event UserPromptSubmit --agent gemini --installed-by graphiti-harness',
      timeout: 10_000,
    });
    await uninstallAgentHooks({ target: 'gemini', home });
    expect(await readJson(file)).toEqual({ general: { enableAutoUpdate: false }, hooks: { BeforeAgent: [{ hooks: [{ name: 'mine', type: 'command', command: 'mine.sh', timeout: 500 }] }] } });
  });
});

describe('Copilot CLI beside Copilot in VS Code', () => {
  it('writes its own file with bash / powershell commands, leaves VS Code\'s file alone, and each status sees only its own', async () => {
    await installAgentHooks({ target: 'copilot', home, command });
    const change = await installAgentHooks({ target: 'copilot-cli', home, command });
    expect(change.file).toBe(path.join(home, '.copilot', 'hooks', 'graphiti-memory-cli.json'));
    const written = (await readJson(change.file)) as { version: number; hooks: Record<string, Array<Record<string, unknown>>> };
    expect(written.version).toBe(1);
    expect(Object.keys(written.hooks)).toEqual(['sessionStart', 'userPromptSubmitted', 'agentStop', 'sessionEnd']);
    expect(written.hooks['userPromptSubmitted']?.[0]).toEqual({
      type: 'command',
      bash: '/opt/node/bin/node /opt/graphiti/hook-runner.cjs --event UserPromptSubmit --agent copilot-cli --installed-by graphiti-harness',
      powershell: "& '/opt/node/bin/node' '/opt/graphiti/hook-runner.cjs' '--event' 'UserPromptSubmit' '--agent' 'copilot-cli' '--installed-by' 'graphiti-harness'",
      timeoutSec: 10,
    });
    // VS Code's file keeps VS Code's keys (`command`), which Copilot CLI does not run.
    const vscode = (await readJson(agentHookFile('copilot', home))) as { hooks: Record<string, Array<Record<string, unknown>>> };
    expect(Object.keys(vscode.hooks['sessionStart']?.[0] ?? {})).toEqual(['type', 'command', 'windows', 'timeoutSec']);
    const statuses = await agentHooksStatus(home);
    expect(statuses.map((status) => [status.target, status.entries.length])).toEqual([
      ['claude', 0],
      ['copilot', 4],
      ['codex', 0],
      ['gemini', 0],
      ['copilot-cli', 4],
    ]);
    // A second install (another runner) leaves a backup of our own file; uninstall takes both.
    await installAgentHooks({ target: 'copilot-cli', home, command: { ...command, scriptPath: '/opt/graphiti-2/hook-runner.cjs' } });
    await uninstallAgentHooks({ target: 'copilot-cli', home });
    await expect(fs.access(change.file)).rejects.toThrow();
    expect((await fs.readdir(path.dirname(change.file))).filter((name) => name.startsWith('graphiti-memory-cli'))).toEqual([]);
    expect((await agentHooksStatus(home)).find((status) => status.target === 'copilot')?.entries).toHaveLength(4);
  });

  it('lists every registered assistant in status', async () => {
    expect((await agentHooksStatus(home)).map((status) => status.target)).toEqual([...AGENT_HOOK_TARGETS]);
  });
});
