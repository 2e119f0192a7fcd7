// The memory view's commands and refreshes: it re-reads after every forget (ForgetEvents) and every
// change of the shared local tier (any tool), after confirmed deliveries and state changes; it opens
// memories, conversations and facts as read-only documents; delete, forget a source, a session or a
// scope (all confirmed, in the user's words); search.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { ForgetService, GraphitiConnection, Logger, MemoryGate, sourceForgetSummary } from '@graphiti-memory/memory-core';
import { sharedStateDirectory, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { describeFailure, errorClass } from '../commands/describe-error.js';
import { ScopeForgetter, type ForgetResult } from '../commands/forget-workspace-command.js';
import { showOutcome } from '../commands/show-outcome.js';
import type { Contribution } from '../composition/tokens.js';
import { ContributionPoints } from '../entry/contribution-points.js';
import { ForgetEvents } from '../memory/forget-events.js';
import { MemoryStatus, type StatusSnapshot } from '../status/memory-status.js';
import { markStep } from '../status/walkthrough-progress.js';
import { episodeTitle, OPEN_COMMAND, type EpisodeNode } from './episode-nodes.js';
import { DELETE, EPISODES_VIEW, EpisodesTreeProvider, REFRESH_DEBOUNCE_MS, TIER_REFRESH_MS, type SearchResult } from './episodes-view.js';
import { digestTurnsOf, isPromotion } from './memory-tree.js';
import { conversationDocument, factDocument, localMemoryDocument, memoryDocument, memoryText } from './memory-text.js';
import { ReadOnlyDocuments } from './read-only-documents.js';
import { withRecallOffRow } from './recall-off-row.js';
import { watchSharedFolder, type SharedFileWatch } from './shared-file-watcher.js';

const TITLE_MAX = 60;
/** Team memories are shared with teammates: the view never deletes them (only the harness's forget of your own part). */
const TEAM_SHARED = 'Team memories are shared: remove what you shared with `graphiti-harness forget --scope team`.';

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
    @inject(ForgetEvents) private readonly events: ForgetEvents,
    @inject(ForgetService) private readonly forgetService: ForgetService,
    @inject(ReadOnlyDocuments) private readonly documents: ReadOnlyDocuments,
  ) {}

  register(context: vscode.ExtensionContext): void {
    this.#watchLocalTier(context);
    // What the view showed when it was registered: a first event with nothing new reads nothing.
    const stateOf = (snapshot: StatusSnapshot) => `${snapshot.gate.open}:${snapshot.state}:${snapshot.recallEnabled}`;
    const first = this.status.snapshot();
    let state = stateOf(first);
    let confirmed = first.delivery?.counters.confirmed ?? 0;
    let pending: ReturnType<typeof setTimeout> | undefined;
    const refreshNow = () => {
      clearTimeout(pending);
      pending = undefined;
      this.provider.refresh();
    };
    context.subscriptions.push(
      this.points.setTreeDataProvider(EPISODES_VIEW, withRecallOffRow(this.provider, this.status)),
      vscode.commands.registerCommand('graphitiMemory.episodes.refresh', () => this.provider.refresh()),
      vscode.commands.registerCommand('graphitiMemory.episodes.deleteEpisode', (node?: EpisodeNode) => this.deleteEpisode(node)),
      vscode.commands.registerCommand('graphitiMemory.episodes.forgetScope', (scope?: unknown) => this.forgetScope(scope)),
      vscode.commands.registerCommand('graphitiMemory.episodes.forgetSession', (node?: EpisodeNode) => this.forgetSession(node)),
      vscode.commands.registerCommand('graphitiMemory.episodes.forgetEpisode', (node?: EpisodeNode) => this.forgetEpisode(node)),
      vscode.commands.registerCommand('graphitiMemory.searchMemory', (query?: unknown) => this.search(query)),
      vscode.commands.registerCommand('graphitiMemory.clearMemorySearch', () => this.provider.search('')),
      vscode.commands.registerCommand(OPEN_COMMAND, (node?: EpisodeNode) => this.open(node)),
      // A forget from anywhere in this window — the Command Palette, /forget, Revoke, Disable — shows at once.
      this.events.onDidForget(() => refreshNow()),
      this.status.onDidChange((snapshot) => {
        // Each refresh reads Graphiti: only what changes the view counts. A change of state (failing →
        // on, recall on) shows at once; new memories once Graphiti has them (confirmed, not merely
        // queued), a burst of confirmations as one read. Forget, delete and search refresh themselves.
        const count = snapshot.delivery?.counters.confirmed ?? 0;
        const key = stateOf(snapshot);
        if (key !== state) {
          state = key;
          confirmed = count;
          refreshNow();
        } else if (count !== confirmed) {
          confirmed = count;
          pending ??= setTimeout(refreshNow, REFRESH_DEBOUNCE_MS);
        }
      }),
      { dispose: () => clearTimeout(pending) },
    );
  }

  /**
   * Every tool — this window, another, graphiti-harness, an agent hook — records a promotion, an
   * approval, an edit and a forget in the shared local tier: a change of its folder re-reads the view
   * (after a short quiet while, so a burst is one read). Without a watch, Refresh still does.
   */
  #watchLocalTier(context: vscode.ExtensionContext): void {
    let watching: SharedFileWatch | undefined;
    let disposed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        this.provider.refresh();
        this.#markMemoryStored();
      }, TIER_REFRESH_MS);
    };
    this.#markMemoryStored();
    void sharedStateDirectory()
      .then((folder) => watchSharedFolder(sharedStateFiles(folder).tierDirectory, changed))
      .then(
        (watch) => (disposed ? watch.dispose() : (watching = watch)),
        (error: unknown) => this.logger.info('episodes view: not watching the local tier; the view updates on refresh', { errorClass: errorClass(error) }),
      );
    context.subscriptions.push({
      dispose: () => {
        disposed = true;
        clearTimeout(timer);
        watching?.dispose();
      },
    });
  }

  /** The walkthrough's "first memory" step: ticked once this machine keeps a memory (from any tool). */
  #markMemoryStored(): void {
    void this.provider.hasLocalMemory().then((has) => {
      if (has) markStep('memoryStored');
    });
  }

  /** Opens a memory, a conversation or a fact's source as a read-only document; returns its title. */
  async open(node?: EpisodeNode): Promise<{ readonly ok: boolean; readonly title?: string; readonly text?: string }> {
    const shown = this.#documentOf(node);
    if (shown === undefined) return { ok: false };
    await this.documents.open(shown.title, shown.text);
    return { ok: true, ...shown };
  }

  #documentOf(node?: EpisodeNode): { readonly title: string; readonly text: string } | undefined {
    switch (node?.type) {
      case 'episode': {
        const title = shortTitle(digestTurnsOf(node.episode)[0]?.question ?? episodeTitle(node.episode));
        return isPromotion(node.episode)
          ? { title: `Memory — ${title}`, text: memoryDocument(node.episode, node.scope) }
          : { title: `Conversation — ${title}`, text: conversationDocument([node.episode], title) };
      }
      case 'localMemory':
        return { title: `Memory — ${shortTitle(node.memory.promotion.text)}`, text: localMemoryDocument(node.memory.promotion, node.memory.state) };
      case 'turn': {
        const title = shortTitle(node.turn.question === undefined ? 'A turn' : episodeTitle(node.turn.question));
        return { title: `Conversation — ${title}`, text: conversationDocument(node.turn.episodes, title) };
      }
      case 'digestTurn': {
        const title = shortTitle(node.turn.question);
        return { title: `Conversation — ${title}`, text: conversationDocument([node.episode], title) };
      }
      case 'fact': {
        // The conversation (or memory) the fact came from, when the view has it; else the fact itself.
        const source = node.fact.episodes.map((uuid) => this.provider.episodeOf(uuid)).find((found) => found !== undefined);
        if (source === undefined) return { title: `Fact — ${shortTitle(node.fact.fact)}`, text: factDocument(node.fact) };
        return this.#documentOf({ type: 'episode', scope: source.scope, episode: source.episode });
      }
      default:
        return undefined;
    }
  }

  /** Asks what to search for (unless `query` says), then shows the facts in the view. */
  async search(query?: unknown): Promise<SearchResult> {
    const text =
      typeof query === 'string'
        ? query
        : await vscode.window.showInputBox({
            title: 'Search what Graphiti Memory knows',
            prompt: "Facts of this workspace's and your own memory that match. Your words are sent to your Graphiti server as a search. Leave empty to clear the search.",
            placeHolder: 'e.g. how do we deploy?',
            // The view refreshes on its own (confirmed deliveries) and a refreshed tree takes the
            // focus back if it had it: without this, that closed the box mid-typing, unsearched.
            ignoreFocusOut: true,
          });
    if (text === undefined) return { ok: false, facts: 0, message: 'Nothing was searched.' };
    const result = await this.provider.search(text);
    if (!result.ok) void vscode.window.showWarningMessage(`Graphiti Memory: ${result.message}`);
    else if (text.trim() !== '') void vscode.commands.executeCommand(`${EPISODES_VIEW}.focus`);
    return result;
  }

  async deleteEpisode(node?: EpisodeNode): Promise<{ readonly ok: boolean; readonly message: string }> {
    if (node?.type !== 'episode') return { ok: false, message: 'Pick a memory or a conversation in the Graphiti Memory view.' };
    if (node.scope === 'team') return { ok: false, message: TEAM_SHARED };
    const decision = this.gate.evaluate();
    const client = this.connection.current();
    if (!decision.open || client === undefined) return { ok: false, message: 'Graphiti Memory is off here; nothing was deleted.' };
    const answer = await vscode.window.showWarningMessage(
      `Delete "${shortTitle(digestTurnsOf(node.episode)[0]?.question ?? episodeTitle(node.episode))}" from ${node.scope} memory?`,
      { modal: true, detail: `${memoryText(node.episode).slice(0, 300)}\n\nWhat memory learned from it stays until you forget this source or the whole scope.` },
      DELETE,
    );
    if (answer !== DELETE) return { ok: false, message: 'Nothing was deleted.' };
    try {
      await client.deleteEpisode(node.episode.uuid);
      this.provider.refresh();
      return { ok: true, message: 'It was deleted.' };
    } catch (error) {
      this.logger.warn('delete episode failed', { errorClass: errorClass(error) });
      const message = describeFailure(decision.endpoint, error, 'Deleting the episode');
      void vscode.window.showWarningMessage(message);
      return { ok: false, message };
    }
  }

  /**
   * "Forget This Source": the episode, its copies in the other groups it was sent to (a captured
   * session goes to its session group and its workspace group) and, on REST, the facts only they support.
   */
  async forgetEpisode(node?: EpisodeNode): Promise<{ readonly ok: boolean; readonly message: string }> {
    if (node?.type !== 'episode') return { ok: false, message: 'Pick a memory or a conversation in the Graphiti Memory view.' };
    if (node.scope === 'team') return { ok: false, message: TEAM_SHARED };
    const decision = this.gate.evaluate();
    const client = this.connection.current();
    if (!decision.open || client === undefined) return { ok: false, message: 'Graphiti Memory is off here; nothing was forgotten.' };
    const answer = await vscode.window.showWarningMessage(
      `Forget "${shortTitle(digestTurnsOf(node.episode)[0]?.question ?? episodeTitle(node.episode))}" and what memory learned only from it?`,
      {
        modal: true,
        detail: `${memoryText(node.episode).slice(0, 300)}\n\nIts copies kept with the conversation and with the workspace are forgotten too. What other memories or conversations also say stays.`,
      },
      DELETE,
    );
    if (answer !== DELETE) return { ok: false, message: 'Nothing was forgotten.' };
    try {
      const result = await this.forgetService.forgetSource(node.episode.uuid, { groupId: node.episode.group_id });
      // No chat keeps facts of this source it was given (they may be gone now).
      this.events.fire('forget');
      this.provider.refresh();
      const summary = sourceForgetSummary(result);
      return showOutcome({ ok: true, message: `Graphiti Memory: ${summary.charAt(0).toUpperCase()}${summary.slice(1)}.` });
    } catch (error) {
      this.logger.warn('forget episode failed', { errorClass: errorClass(error) });
      const message = describeFailure(decision.endpoint, error, 'Forgetting the episode');
      void vscode.window.showWarningMessage(message);
      return { ok: false, message };
    }
  }

  /** Forgets a scope: the one named (`'workspace'`, `'user'`), or the one picked. */
  async forgetScope(named?: unknown): Promise<ForgetResult> {
    let scope: 'workspace' | 'user' | undefined = named === 'workspace' || named === 'user' ? named : undefined;
    if (scope === undefined) {
      const picked = await vscode.window.showQuickPick(
        [
          { label: 'Workspace memory', description: "this workspace's memories and chat sessions", scope: 'workspace' as const },
          { label: 'User memory', description: 'your own memories, in every workspace', scope: 'user' as const },
        ],
        { title: 'Forget which memory? You will be asked to confirm.' },
      );
      if (picked === undefined) return { ok: false, message: 'Nothing was forgotten.' };
      scope = picked.scope;
    }
    return this.#report(await this.forgetter.forget(scope));
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

/** A title for a dialog or a document: one line, short. */
function shortTitle(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}
