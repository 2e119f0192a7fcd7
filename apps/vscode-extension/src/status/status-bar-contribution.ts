// The status bar item (state and queue depth; click → Show Status) and the `graphitiMemory.state`
// context key the welcome views read. The entry created the item; the runtime keeps it current.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import type { Contribution } from '../composition/tokens.js';
import { ContributionPoints } from '../entry/contribution-points.js';
import { MemoryStatus, type StatusSnapshot } from './memory-status.js';

/** Whether recall is on: the view's welcome says so (and offers to turn it on) while it is off. */
export const RECALL_CONTEXT_KEY = 'graphitiMemory.recallEnabled';
import { showStatus } from './status-presentation.js';

export { STATE_CONTEXT_KEY, STATUS_BAR_ID, statusBarText } from './status-presentation.js';

@injectable()
export class StatusBarContribution implements Contribution {
  constructor(
    @inject(MemoryStatus) private readonly status: MemoryStatus,
    @inject(ContributionPoints) private readonly points: ContributionPoints,
  ) {}

  register(context: vscode.ExtensionContext): void {
    const item = this.points.statusBarItem;
    const show = (snapshot: StatusSnapshot) => {
      showStatus(item, snapshot);
      void vscode.commands.executeCommand('setContext', RECALL_CONTEXT_KEY, snapshot.recallEnabled);
    };
    show(this.status.refresh());
    item.show();
    context.subscriptions.push(this.status.onDidChange(show), this.status);
  }
}
