// The "Graphiti Memory" view: recent episodes per scope (workspace, user), refresh, delete an
// episode (confirmed), forget a scope (confirmed). Empty while the gate is closed, so the welcome
// view (package.json viewsWelcome, keyed on `graphitiMemory.state`) explains how to turn memory on.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import type { Episode } from '@graphiti-memory/graphiti-client';
import { GraphitiConnection, GroupIdResolver, Logger, MemoryGate } from '@graphiti-memory/memory-core';
import { describeFailure, errorClass } from '../commands/describe-error.js';
import { ScopeForgetter } from '../commands/forget-workspace-command.js';
import type { Contribution } from '../composition/tokens.js';
import { ContributionPoints } from '../entry/contribution-points.js';
import { MemoryStatus } from '../status/memory-status.js';

export const EPISODES_VIEW = 'graphitiMemory.episodes';
export const RECENT_EPISODES = 25;
export const DELETE = 'Delete';

export type EpisodeNode =
  | { readonly type: 'scope'; readonly scope: 'workspace' | 'user'; readonly groupId: string }
  | { readonly type: 'episode'; readonly scope: 'workspace' | 'user'; readonly episode: Episode }
  | { readonly type: 'message'; readonly text: string };

@injectable()
export class EpisodesTreeProvider implements vscode.TreeDataProvider<EpisodeNode> {
  readonly #changed = new vscode.EventEmitter<EpisodeNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;

  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(GraphitiConnection) private readonly connection: GraphitiConnection,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  refresh(): void {
    this.#changed.fire(undefined);
  }

  getTreeItem(node: EpisodeNode): vscode.TreeItem {
    if (node.type === 'scope') {
      const item = new vscode.TreeItem(node.scope === 'workspace' ? 'Workspace memory' : 'User memory', vscode.TreeItemCollapsibleState.Expanded);
      item.contextValue = 'graphitiMemory.scope';
      item.iconPath = new vscode.ThemeIcon(node.scope === 'workspace' ? 'folder-library' : 'account');
      item.id = `scope:${node.groupId}`;
      return item;
    }
    if (node.type === 'message') {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('info');
      return item;
    }
    const { episode } = node;
    const firstLine = episodeTitle(episode);
    const item = new vscode.TreeItem(firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine, vscode.TreeItemCollapsibleState.None);
    item.description = episode.valid_at.slice(0, 10);
    item.tooltip = new vscode.MarkdownString().appendText(episode.content);
    item.contextValue = 'graphitiMemory.episode';
    item.iconPath = new vscode.ThemeIcon(episode.name.includes('.promotion.') ? 'pin' : 'comment');
    item.id = `episode:${episode.uuid}`;
    return item;
  }

  async getChildren(node?: EpisodeNode): Promise<EpisodeNode[]> {
    if (!this.gate.evaluate().open) return [];
    if (node === undefined) {
      const resolved = await this.groups.resolveMany(['workspace', 'user']);
      return resolved.flatMap((group) =>
        group.scope === 'workspace' || group.scope === 'user' ? [{ type: 'scope' as const, scope: group.scope, groupId: group.groupId }] : [],
      );
    }
    if (node.type !== 'scope') return [];
    const client = this.connection.current();
    if (client === undefined) return [];
    try {
      const episodes = await client.getEpisodes(node.groupId, { lastN: RECENT_EPISODES });
      if (episodes.length === 0) return [{ type: 'message', text: 'No episodes yet' }];
      // /episodes answers oldest first; the view shows the newest first.
      return [...episodes].reverse().map((episode) => ({ type: 'episode' as const, scope: node.scope, episode }));
    } catch (error) {
      this.logger.warn('episodes view: loading failed', { scope: node.scope, errorClass: errorClass(error) });
      return [{ type: 'message', text: 'Graphiti is unreachable: run "Graphiti Memory: Test Connection"' }];
    }
  }
}

@injectable()
export class EpisodesViewContribution implements Contribution {
  constructor(
    @inject(EpisodesTreeProvider) private readonly provider: EpisodesTreeProvider,
    @inject(GraphitiConnection) private readonly connection: GraphitiConnection,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(ScopeForgetter) private readonly forgetter: ScopeForgetter,
    @inject(MemoryStatus) private readonly status: MemoryStatus,
    @inject(Logger) private readonly logger: Logger,
    @inject(ContributionPoints) private readonly points: ContributionPoints,
  ) {}

  register(context: vscode.ExtensionContext): void {
    let lastOpen = this.gate.evaluate().open;
    context.subscriptions.push(
      this.points.setTreeDataProvider(EPISODES_VIEW, this.provider),
      vscode.commands.registerCommand('graphitiMemory.episodes.refresh', () => this.provider.refresh()),
      vscode.commands.registerCommand('graphitiMemory.episodes.deleteEpisode', (node?: EpisodeNode) => this.deleteEpisode(node)),
      vscode.commands.registerCommand('graphitiMemory.episodes.forgetScope', (node?: EpisodeNode) => this.forgetScope(node)),
      this.status.onDidChange((snapshot) => {
        if (snapshot.gate.open !== lastOpen) {
          lastOpen = snapshot.gate.open;
          this.provider.refresh();
        }
      }),
    );
  }

  async deleteEpisode(node?: EpisodeNode): Promise<{ readonly ok: boolean; readonly message: string }> {
    if (node?.type !== 'episode') return { ok: false, message: 'Pick an episode in the Graphiti Memory view.' };
    const decision = this.gate.evaluate();
    const client = this.connection.current();
    if (!decision.open || client === undefined) return { ok: false, message: 'Graphiti Memory is off here; nothing was deleted.' };
    const answer = await vscode.window.showWarningMessage(
      `Delete the episode "${node.episode.name}" from ${node.scope} memory?`,
      { modal: true, detail: 'Facts Graphiti already extracted from it stay until the scope is forgotten.' },
      DELETE,
    );
    if (answer !== DELETE) return { ok: false, message: 'Nothing was deleted.' };
    try {
      await client.deleteEpisode(node.episode.uuid);
      this.provider.refresh();
      return { ok: true, message: 'The episode was deleted.' };
    } catch (error) {
      this.logger.warn('delete episode failed', { errorClass: errorClass(error) });
      const message = describeFailure(decision.endpoint, error);
      void vscode.window.showWarningMessage(message);
      return { ok: false, message };
    }
  }

  async forgetScope(node?: EpisodeNode): Promise<{ readonly ok: boolean; readonly message: string }> {
    if (node?.type !== 'scope') return { ok: false, message: 'Pick a scope in the Graphiti Memory view.' };
    const result = await this.forgetter.forget(node.scope);
    if (result.ok) this.provider.refresh();
    void (result.ok ? vscode.window.showInformationMessage(result.message) : vscode.window.showWarningMessage(result.message));
    return result;
  }
}

/** The first line of text of an episode, without Graphiti's `role(role_type): ` prefix or episode tags. */
export function episodeTitle(episode: Episode): string {
  const body = episode.content.replace(/^[^\n(]*\((?:user|assistant|system)\):\s*/, '');
  return body.split('\n').find((line) => line.trim() !== '' && !/^<\/?graphiti_episode/.test(line.trim()))?.trim() ?? episode.name;
}
