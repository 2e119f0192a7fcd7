// Show Status (returns the snapshot and the effective configuration, for tests and automation),
// Open Log and Retry Dead Letters.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { describeDirectiveHandling, directiveHandling, Ingestion, MemoryConfiguration, SettingsSource, type DirectiveHandling } from '@graphiti-memory/memory-core';
import { VsCodeSettingsSource, type EffectiveSettings } from '../adapters/vscode-settings-source.js';
import { AGENT_NAMES, AgentConnection } from '../agent-hooks/agent-connection.js';
import { LogChannel, type Contribution } from '../composition/tokens.js';
import { ReadOnlyDocuments } from '../episodes/read-only-documents.js';
import { MemoryStatus, type StatusSnapshot } from './memory-status.js';
import { nextStep } from './status-menu-items.js';

export const OPEN_LOG = 'Open Log';
export const TEST_CONNECTION = 'Test Connection';
export const SHOW_CONFIGURATION = 'Show Configuration';

/** What Show Status returns. */
export type StatusReport = StatusSnapshot & {
  readonly agents: readonly string[];
  /** Every setting in force and where it came from; `undefined` when settings come from elsewhere (tests). */
  readonly configuration: EffectiveSettings | undefined;
  /** What a directive in a message does (memory-core's one rule, as `config show` says it). */
  readonly directives: DirectiveHandling;
};

@injectable()
export class StatusCommands implements Contribution {
  constructor(
    @inject(MemoryStatus) private readonly status: MemoryStatus,
    @inject(LogChannel) private readonly channel: vscode.LogOutputChannel,
    @inject(AgentConnection) private readonly agents: AgentConnection,
    @inject(Ingestion) private readonly ingestion: Ingestion,
    @inject(SettingsSource) private readonly settings: SettingsSource,
    @inject(MemoryConfiguration) private readonly memoryConfiguration: MemoryConfiguration,
    @inject(ReadOnlyDocuments) private readonly documents: ReadOnlyDocuments,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      vscode.commands.registerCommand('graphitiMemory.showStatus', () => this.showStatus()),
      vscode.commands.registerCommand('graphitiMemory.openLog', () => this.channel.show(true)),
      vscode.commands.registerCommand('graphitiMemory.retryDeadLetters', () => this.retryDeadLetters()),
    );
  }

  /** Sends the dead letters again (fresh attempts); returns how many. Nothing to do before the outbox opened. */
  retryDeadLetters(): number {
    // The status follows: retrying changes the delivery stats it listens to.
    const retried = this.ingestion.retryDeadLetters();
    void vscode.window.showInformationMessage(
      retried === 0 ? 'Graphiti Memory: every message was sent; nothing to retry.' : `Graphiti Memory: sending ${retried} message(s) again.`,
    );
    return retried;
  }

  async showStatus(): Promise<StatusReport> {
    const snapshot = this.status.refresh();
    const configuration = this.settings instanceof VsCodeSettingsSource ? this.settings.effective() : undefined;
    const agents = (await this.agents.connected().catch(() => [])).map((target) => AGENT_NAMES[target]);
    const delivery = snapshot.delivery;
    // The counters are for the log (content-free), not for the notification's plain words.
    if (delivery) {
      this.channel.info(
        `status: ${snapshot.state} · queue ${delivery.queueDepth} · dead letters ${delivery.deadLetters} · enqueued ${delivery.counters.enqueued} · sent ${delivery.counters.sent} · confirmed ${delivery.counters.confirmed} · retried ${delivery.counters.retried} · dropped ${delivery.counters.dropped} · dead-lettered ${delivery.counters.deadLettered}${delivery.lastErrorClass ? ` · last error ${delivery.lastErrorClass}` : ''}`,
      );
    }
    const connected = agents.length > 0 ? ` Connected agents: ${agents.join(', ')}.` : '';
    const directives = directiveHandling(this.memoryConfiguration.current());
    const sentence = describeDirectiveHandling(directives);
    const message = `Graphiti Memory: ${snapshot.summary}${connected} ${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
    const show = snapshot.state === 'failing' || snapshot.state === 'invalid' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    // The next step first (as in the status menu), then the details.
    const next = nextStep(snapshot);
    const choices = [...(next === undefined ? [] : [next.title]), ...(configuration === undefined ? [] : [SHOW_CONFIGURATION]), OPEN_LOG, TEST_CONNECTION];
    // Not awaited: the caller gets the snapshot at once, the notification stays until dismissed.
    void Promise.resolve(show(message, ...choices)).then((choice) => {
      if (choice === OPEN_LOG) this.channel.show(true);
      if (choice === TEST_CONNECTION) void vscode.commands.executeCommand('graphitiMemory.testConnection');
      // A read-only document for people (never an Untitled editor that asks to be saved).
      if (choice === SHOW_CONFIGURATION && configuration !== undefined) void this.documents.open('Graphiti Memory settings', configurationText(configuration));
      if (next !== undefined && choice === next.title) void vscode.commands.executeCommand(next.command);
    });
    return { ...snapshot, agents, configuration, directives };
  }
}

const ORIGIN_WORDS: Record<string, (source: string) => string> = {
  vscode: () => 'your VS Code settings',
  default: () => 'the default',
  env: (source) => `the variable \`${source}\``,
  project: (source) => `the project file (\`${source}\`)`,
  user: (source) => `your user config file (\`${source}\`)`,
};

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}

/** The effective configuration for people: a Markdown document, one row per setting with where it comes from. */
export function configurationText(configuration: EffectiveSettings): string {
  const lines = [
    '# Graphiti Memory: the settings in force',
    '',
    'What you set in VS Code wins. A setting you did not set there comes from a `GRAPHITI_MEMORY_*` variable, then the project file, then your user config file; else its default.',
    '',
    `- Your user config file: \`${configuration.files.user}\``,
    `- The project file: ${configuration.files.project === undefined ? 'none in this workspace' : `\`${configuration.files.project}\``}`,
    '',
  ];
  if (configuration.problems.length > 0) lines.push('## Problems (memory stays off until they are fixed)', '', ...configuration.problems.map((problem) => `- ${problem}`), '');
  if (configuration.ignored.length > 0) {
    lines.push('## Ignored', '', ...configuration.ignored.map((entry) => `- ${entry.key === '*' ? 'The whole file' : `\`${entry.key}\``} in \`${entry.file}\`: ${entry.why}`), '');
  }
  lines.push('| Setting | Value | Set by |', '|---|---|---|');
  for (const setting of configuration.settings) {
    const value = JSON.stringify(setting.value) ?? 'not set';
    const origin = (ORIGIN_WORDS[setting.origin] ?? ((source: string) => source))(setting.source);
    lines.push(`| \`${setting.key}\` | ${cell(value)} | ${cell(origin)} |`);
  }
  return `${lines.join('\n')}\n`;
}
