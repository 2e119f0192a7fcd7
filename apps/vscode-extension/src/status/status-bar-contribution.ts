// The status bar item (state and queue depth; click → Show Status) and the `graphitiMemory.state`
// context key the welcome views read.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import type { Contribution } from '../composition/tokens.js';
import { MemoryStatus, type MemoryState, type StatusSnapshot } from './memory-status.js';

export const STATUS_BAR_ID = 'graphitiMemory.status';
export const STATE_CONTEXT_KEY = 'graphitiMemory.state';

const PRESENTATION: Record<MemoryState, { readonly icon: string; readonly label: string; readonly color?: string }> = {
  off: { icon: '$(circle-slash)', label: 'off' },
  untrusted: { icon: '$(shield)', label: 'off (untrusted)' },
  invalid: { icon: '$(error)', label: 'invalid settings', color: 'statusBarItem.errorBackground' },
  needsConsent: { icon: '$(question)', label: 'needs consent', color: 'statusBarItem.warningBackground' },
  ok: { icon: '$(database)', label: 'on' },
  failing: { icon: '$(warning)', label: 'failing', color: 'statusBarItem.errorBackground' },
  notProcessing: { icon: '$(warning)', label: 'not processing', color: 'statusBarItem.warningBackground' },
};

/** The status bar text for a snapshot: `$(database) Memory: on · 3 queued`. */
export function statusBarText(snapshot: StatusSnapshot): string {
  const presentation = PRESENTATION[snapshot.state];
  const queued = snapshot.queueDepth > 0 ? ` · ${snapshot.queueDepth} queued` : '';
  const dead = snapshot.deadLetters > 0 ? ` · ${snapshot.deadLetters} dead` : '';
  return `${presentation.icon} Memory: ${presentation.label}${queued}${dead}`;
}

@injectable()
export class StatusBarContribution implements Contribution {
  constructor(@inject(MemoryStatus) private readonly status: MemoryStatus) {}

  register(context: vscode.ExtensionContext): void {
    const item = vscode.window.createStatusBarItem(STATUS_BAR_ID, vscode.StatusBarAlignment.Right, 100);
    item.name = 'Graphiti Memory';
    item.command = 'graphitiMemory.showStatus';
    const show = (snapshot: StatusSnapshot) => {
      const presentation = PRESENTATION[snapshot.state];
      item.text = statusBarText(snapshot);
      item.tooltip = `Graphiti Memory: ${snapshot.summary}`;
      item.backgroundColor = presentation.color === undefined ? undefined : new vscode.ThemeColor(presentation.color);
      item.accessibilityInformation = { label: `Graphiti Memory ${presentation.label}, ${snapshot.queueDepth} queued` };
      void vscode.commands.executeCommand('setContext', STATE_CONTEXT_KEY, snapshot.state);
    };
    show(this.status.refresh());
    item.show();
    context.subscriptions.push(item, this.status.onDidChange(show), this.status);
  }
}
