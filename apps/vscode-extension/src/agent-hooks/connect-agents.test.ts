import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FileMemorySwitches } from '@graphiti-memory/memory-node-storage';
import { describe, expect, it } from 'vitest';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { answerInputBoxes, answerMessages, testHost, updateSettings } from '../test-support/vscode-double.js';
import { AgentConnection } from './agent-connection.js';
import { CLAUDE_HOOKS_NOTE, CONNECT, DISCONNECT, TURN_CLAUDE_HOOKS_OFF, type AgentCommandResult } from './connect-agents-command.js';


const ON = { 'graphitiMemory.enabled': true, 'graphitiMemory.scopes': 'workspace', 'graphitiMemory.recall.maxFacts': 7 };

// A stand-in for the harness's hook runner: answers like the real one, echoing what it was given.
const FAKE_RUNNER = `
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const event = JSON.parse(input);
  const context = 'runner args: ' + process.argv.slice(2).join(' ') + ' | prompt: ' + event.prompt + ' | electron: ' + (process.env.ELECTRON_RUN_AS_NODE ?? '-');
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: event.hook_event_name, additionalContext: context } }));
});
`;

/** The build a shipped runner names (its core is `hook-runner-core-<build>.cjs` beside it). */
const BUILD_A = 'aaaaaaaaaaaa';

function places(h: Harness, build = BUILD_A) {
  const { home, environment, bundledRunner, version } = h.agentHookPlaces;
  const config = environment['GRAPHITI_MEMORY_CONFIG_DIR']!;
  return {
    home,
    copilotFile: path.join(home, '.copilot', 'hooks', 'graphiti-memory.json'),
    claudeFile: path.join(home, '.claude', 'settings.json'),
    userConfig: path.join(config, 'config.json'),
    keyFile: path.join(config, 'api-key'),
    runnerCopy: path.join(environment['GRAPHITI_MEMORY_STATE_DIR']!, 'runner', `${version}+${build}`, 'hook-runner.cjs'),
    bundledRunner,
  };
}

/** A built runner in the extension's dist: the entry names its core's build, as agent-hooks' build writes it. */
function shipRunner(h: Harness, build = BUILD_A, entry = FAKE_RUNNER): void {
  const { bundledRunner } = places(h);
  fs.mkdirSync(path.dirname(bundledRunner), { recursive: true });
  fs.writeFileSync(path.join(path.dirname(bundledRunner), `hook-runner-core-${build}.cjs`), `// core ${build}`);
  fs.writeFileSync(bundledRunner, `${entry}\nconst BUILD = "${build}";\n`);
}

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;

interface ClaudeSettings {
  readonly model?: string;
  readonly hooks: Record<string, { readonly hooks: { readonly command: string }[] }[]>;
}
const claudeSettings = (file: string) => readJson(file) as unknown as ClaudeSettings;
const claudeCommand = (file: string, event: string) => claudeSettings(file).hooks[event]?.[0]?.hooks[0]?.command;

/** The command of a Copilot hooks file's entry for `event` (Copilot's event names). */
function copilotCommand(file: string, event: string): string {
  const parsed = readJson(file) as { hooks: Record<string, { command: string }[] | undefined> };
  const command = parsed.hooks[event]?.[0]?.command;
  if (command === undefined) throw new Error(`no ${event} entry in ${file}`);
  return command;
}

describe('Connect Copilot Agent and Claude Code', () => {
  it('keeps what it wrote for the hooks in step with the settings while connected (no stale snapshot), and writes nothing when not connected', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    shipRunner(harness);
    const { userConfig } = places(harness);
    updateSettings({ 'graphitiMemory.groupIdStrategy': 'raw' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (fs.existsSync(userConfig)) expect(readJson(userConfig)['groupIdStrategy']).toBeUndefined();
    answerMessages(CONNECT);
    expect((await harness.command<AgentCommandResult>('graphitiMemory.connectAgents')).ok).toBe(true);
    expect(readJson(userConfig)).toMatchObject({ groupIdStrategy: 'raw', recall: { maxFacts: 7, enabled: true } });
    updateSettings({ 'graphitiMemory.groupIdStrategy': 'hashed', 'graphitiMemory.recall.maxFacts': 4, 'graphitiMemory.recall.stale': 'drop' });
    await waitFor(() => readJson(userConfig)['groupIdStrategy'] === 'hashed', 5000, 'the user config to follow the setting');
    expect(readJson(userConfig)).toMatchObject({ recall: { maxFacts: 4, enabled: true, stale: 'drop' } });
  });

  it("warns about chat.useClaudeHooks (each prompt recalled twice) before and after connecting, and turns it off on request", async () => {
    const harness = await activateExtension({ settings: { ...ON, 'chat.useClaudeHooks': true }, consented: true });
    shipRunner(harness);
    answerMessages(CONNECT, undefined, TURN_CLAUDE_HOOKS_OFF);
    expect((await harness.command<AgentCommandResult>('graphitiMemory.connectAgents')).ok).toBe(true);
    expect(testHost().shownMessages[0]?.detail).toContain(CLAUDE_HOOKS_NOTE);
    await waitFor(() => testHost().settings.get('chat.useClaudeHooks') === false, 3000, 'chat.useClaudeHooks turned off');
    expect(testHost().shownMessages.find((message) => message.items.includes(TURN_CLAUDE_HOOKS_OFF))?.message).toContain('recalled twice');
  });

  it('asks first, naming the endpoint and what is sent; declining writes nothing', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    shipRunner(harness);
    answerMessages(undefined);
    const result = await harness.command<AgentCommandResult>('graphitiMemory.connectAgents');
    expect(result.ok).toBe(false);
    const dialog = testHost().shownMessages.find((message) => message.modal);
    expect(dialog?.message).toContain(harness.emulator.url);
    expect(dialog?.detail).toMatch(/prompts, as search queries/);
    expect(dialog?.detail).toMatch(/transcripts of those sessions/);
    expect(dialog?.items).toEqual([CONNECT]);
    const { copilotFile, claudeFile, userConfig } = places(harness);
    for (const file of [copilotFile, claudeFile]) expect(fs.existsSync(file), file).toBe(false);
    // The user config may hold the user memory key, never a consent for the hooks.
    if (fs.existsSync(userConfig)) expect(readJson(userConfig)['consent']).toBeUndefined();
  });

  it('installs hooks that run the bundled runner by absolute path, and shares endpoint, scopes and consent — never the key', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    shipRunner(harness);
    const p = places(harness);
    fs.mkdirSync(path.dirname(p.claudeFile), { recursive: true });
    fs.writeFileSync(p.claudeFile, JSON.stringify({ model: 'opus', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }] } }));
    await harness.context.secrets.store('graphitiMemory.apiKey', 'k3y-from-secret-storage');

    answerMessages(CONNECT);
    const result = await harness.command<AgentCommandResult>('graphitiMemory.connectAgents');
    expect(result).toMatchObject({ ok: true });

    const command = copilotCommand(p.copilotFile, 'userPromptSubmitted');
    expect(command.startsWith(`${process.execPath} ${p.runnerCopy} `)).toBe(true);
    expect(fs.readFileSync(p.runnerCopy, 'utf8')).toBe(fs.readFileSync(p.bundledRunner, 'utf8'));
    expect(claudeSettings(p.claudeFile).model).toBe('opus');
    expect(claudeCommand(p.claudeFile, 'PreToolUse')).toBe('guard.sh');
    expect(claudeCommand(p.claudeFile, 'UserPromptSubmit')).toContain(p.runnerCopy);

    const config = readJson(p.userConfig);
    expect(config).toMatchObject({ enabled: true, endpoint: harness.emulator.url, scopes: ['workspace'], recall: { maxFacts: 7 } });
    expect(config['consent']).toMatchObject({ endpoint: harness.emulator.url, by: 'vscode' });
    expect(fs.readFileSync(p.keyFile, 'utf8').trim()).toBe('k3y-from-secret-storage');
    if (process.platform !== 'win32') expect(fs.statSync(p.keyFile).mode & 0o777).toBe(0o600);
    for (const file of [p.copilotFile, p.claudeFile, p.userConfig]) expect(fs.readFileSync(file, 'utf8')).not.toContain('k3y-from-secret-storage');
    expect(harness.logText()).not.toContain('k3y-from-secret-storage');

    const status = await harness.command<{ agents: string[] }>('graphitiMemory.showStatus');
    expect(status.agents).toEqual(['Copilot agent mode', 'Claude Code']);
    expect(testHost().shownMessages.at(-1)?.message).toContain('Connected agents: Copilot agent mode, Claude Code.');
  });

  it('the installed command runs through a shell the way VS Code runs hooks, and its answer is hook output', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    shipRunner(harness);
    answerMessages(CONNECT);
    await harness.command('graphitiMemory.connectAgents');
    const command = copilotCommand(places(harness).copilotFile, 'userPromptSubmitted');
    // VS Code: spawn(command, [], { shell: true, cwd: home, env }), the event as JSON on stdin.
    const event = { timestamp: new Date().toISOString(), hook_event_name: 'UserPromptSubmit', session_id: 's-1', prompt: 'what did we decide?' };
    const run = spawnSync(command, [], { shell: true, cwd: places(harness).home, input: JSON.stringify(event), encoding: 'utf8' });
    expect(run.status).toBe(0);
    const output = JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } };
    expect(output.hookSpecificOutput.additionalContext).toBe(
      'runner args: --event UserPromptSubmit --installed-by vscode | prompt: what did we decide? | electron: -',
    );
  });

  it('says what failed when the runner is missing, and installs nothing', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    answerMessages(CONNECT);
    const result = await harness.command<AgentCommandResult>('graphitiMemory.connectAgents');
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/hook runner is missing from this installation .*hook-runner\.cjs.*reinstall/);
    expect(fs.existsSync(places(harness).copilotFile)).toBe(false);
  });

  it('refuses in an untrusted workspace without asking', async () => {
    const harness = await activateExtension({ settings: ON, trusted: false });
    shipRunner(harness);
    const result = await harness.command<AgentCommandResult>('graphitiMemory.connectAgents');
    expect(result.ok).toBe(false);
    expect(testHost().shownMessages.some((message) => message.modal)).toBe(false);
    expect(fs.existsSync(places(harness).copilotFile)).toBe(false);
  });

  it('mirrors Set / Clear API Key into the key file while connected; Disconnect removes exactly our entries and the consent', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    shipRunner(harness);
    const p = places(harness);
    fs.mkdirSync(path.dirname(p.claudeFile), { recursive: true });
    fs.writeFileSync(p.claudeFile, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'my-own-stop-hook' }] }] } }));
    answerMessages(CONNECT);
    await harness.command('graphitiMemory.connectAgents');
    expect(fs.existsSync(p.keyFile)).toBe(false);

    answerInputBoxes('later-k3y');
    await harness.command('graphitiMemory.setApiKey');
    await expect.poll(() => fs.existsSync(p.keyFile) && fs.readFileSync(p.keyFile, 'utf8').trim()).toBe('later-k3y');
    await harness.command('graphitiMemory.clearApiKey');
    await expect.poll(() => fs.existsSync(p.keyFile)).toBe(false);

    answerMessages(DISCONNECT);
    const result = await harness.command<AgentCommandResult>('graphitiMemory.disconnectAgents');
    expect(result.ok).toBe(true);
    expect(fs.existsSync(p.copilotFile)).toBe(false);
    expect(claudeSettings(p.claudeFile).hooks).toEqual({ Stop: [{ hooks: [{ type: 'command', command: 'my-own-stop-hook' }] }] });
    expect(readJson(p.userConfig)['consent']).toBeUndefined();
    expect((await harness.command<{ agents: string[] }>('graphitiMemory.showStatus')).agents).toEqual([]);
    // Every hook of the endpoint stays silent, whatever another tool writes into the config later.
    const switches = await FileMemorySwitches.inStateFolder(harness.agentHookPlaces.environment['GRAPHITI_MEMORY_STATE_DIR'] ?? '').read();
    expect(switches.ok && Object.keys(switches.switches.endpoints)).toEqual([harness.emulator.url]);
    answerMessages(CONNECT);
    await harness.command('graphitiMemory.connectAgents');
    const reconnected = await FileMemorySwitches.inStateFolder(harness.agentHookPlaces.environment['GRAPHITI_MEMORY_STATE_DIR'] ?? '').read();
    expect(reconnected.ok && reconnected.switches.endpoints).toEqual({});
  });

  it('after an update, installs the new runner copy beside the old one and switches the hooks; unchanged, it writes nothing', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    shipRunner(harness);
    answerMessages(CONNECT);
    await harness.command('graphitiMemory.connectAgents');
    const connection = harness.container.get<AgentConnection>(AgentConnection);
    expect(await connection.refresh()).toBe(false);
    const first = places(harness).runnerCopy;
    // The next version: a new entry naming a new core.
    shipRunner(harness, 'bbbbbbbbbbbb', `${FAKE_RUNNER}\n// next version\n`);
    expect(await connection.refresh()).toBe(true);
    const second = places(harness, 'bbbbbbbbbbbb').runnerCopy;
    expect(fs.readFileSync(second, 'utf8')).toContain('// next version');
    expect(fs.readFileSync(path.join(path.dirname(second), 'hook-runner-core-bbbbbbbbbbbb.cjs'), 'utf8')).toBe('// core bbbbbbbbbbbb');
    expect(copilotCommand(places(harness).copilotFile, 'userPromptSubmitted')).toContain(second);
    expect(claudeCommand(places(harness).claudeFile, 'UserPromptSubmit')).toContain(second);
    // The copy the hooks ran until now stays for a session that started it; nothing half-written lies about.
    expect(fs.existsSync(first)).toBe(true);
    expect(fs.readdirSync(path.dirname(path.dirname(second))).sort()).toEqual(['1.2.3+aaaaaaaaaaaa', '1.2.3+bbbbbbbbbbbb']);
  });

  it('puts back a copy whose core was lost, and Disconnect removes the copies no hook file runs', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    shipRunner(harness);
    const p = places(harness);
    answerMessages(CONNECT);
    await harness.command('graphitiMemory.connectAgents');
    const core = path.join(path.dirname(p.runnerCopy), 'hook-runner-core-aaaaaaaaaaaa.cjs');
    expect(fs.readFileSync(core, 'utf8')).toBe('// core aaaaaaaaaaaa');
    const connection = harness.container.get<AgentConnection>(AgentConnection);
    fs.rmSync(core);
    expect(await connection.refresh()).toBe(true);
    expect(fs.existsSync(core)).toBe(true);
    answerMessages(DISCONNECT);
    expect((await harness.command<AgentCommandResult>('graphitiMemory.disconnectAgents')).ok).toBe(true);
    expect(fs.existsSync(path.dirname(p.runnerCopy))).toBe(false);
  });
});
