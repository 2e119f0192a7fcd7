// While memory is on but recall is off (the default), the memory view says so in its first row,
// with a click that turns recall on: stored memories are otherwise silently unused. A wrapper
// around the view's provider, so the view's own sections stay as they are.
import * as vscode from 'vscode';
import type { MemoryStatus } from '../status/memory-status.js';

export interface RecallOffNode {
  readonly type: 'recallOff';
}

const ROW: RecallOffNode = { type: 'recallOff' };

export function isRecallOffNode(node: unknown): node is RecallOffNode {
  return node === ROW;
}

/** `provider` with a "Recall is off" row first while the gate is open and recall is off. */
export function withRecallOffRow<T>(provider: vscode.TreeDataProvider<T>, status: Pick<MemoryStatus, 'snapshot'>): vscode.TreeDataProvider<T | RecallOffNode> {
  return {
    ...(provider.onDidChangeTreeData === undefined ? {} : { onDidChangeTreeData: provider.onDidChangeTreeData as vscode.Event<T | RecallOffNode | undefined | void> }),
    getTreeItem: (node) => (isRecallOffNode(node) ? recallOffItem() : provider.getTreeItem(node)),
    getChildren: async (node) => {
      if (isRecallOffNode(node)) return [];
      const children = (await provider.getChildren(node)) ?? [];
      if (node !== undefined) return children;
      const snapshot = status.snapshot();
      // An empty view shows its welcome (the getting-started buttons, and recall being off, from the
      // `graphitiMemory.recallEnabled` context key): a row here would hide all of it.
      return snapshot.gate.open && !snapshot.recallEnabled && children.length > 0 ? [ROW, ...children] : children;
    },
    getParent: (node) => (isRecallOffNode(node) ? undefined : provider.getParent?.(node)),
  };
}

function recallOffItem(): vscode.TreeItem {
  const item = new vscode.TreeItem('Recall is off: answers do not use memory', vscode.TreeItemCollapsibleState.None);
  item.description = 'Turn on';
  item.tooltip = 'Memory is stored, but @memory does not look anything up before answering. Click to turn recall on (your questions are then sent to your server as searches).';
  item.iconPath = new vscode.ThemeIcon('lightbulb');
  item.contextValue = 'graphitiMemory.recallOff';
  item.command = { command: 'graphitiMemory.enableRecall', title: 'Turn Recall On' };
  return item;
}
