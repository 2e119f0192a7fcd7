// The "Graphiti Memory" view: pending memories (review), the workspace, its chat sessions (from the
// registry of written groups: title or first prompt line, date) and the user scope, each expandable
// to its recent episodes; refresh, delete an episode, forget a session or a scope (all confirmed).
// Empty while the gate is closed, so the welcome view (package.json viewsWelcome, keyed on
// `graphitiMemory.state`) explains how to turn memory on.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { GraphitiConnection, GroupIdResolver, GroupRegistry, Logger, MemoryConfiguration, MemoryGate, ReviewQueue, type GroupRecord } from '@graphiti-memory/memory-core';
import { describeFailure, errorClass } from '../commands/describe-error.js';
import { ScopeForgetter, type ForgetResult } from '../commands/forget-workspace-command.js';
import type { Contribution } from '../composition/tokens.js';
import { ContributionPoints } from '../entry/contribution-points.js';
import { MemoryStatus } from '../status/memory-status.js';
import { treeItemOf, type EpisodeNode } from './episode-nodes.js';
import { showOutcome } from '../commands/show-outcome.js';

export { episodeTitle, type EpisodeNode } from './episode-nodes.js';

export const EPISODES_VIEW = 'graphitiMemory.episodes';
export const RECENT_EPISODES = 25;
export const DELETE = 'Delete';

@injectable()
export class EpisodesTreeProvider implements vscode.TreeDataProvider<EpisodeNode> {
  readonly #changed = new vscode.EventEmitter<EpisodeNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;

  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(GraphitiConnection) private readonly connection: GraphitiConnection,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(GroupRegistry) private readonly registry: GroupRegistry,
    @inject(ReviewQueue) private readonly review: ReviewQueue,
    @inject(Logger) private readonly logger: Logger,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
  ) {}

  refresh(): void {
    this.#changed.fire(undefined);
  }

  getTreeItem(node: EpisodeNode): vscode.TreeItem {
    return treeItemOf(node);
  }

  async getChildren(node?: EpisodeNode): Promise<EpisodeNode[]> {
    if (!this.gate.evaluate().open) return [];
    if (node === undefined) return this.#roots();
    switch (node.type) {
      case 'pendingRoot':
        return (await this.#pending()).map((memory) => ({ type: 'pending' as const, memory }));
      case 'sessions':
        return node.sessions.map((record) => ({ type: 'session' as const, record }));
      case 'scope':
        return this.#episodes(node.groupId, node.scope);
      case 'session':
        return this.#episodes(node.record.groupId, 'session');
      default:
        return [];
    }
  }

  /** The session groups of this workspace in the registry, most recently written first. */
  async sessionsOfWorkspace(): Promise<GroupRecord[]> {
    const workspace = await this.groups.resolve('workspace');
    if (workspace === undefined) return [];
    try {
      return (await this.registry.list()).filter((record) => record.scope === 'session' && record.workspaceKey === workspace);
    } catch (error) {
      this.logger.warn('episodes view: reading the group registry failed', { errorClass: errorClass(error) });
      return [];
    }
  }

  async #roots(): Promise<EpisodeNode[]> {
    // The team group only once the user consented to the team scope.
    const team = this.configuration.current().team.consent ? (['team'] as const) : [];
    const [resolved, sessions, pending] = await Promise.all([this.groups.resolveMany(['workspace', 'user', ...team]), this.sessionsOfWorkspace(), this.#pending()]);
    const roots: EpisodeNode[] = pending.length > 0 ? [{ type: 'pendingRoot', count: pending.length }] : [];
    for (const group of resolved) {
      if (group.scope !== 'workspace' && group.scope !== 'user' && group.scope !== 'team') continue;
      roots.push({ type: 'scope', scope: group.scope, groupId: group.groupId });
      if (group.scope === 'workspace' && sessions.length > 0) roots.push({ type: 'sessions', sessions });
    }
    return roots;
  }

  async #pending() {
    try {
      return await this.review.list();
    } catch (error) {
      this.logger.warn('episodes view: reading pending memories failed', { errorClass: errorClass(error) });
      return [];
    }
  }

  async #episodes(groupId: string, scope: 'workspace' | 'user' | 'session' | 'team'): Promise<EpisodeNode[]> {
    const client = this.connection.current();
    if (client === undefined) return [];
    try {
      const episodes = await client.getEpisodes(groupId, { lastN: RECENT_EPISODES });
      if (episodes.length === 0) return [{ type: 'message', text: 'No episodes yet' }];
      // /episodes answers oldest first; the view shows the newest first.
      return [...episodes].reverse().map((episode) => ({ type: 'episode' as const, scope, episode }));
    } catch (error) {
      this.logger.warn('episodes view: loading failed', { scope, errorClass: errorClass(error) });
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
    let last = '';
    context.subscriptions.push(
      this.points.setTreeDataProvider(EPISODES_VIEW, this.provider),
      vscode.commands.registerCommand('graphitiMemory.episodes.refresh', () => this.provider.refresh()),
      vscode.commands.registerCommand('graphitiMemory.episodes.deleteEpisode', (node?: EpisodeNode) => this.deleteEpisode(node)),
      vscode.commands.registerCommand('graphitiMemory.episodes.forgetScope', (node?: EpisodeNode) => this.forgetScope(node)),
      vscode.commands.registerCommand('graphitiMemory.episodes.forgetSession', (node?: EpisodeNode) => this.forgetSession(node)),
      this.status.onDidChange((snapshot) => {
        // New writes show up as the queue moves; the gate opening or closing changes everything.
        const key = `${snapshot.gate.open}:${snapshot.delivery?.counters.enqueued ?? 0}`;
        if (key !== last) {
          last = key;
          this.provider.refresh();
        }
      }),
    );
  }

  async deleteEpisode(node?: EpisodeNode): Promise<{ readonly ok: boolean; readonly message: string }> {
    if (node?.type !== 'episode') return { ok: false, message: 'Pick an episode in the Graphiti Memory view.' };
    if (node.scope === 'team') return { ok: false, message: 'Team memories are shared: remove what you shared with `graphiti-harness forget --scope team`.' };
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
      const message = describeFailure(decision.endpoint, error, 'Deleting the episode');
      void vscode.window.showWarningMessage(message);
      return { ok: false, message };
    }
  }

  async forgetScope(node?: EpisodeNode): Promise<ForgetResult> {
    if (node?.type !== 'scope') return { ok: false, message: 'Pick a scope in the Graphiti Memory view.' };
    // The team group is shared: deleting it here would delete teammates' memories too.
    if (node.scope === 'team') return { ok: false, message: 'The team scope is shared: remove what you shared with `graphiti-harness forget --scope team`.' };
    return this.#report(await this.forgetter.forget(node.scope));
  }

  async forgetSession(node?: EpisodeNode): Promise<ForgetResult> {
    if (node?.type !== 'session' || node.record.sessionId === undefined) return { ok: false, message: 'Pick a chat session in the Graphiti Memory view.' };
    return this.#report(await this.forgetter.forget('session', { sessionId: node.record.sessionId, ...(node.record.title === undefined ? {} : { label: node.record.title }) }));
  }

  #report(result: ForgetResult): ForgetResult {
    if (result.ok) this.provider.refresh();
    return showOutcome(result);
  }
}
