// The registrations the small entry makes at activation (participant, tools, view, status item),
// which runtime features fill with behaviour once the memory runtime is loaded. Commands need no
// point: the entry's forwarders step aside and features register them with VS Code themselves.
import type * as vscode from 'vscode';

/** What a chat participant does; the entry owns the `vscode.ChatParticipant` itself. */
export interface ChatParticipantBehaviour {
  handle(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): vscode.ProviderResult<vscode.ChatResult>;
  followups?(result: vscode.ChatResult, context: vscode.ChatContext, token: vscode.CancellationToken): vscode.ProviderResult<vscode.ChatFollowup[]>;
}

export interface ContributionPoints {
  /** The item the entry created; the runtime keeps it current. */
  readonly statusBarItem: vscode.StatusBarItem;
  /** Behaviour of a participant declared in package.json `contributes.chatParticipants`. */
  setChatParticipant(id: string, behaviour: ChatParticipantBehaviour): vscode.Disposable;
  /** Implementation of a tool declared in package.json `contributes.languageModelTools`. */
  setTool<T>(name: string, tool: vscode.LanguageModelTool<T>): vscode.Disposable;
  /** Data of a view declared in package.json `contributes.views`. */
  setTreeDataProvider<T>(viewId: string, provider: vscode.TreeDataProvider<T>): vscode.Disposable;
  /** The tree view the entry created for a view of package.json (its badge, title, message). */
  treeView?(viewId: string): vscode.TreeView<unknown> | undefined;
}
export const ContributionPoints = Symbol.for('graphiti-memory.vscode.ContributionPoints');
