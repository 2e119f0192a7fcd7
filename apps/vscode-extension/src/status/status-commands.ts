// Show Status (returns the snapshot, for tests and automation), Open Log and Retry Dead Letters.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { Ingestion } from '@graphiti-memory/memory-core';
import { AGENT_NAMES, AgentConnection } from '../agent-hooks/agent-connection.js';
import { LogChannel, type Contribution } from '../composition/tokens.js';
import { MemoryStatus, type StatusSnapshot } from './memory-status.js';

export const OPEN_LOG = 'Open Log';
export const TEST_CONNECTION = 'Test Connection';

@injectable()
export class StatusCommands implements Contribution {
  constructor(
    @inject(MemoryStatus) private readonly status: MemoryStatus,
    @inject(LogChannel) private readonly channel: vscode.LogOutputChannel,
    @inject(AgentConnection) private readonly agents: AgentConnection,
    @inject(Ingestion) private readonly ingestion: Ingestion,
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
      retried === 0 ? 'Graphiti Memory: no dead letters to retry.' : `Graphiti Memory: sending ${retried} dead letter(s) again.`,
    );
    return retried;
  }

  async showStatus(): Promise<StatusSnapshot & { readonly agents: readonly string[] }> {
    const snapshot = this.status.refresh();
    const agents = (await this.agents.connected().catch(() => [])).map((target) => AGENT_NAMES[target]);
    const delivery = snapshot.delivery;
    const detail = delivery
      ? `queue ${delivery.queueDepth} · dead letters ${delivery.deadLetters} · enqueued ${delivery.counters.enqueued} · sent ${delivery.counters.sent} · confirmed ${delivery.counters.confirmed} · retried ${delivery.counters.retried} · dropped ${delivery.counters.dropped} · dead-lettered ${delivery.counters.deadLettered}`
      : undefined;
    const connected = agents.length > 0 ? ` Connected agents: ${agents.join(', ')}.` : '';
    const message = `Graphiti Memory: ${snapshot.summary}${connected}`;
    const show = snapshot.state === 'failing' || snapshot.state === 'invalid' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    // Not awaited: the caller gets the snapshot at once, the notification stays until dismissed.
    void Promise.resolve(show(detail ? `${message} (${detail})` : message, OPEN_LOG, TEST_CONNECTION)).then((choice) => {
      if (choice === OPEN_LOG) this.channel.show(true);
      if (choice === TEST_CONNECTION) void vscode.commands.executeCommand('graphitiMemory.testConnection');
    });
    return { ...snapshot, agents };
  }
}
