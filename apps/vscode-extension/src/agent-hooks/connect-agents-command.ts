// "Connect Copilot Agent and Claude Code" / "Disconnect …": asks for consent naming the endpoint
// and what the hooks send, then installs (or removes) the hooks that give those agents the same
// memory as @memory. After activation it refreshes the installed runner when the extension or VS
// Code changed, and it mirrors Set / Clear API Key into the runner's key file while connected.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { Clock, MemoryConfiguration } from '@graphiti-memory/memory-core';
import { ApiKeyStore } from '../adapters/api-key-store.js';
import { LogChannel, type Contribution } from '../composition/tokens.js';
import { AGENT_NAMES, AGENT_TARGETS, AgentConnection } from './agent-connection.js';

export const CONNECT = 'Connect';
export const DISCONNECT = 'Disconnect';
/** Delay before the post-activation refresh, so it never competes with start-up. */
export const REFRESH_DELAY_MS = 10_000;

export interface AgentCommandResult {
  readonly ok: boolean;
  readonly message: string;
  readonly files?: readonly string[];
}

const AGENTS = AGENT_TARGETS.map((target) => AGENT_NAMES[target]).join(' and ');

/** The consent text: the endpoint and exactly what the hooks send. */
export function describeAgentConnection(endpoint: string): string {
  return [
    `The hooks run on every prompt of ${AGENTS}, in every workspace on this machine, and send to the Graphiti server at ${endpoint}:`,
    '• Your prompts, as search queries, to recall memory into the answer.',
    '• The transcripts of those sessions (your messages and the answers) after each turn.',
    '• Nothing else: no file contents or keys. Text that looks like a secret is never sent.',
    '',
    'Installed in ~/.copilot/hooks/graphiti-memory.json and ~/.claude/settings.json (your other settings and hooks are kept). "Graphiti Memory: Disconnect Copilot Agent and Claude Code" removes them.',
  ].join('\n');
}

@injectable()
export class ConnectAgentsCommands implements Contribution {
  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(AgentConnection) private readonly connection: AgentConnection,
    @inject(ApiKeyStore) private readonly keys: ApiKeyStore,
    @inject(Clock) private readonly clock: Clock,
    @inject(LogChannel) private readonly channel: vscode.LogOutputChannel,
  ) {}

  register(context: vscode.ExtensionContext): void {
    const refresh = setTimeout(() => void this.#refresh(), REFRESH_DELAY_MS);
    context.subscriptions.push(
      vscode.commands.registerCommand('graphitiMemory.connectAgents', () => this.connect()),
      vscode.commands.registerCommand('graphitiMemory.disconnectAgents', () => this.disconnect()),
      this.keys.onDidChange(() => {
        void this.connection.syncApiKey().catch((error: unknown) => this.#warn('updating the agents key file failed', error));
      }),
      // What Connect wrote for the hooks follows the settings, never a stale snapshot.
      this.configuration.onDidChange(() => {
        if (this.configuration.problems().length > 0) return;
        void this.connection.syncSettings(this.configuration.current()).catch((error: unknown) => this.#warn('updating the agents settings failed', error));
      }),
      { dispose: () => clearTimeout(refresh) },
    );
  }

  async connect(): Promise<AgentCommandResult> {
    if (!vscode.workspace.isTrusted) {
      return this.#tell('warning', 'Graphiti Memory: connect the agents from a trusted workspace; in Restricted Mode nothing is installed.', false);
    }
    const problems = this.configuration.problems();
    if (problems.length > 0) {
      return this.#tell('error', `Graphiti Memory: the settings are invalid, so nothing was connected: ${problems.join('; ')}`, false);
    }
    const settings = this.configuration.current();
    if (settings.endpoint === '') {
      return this.#tell('error', 'Graphiti Memory: set graphitiMemory.endpoint first; nothing was connected.', false);
    }
    const answer = await vscode.window.showWarningMessage(
      `Connect ${AGENTS} to Graphiti Memory at ${settings.endpoint}?`,
      { modal: true, detail: `${describeAgentConnection(settings.endpoint)}\n\n${CLAUDE_HOOKS_NOTE}` },
      CONNECT,
    );
    if (answer !== CONNECT) return { ok: false, message: 'Nothing was connected.' };
    try {
      const change = await this.connection.connect(settings, new Date(this.clock.now()));
      this.channel.info(`agents connected (${AGENTS}); wrote ${change.files.join(', ')}`);
      const result = this.#tell(
        'information',
        `Graphiti Memory: ${AGENTS} are connected to ${settings.endpoint}. New agent sessions recall memory and store their turns.${(change.queueNotes ?? []).map((note) => ` ${note.charAt(0).toUpperCase()}${note.slice(1)}.`).join('')}`,
        true,
      );
      void this.#offerClaudeHooksOff();
      return { ...result, files: change.files };
    } catch (error) {
      return this.#tell('error', `Graphiti Memory: connecting ${AGENTS} failed: ${reason(error)}. Fix that and run the command again.`, false);
    }
  }

  async disconnect(): Promise<AgentCommandResult> {
    const connected = await this.connection.connected().catch(() => []);
    if (connected.length > 0) {
      const answer = await vscode.window.showWarningMessage(
        `Disconnect ${connected.map((target) => AGENT_NAMES[target]).join(' and ')} from Graphiti Memory?`,
        { modal: true, detail: 'Removes only Graphiti Memory\'s hooks; what is already stored stays in Graphiti.' },
        DISCONNECT,
      );
      if (answer !== DISCONNECT) return { ok: false, message: 'Nothing was disconnected.' };
    }
    try {
      const change = await this.connection.disconnect();
      this.channel.info(`agents disconnected; changed ${change.files.join(', ')}`);
      const result = this.#tell('information', `Graphiti Memory: ${AGENTS} are disconnected; their hooks send nothing.`, true);
      return { ...result, files: change.files };
    } catch (error) {
      return this.#tell('error', `Graphiti Memory: disconnecting ${AGENTS} failed: ${reason(error)}.`, false);
    }
  }

  /** With `chat.useClaudeHooks` on, VS Code also runs the Claude Code entries: each prompt would be recalled twice. */
  async #offerClaudeHooksOff(): Promise<boolean> {
    const chat = vscode.workspace.getConfiguration('chat');
    if (chat.get<boolean>(CLAUDE_HOOKS_SETTING) !== true) return false;
    const answer = await vscode.window.showWarningMessage(
      'VS Code\'s chat.useClaudeHooks is on: Copilot agent mode would run the Claude Code hooks as well as its own, so each prompt would be recalled twice. Turn it off?',
      TURN_CLAUDE_HOOKS_OFF,
    );
    if (answer !== TURN_CLAUDE_HOOKS_OFF) return false;
    const values = chat.inspect<boolean>(CLAUDE_HOOKS_SETTING);
    if (values?.workspaceValue !== undefined) await chat.update(CLAUDE_HOOKS_SETTING, false, vscode.ConfigurationTarget.Workspace);
    await chat.update(CLAUDE_HOOKS_SETTING, false, vscode.ConfigurationTarget.Global);
    return true;
  }

  async #refresh(): Promise<void> {
    try {
      if (await this.connection.refresh()) this.channel.info('agents: the hook runner and its commands were updated to this version');
    } catch (error) {
      this.#warn('refreshing the agent hooks failed', error);
    }
  }

  #warn(what: string, error: unknown): void {
    this.channel.warn(`agents: ${what}: ${reason(error)}`);
  }

  #tell(severity: 'information' | 'warning' | 'error', message: string, ok: boolean): AgentCommandResult {
    const show =
      severity === 'error' ? vscode.window.showErrorMessage : severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(message);
    return { ok, message };
  }
}

const CLAUDE_HOOKS_SETTING = 'useClaudeHooks';
export const TURN_CLAUDE_HOOKS_OFF = 'Turn chat.useClaudeHooks Off';
/** Said before connecting: VS Code may offer to run Claude Code's hooks in Copilot chat too. */
export const CLAUDE_HOOKS_NOTE =
  'If VS Code then offers to use Claude Code hooks in chat (chat.useClaudeHooks), decline: Copilot already gets its own entry, and with both each prompt is recalled twice.';

/** The failure's message: paths and causes from our own code and the file system, never content. */
function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
