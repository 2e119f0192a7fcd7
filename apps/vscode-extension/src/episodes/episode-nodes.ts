// The nodes of the "Graphiti Memory" view and how each one looks.
import * as vscode from 'vscode';
import type { Episode } from '@graphiti-memory/graphiti-client';
import { parsePromotionEpisode, scopeLabel, type GroupRecord, type PendingMemory, type PendingMemorySource } from '@graphiti-memory/memory-core';
import { formatDay } from '@graphiti-memory/prompt-elements';
import { digestTurnsOf, factDates, type CuratedMemory, type DigestTurnText, type Turn } from './memory-tree.js';
import type { LocalMemory } from './cached-memories.js';
import { kindWords, memoryText, plainText, scopeWords } from './memory-text.js';
import { loopItem, loopsRootItem, type ShownLoop } from './open-loop-nodes.js';

export type EpisodeScope = 'workspace' | 'user' | 'session' | 'team';

export type EpisodeNode =
  | { readonly type: 'pendingRoot'; readonly count: number }
  | { readonly type: 'pending'; readonly memory: PendingMemory }
  /** This workspace's open loops (the shared loops file), each closed or dropped from its menu. */
  | { readonly type: 'loopsRoot'; readonly loops: readonly ShownLoop[] }
  | { readonly type: 'loop'; readonly loop: ShownLoop }
  | { readonly type: 'curatedRoot'; readonly memories: readonly CuratedMemory[]; readonly local?: readonly LocalMemory[] }
  /** A memory this machine keeps that Graphiti did not show: waiting to be sent, or cached while Graphiti is down. */
  | { readonly type: 'localMemory'; readonly memory: LocalMemory }
  | { readonly type: 'factsRoot'; readonly query: string | undefined }
  | { readonly type: 'fact'; readonly fact: ShownFact }
  /** Conversations: the sessions, or the workspace's turns when no session group was written. */
  | { readonly type: 'sessions'; readonly sessions: readonly GroupRecord[]; readonly turns?: readonly Turn[] }
  | { readonly type: 'turn'; readonly scope: EpisodeScope; readonly turn: Turn }
  | { readonly type: 'session'; readonly record: GroupRecord }
  | { readonly type: 'episode'; readonly scope: EpisodeScope; readonly episode: Episode }
  /** One turn inside a session digest (`index`: its place in the digest, oldest first). */
  | { readonly type: 'digestTurn'; readonly episode: Episode; readonly index: number; readonly turn: DigestTurnText }
  | { readonly type: 'message'; readonly text: string; readonly command?: vscode.Command; readonly icon?: string };

/** What clicking a memory, a fact or a conversation row does: opens it as a read-only document. */
export const OPEN_COMMAND = 'graphitiMemory.episodes.open';

/** A fact as the view shows it: the text, its dates, and where it came from when known. */
export interface ShownFact {
  readonly uuid: string;
  readonly fact: string;
  readonly valid_at: string | null;
  readonly invalid_at: string | null;
  readonly expired_at: string | null;
  readonly created_at: string;
  readonly source: string | undefined;
  /** The conversations or memories (episode uuids) it came from: clicking it opens the first the view knows. */
  readonly episodes: readonly string[];
  /** What ends the fact's line in the prompt (prompt-elements' `factLineSuffix`): a stale mark, its citation. */
  readonly ending?: string;
}

const LABEL_MAX = 80;

export function treeItemOf(node: EpisodeNode): vscode.TreeItem {
  switch (node.type) {
    case 'pendingRoot': {
      const item = new vscode.TreeItem(`Pending memories (${node.count})`, vscode.TreeItemCollapsibleState.Expanded);
      item.tooltip = 'Memories the assistant or a directive would store: nothing is sent until you approve.';
      item.iconPath = new vscode.ThemeIcon('inbox');
      item.id = 'pending';
      return item;
    }
    case 'pending': {
      const { memory } = node;
      const item = new vscode.TreeItem(shortened(`${kindWords(memory.kind)} (${memory.scope}): ${memory.text}`), vscode.TreeItemCollapsibleState.None);
      item.description = pendingDescription(memory.source);
      item.tooltip = new vscode.MarkdownString().appendText(memory.text);
      item.contextValue = 'graphitiMemory.pending';
      item.iconPath = new vscode.ThemeIcon('question');
      item.id = `pending:${memory.id}`;
      return item;
    }
    case 'loopsRoot':
      return loopsRootItem(node.loops);
    case 'loop':
      return loopItem(node.loop);
    case 'curatedRoot': {
      const local = node.local ?? [];
      const item = new vscode.TreeItem(`Curated memories (${node.memories.length + local.length})`, vscode.TreeItemCollapsibleState.Expanded);
      const waiting = local.filter((memory) => memory.state === 'waiting').length;
      if (waiting > 0) item.description = `${waiting} not stored by Graphiti yet`;
      item.tooltip = 'Decisions, preferences, procedures and other memories you promoted or approved.';
      item.iconPath = new vscode.ThemeIcon('pinned');
      item.id = 'curated';
      return item;
    }
    case 'factsRoot': {
      const label = node.query === undefined ? 'What memory knows' : `What memory knows about "${shortened(node.query)}"`;
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
      item.tooltip = 'Facts Graphiti extracted from your memories. Search to ask about something in particular.';
      item.iconPath = new vscode.ThemeIcon('lightbulb');
      item.contextValue = node.query === undefined ? 'graphitiMemory.facts' : 'graphitiMemory.factsSearched';
      // A new id per query, so VS Code does not keep the previous search's children.
      item.id = `facts:${node.query ?? ''}`;
      return item;
    }
    case 'localMemory': {
      const { promotion, state } = node.memory;
      const item = new vscode.TreeItem(shortened(promotion.text), vscode.TreeItemCollapsibleState.None);
      item.description = `${kindWords(promotion.kind).toLowerCase()} · ${promotion.scope} · ${state === 'waiting' ? 'not stored by Graphiti yet' : 'cached on this machine'}`;
      item.tooltip = new vscode.MarkdownString()
        .appendText(promotion.text)
        .appendMarkdown('\n\n')
        .appendText(
          state === 'waiting'
            ? `Saved to ${scopeWords(promotion.scope)} on this machine; your Graphiti server has not stored it yet (it is sent, or waits to be sent, and shows from the server once stored).`
            : `From this machine's copy of ${scopeWords(promotion.scope)}: your Graphiti server did not answer.`,
        );
      item.iconPath = new vscode.ThemeIcon(state === 'waiting' ? 'clock' : 'archive');
      item.contextValue = 'graphitiMemory.localMemory';
      item.command = { command: OPEN_COMMAND, title: 'Open', arguments: [node] };
      item.id = `local:${promotion.episodeName ?? `${promotion.scope}:${promotion.createdAt}:${promotion.text}`}`;
      return item;
    }
    case 'fact': {
      const { fact } = node;
      const item = new vscode.TreeItem(shortened(fact.fact), vscode.TreeItemCollapsibleState.None);
      const dates = fact.ending === undefined ? factDates(fact) : `${factDates(fact)} ${fact.ending}`;
      item.description = dates;
      const tooltip = new vscode.MarkdownString().appendText(fact.fact).appendMarkdown('\n\n').appendText(dates);
      tooltip.appendMarkdown('\n\n').appendText(fact.source ?? 'Source unknown: your Graphiti server does not say which conversation or memory a fact came from.');
      item.tooltip = tooltip;
      item.command = { command: OPEN_COMMAND, title: 'Open Its Source', arguments: [node] };
      item.iconPath = new vscode.ThemeIcon(fact.invalid_at === null && fact.expired_at === null ? 'lightbulb' : 'history');
      item.id = `fact:${fact.uuid}`;
      return item;
    }
    case 'turn': {
      const { turn } = node;
      const first = turn.question ?? turn.episodes[0];
      const item = new vscode.TreeItem(shortened(first === undefined ? 'A turn' : episodeTitle(first)), vscode.TreeItemCollapsibleState.Collapsed);
      item.description = day(turn.at);
      item.tooltip = turn.answer === undefined ? undefined : new vscode.MarkdownString().appendText(episodeTitle(turn.answer));
      item.iconPath = new vscode.ThemeIcon('comment');
      item.command = { command: OPEN_COMMAND, title: 'Open', arguments: [node] };
      item.id = `turn:${node.scope}:${turn.key}`;
      return item;
    }
    case 'sessions': {
      const count = node.sessions.length > 0 ? node.sessions.length : (node.turns?.length ?? 0);
      const item = new vscode.TreeItem(`Conversations (${count})`, vscode.TreeItemCollapsibleState.Collapsed);
      item.tooltip = node.sessions.length > 0 ? 'The chat sessions of this workspace, each with its turns.' : 'The chat turns stored for this workspace.';
      item.iconPath = new vscode.ThemeIcon('comment-discussion');
      item.id = 'sessions';
      return item;
    }
    case 'session': {
      const { record } = node;
      const item = new vscode.TreeItem(shortened(record.title ?? `Conversation of ${new Date(record.firstWriteAt).toLocaleString()}`), vscode.TreeItemCollapsibleState.Collapsed);
      item.description = day(new Date(record.lastWriteAt).toISOString());
      item.tooltip = `${record.messages} message(s) from ${record.tools.join(', ')}; first ${new Date(record.firstWriteAt).toLocaleString()}, last ${new Date(record.lastWriteAt).toLocaleString()}`;
      item.contextValue = 'graphitiMemory.session';
      item.iconPath = new vscode.ThemeIcon('comment');
      item.id = `session:${record.groupId}`;
      return item;
    }
    case 'message': {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon(node.icon ?? (node.command === undefined ? 'info' : 'search'));
      if (node.text.length > LABEL_MAX) item.tooltip = node.text;
      if (node.command !== undefined) item.command = node.command;
      return item;
    }
    case 'digestTurn': {
      const item = new vscode.TreeItem(shortened(node.turn.question), vscode.TreeItemCollapsibleState.None);
      item.tooltip = new vscode.MarkdownString().appendText(node.turn.text);
      item.iconPath = new vscode.ThemeIcon('comment');
      item.command = { command: OPEN_COMMAND, title: 'Open', arguments: [node] };
      item.id = `digestTurn:${node.episode.uuid}:${node.index}`;
      return item;
    }
    case 'episode': {
      const { episode } = node;
      // A session digest opens on its turns; its row stays the episode (delete, forget this source).
      const digest = digestTurnsOf(episode);
      const first = digest[0];
      const item = new vscode.TreeItem(shortened(first?.question ?? episodeTitle(episode)), first === undefined ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed);
      item.description = first === undefined ? day(episode.valid_at) : `${digest.length} ${digest.length === 1 ? 'turn' : 'turns'} · ${day(episode.valid_at)}`;
      // The memory's own words: never the stored markup.
      item.tooltip = new vscode.MarkdownString().appendText(memoryText(episode));
      item.command = { command: OPEN_COMMAND, title: 'Open', arguments: [node] };
      // Team memories are shared: no delete or forget here (it would remove a teammate's), so no menu.
      item.contextValue = node.scope === 'team' ? 'graphitiMemory.teamEpisode' : 'graphitiMemory.episode';
      // memory-core's reading of a promotion: its name and its stored block, never content alone.
      const promotion = parsePromotionEpisode(episode);
      item.iconPath = new vscode.ThemeIcon(node.scope === 'team' ? 'organization' : promotion !== undefined ? 'pin' : 'comment');
      // `team · Alice`: who shared it, when the author gave a name.
      const scope = node.scope === 'team' ? scopeLabel({ scope: 'team', author: promotion?.author }) : node.scope;
      if (promotion !== undefined) item.description = `${kindWords(promotion.kind).toLowerCase()} · ${scope} · ${day(episode.valid_at)}`;
      item.id = `episode:${episode.uuid}`;
      return item;
    }
  }
}

/** A day as every fact and citation shows it (prompt-elements' `formatDay`). */
function day(value: string): string {
  return formatDay(value) ?? '';
}

function shortened(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > LABEL_MAX ? `${line.slice(0, LABEL_MAX - 1)}…` : line;
}

/** The first line of text of an episode, without Graphiti's `role(role_type): ` prefix or episode tags. */
export function episodeTitle(episode: Episode): string {
  const promotion = parsePromotionEpisode(episode);
  if (promotion !== undefined) return promotion.text.split('\n').find((line) => line.trim() !== '')?.trim() ?? kindWords(promotion.kind);
  // Never the episode's name (`graphiti-memory.digest.<uuid>…`): a row without words says what it is.
  return plainText(episode.content).split('\n').find((line) => line.trim() !== '')?.trim() ?? 'A memory without text';
}

/** Who proposed a pending memory, as the view says it. */
function pendingDescription(source: PendingMemorySource): string {
  switch (source) {
    case 'remember-tool':
      return 'suggested by the assistant';
    case 'directive':
      return 'from a line you wrote (decision: …)';
    case 'loop-proposal':
      return 'proposed by the chat model from a session';
  }
}
