// The status item's click: a quick pick of the actions that fit the state (status-menu-items.ts),
// titled with the state in plain words; the picked action runs as its command. Returns what was
// offered and picked (tests and automation read it).
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { Logger, ReviewQueue } from '@graphiti-memory/memory-core';
import { AgentConnection } from '../agent-hooks/agent-connection.js';
import type { Contribution } from '../composition/tokens.js';
import { MemoryStatus } from './memory-status.js';
import { statusMenuItems, type StatusMenuItem } from './status-menu-items.js';
import { STATUS_MENU_COMMAND } from './status-presentation.js';

export interface StatusMenuResult {
  readonly offered: readonly StatusMenuItem[];
  readonly picked: StatusMenuItem | undefined;
}

@injectable()
export class StatusMenuCommand implements Contribution {
  constructor(
    @inject(MemoryStatus) private readonly status: MemoryStatus,
    @inject(ReviewQueue) private readonly review: ReviewQueue,
    @inject(AgentConnection) private readonly agents: AgentConnection,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(vscode.commands.registerCommand(STATUS_MENU_COMMAND, () => this.show()));
  }

  async show(): Promise<StatusMenuResult> {
    const snapshot = this.status.refresh();
    // Both are local files; a failure only leaves their items out.
    const [pending, connected] = await Promise.all([
      this.review.list().then((list) => list.length, () => 0),
      this.agents.connected().then((targets) => targets.length > 0, () => true),
    ]);
    const offered = statusMenuItems({
      state: snapshot.state,
      recallEnabled: snapshot.recallEnabled,
      pending,
      deadLetters: snapshot.deadLetters,
      agentsConnected: connected,
      unconsentedCategories: snapshot.inertCategories.length,
    });
    const choice = await vscode.window.showQuickPick(
      offered.map((item) => ({ label: item.label, ...(item.detail === undefined ? {} : { detail: item.detail }), item })),
      { title: 'Graphiti Memory', placeHolder: snapshot.summary },
    );
    const picked = choice?.item;
    if (picked !== undefined) {
      await Promise.resolve(vscode.commands.executeCommand(picked.command, ...(picked.arguments ?? []))).catch((error: unknown) => {
        this.logger.warn('status menu: the action failed', { command: picked.command, errorClass: error instanceof Error ? error.name : 'unknown' });
      });
    }
    return { offered, picked };
  }
}
