// How a memory state looks in the status bar. Shared by the small entry (which shows the state
// before the runtime loads) and the runtime's status bar contribution; imports nothing heavy.
import * as vscode from 'vscode';

export type MemoryState = 'off' | 'untrusted' | 'invalid' | 'needsConsent' | 'revoked' | 'ok' | 'failing' | 'notProcessing';

export const STATUS_BAR_ID = 'graphitiMemory.status';
export const STATE_CONTEXT_KEY = 'graphitiMemory.state';

const PRESENTATION: Record<MemoryState, { readonly icon: string; readonly label: string; readonly color?: string }> = {
  off: { icon: '$(circle-slash)', label: 'off' },
  untrusted: { icon: '$(shield)', label: 'off (untrusted)' },
  invalid: { icon: '$(error)', label: 'invalid settings', color: 'statusBarItem.errorBackground' },
  needsConsent: { icon: '$(question)', label: 'needs consent', color: 'statusBarItem.warningBackground' },
  // Revoking is a choice, not a to-do: no warning colour.
  revoked: { icon: '$(circle-slash)', label: 'off — consent revoked' },
  ok: { icon: '$(database)', label: 'on' },
  failing: { icon: '$(warning)', label: "can't reach Graphiti", color: 'statusBarItem.errorBackground' },
  notProcessing: { icon: '$(warning)', label: 'server not processing', color: 'statusBarItem.warningBackground' },
};

/** What the status bar shows: the state, how many messages wait, and one line for the tooltip. */
export interface StatusView {
  readonly state: MemoryState;
  readonly queueDepth: number;
  /** Messages that gave up (sent again only by Retry Dead Letters); unknown before the runtime loads. */
  readonly deadLetters?: number;
  readonly summary: string;
}

/** The status bar text for a state: `$(database) Memory: on · 3 waiting`. */
export function statusBarText(view: Pick<StatusView, 'state' | 'queueDepth' | 'deadLetters'>): string {
  const presentation = PRESENTATION[view.state];
  const queued = view.queueDepth > 0 ? ` · ${view.queueDepth} waiting` : '';
  const unsent = (view.deadLetters ?? 0) > 0 ? ` · ${view.deadLetters} not sent` : '';
  return `${presentation.icon} Memory: ${presentation.label}${queued}${unsent}`;
}

/** The command the status item runs: a quick pick of the next steps that fit the state. */
export const STATUS_MENU_COMMAND = 'graphitiMemory.statusMenu';

/** Creates the status bar item (click → the status menu); the runtime updates it once loaded. */
export function createStatusBarItem(): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem(STATUS_BAR_ID, vscode.StatusBarAlignment.Right, 100);
  item.name = 'Graphiti Memory';
  item.command = STATUS_MENU_COMMAND;
  return item;
}

/** Shows a state on the item and in the `graphitiMemory.state` context key the welcome views read. */
export function showStatus(item: vscode.StatusBarItem, view: StatusView): void {
  const presentation = PRESENTATION[view.state];
  item.text = statusBarText(view);
  item.tooltip = `Graphiti Memory: ${view.summary}`;
  item.backgroundColor = presentation.color === undefined ? undefined : new vscode.ThemeColor(presentation.color);
  item.accessibilityInformation = { label: `Graphiti Memory ${presentation.label}, ${view.queueDepth} waiting to be sent` };
  void vscode.commands.executeCommand('setContext', STATE_CONTEXT_KEY, view.state);
}
