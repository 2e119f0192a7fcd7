// The nodes of the "Graphiti Memory" view and how each one looks.
import * as vscode from 'vscode';
import type { Episode } from '@graphiti-memory/graphiti-client';
import { parsePromotionEpisode, scopeLabel, type GroupRecord, type PendingMemory } from '@graphiti-memory/memory-core';

export type EpisodeScope = 'workspace' | 'user' | 'session' | 'team';

export type EpisodeNode =
  | { readonly type: 'pendingRoot'; readonly count: number }
  | { readonly type: 'pending'; readonly memory: PendingMemory }
  | { readonly type: 'scope'; readonly scope: 'workspace' | 'user' | 'team'; readonly groupId: string }
  | { readonly type: 'sessions'; readonly sessions: readonly GroupRecord[] }
  | { readonly type: 'session'; readonly record: GroupRecord }
  | { readonly type: 'episode'; readonly scope: EpisodeScope; readonly episode: Episode }
  | { readonly type: 'message'; readonly text: string };

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
      const item = new vscode.TreeItem(shortened(`${memory.kind} (${memory.scope}): ${memory.text}`), vscode.TreeItemCollapsibleState.None);
      item.description = memory.source === 'remember-tool' ? 'from the assistant' : 'from a directive';
      item.tooltip = new vscode.MarkdownString().appendText(memory.text);
      item.contextValue = 'graphitiMemory.pending';
      item.iconPath = new vscode.ThemeIcon('question');
      item.id = `pending:${memory.id}`;
      return item;
    }
    case 'scope': {
      if (node.scope === 'team') {
        // Shared with teammates: no "forget scope" here (it would delete theirs); `forget --scope team` removes your own.
        const item = new vscode.TreeItem('Team memory', vscode.TreeItemCollapsibleState.Collapsed);
        item.tooltip = 'Promoted memories shared with anyone who uses this Graphiti server with this repository, with their authors.';
        item.contextValue = 'graphitiMemory.teamScope';
        item.iconPath = new vscode.ThemeIcon('organization');
        item.id = `scope:${node.groupId}`;
        return item;
      }
      const item = new vscode.TreeItem(node.scope === 'workspace' ? 'Workspace memory' : 'User memory', vscode.TreeItemCollapsibleState.Expanded);
      item.contextValue = 'graphitiMemory.scope';
      item.iconPath = new vscode.ThemeIcon(node.scope === 'workspace' ? 'folder-library' : 'account');
      item.id = `scope:${node.groupId}`;
      return item;
    }
    case 'sessions': {
      const item = new vscode.TreeItem(`Chat sessions (${node.sessions.length})`, vscode.TreeItemCollapsibleState.Collapsed);
      item.tooltip = 'Each chat session of this workspace has its own memory group.';
      item.iconPath = new vscode.ThemeIcon('comment-discussion');
      item.id = 'sessions';
      return item;
    }
    case 'session': {
      const { record } = node;
      const item = new vscode.TreeItem(shortened(record.title ?? `Session ${record.sessionId ?? record.groupId}`), vscode.TreeItemCollapsibleState.Collapsed);
      item.description = new Date(record.lastWriteAt).toISOString().slice(0, 10);
      item.tooltip = `${record.messages} message(s) sent by ${record.tools.join(', ')}; first ${new Date(record.firstWriteAt).toLocaleString()}, last ${new Date(record.lastWriteAt).toLocaleString()}`;
      item.contextValue = 'graphitiMemory.session';
      item.iconPath = new vscode.ThemeIcon('comment');
      item.id = `session:${record.groupId}`;
      return item;
    }
    case 'message': {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('info');
      return item;
    }
    case 'episode': {
      const { episode } = node;
      const item = new vscode.TreeItem(shortened(episodeTitle(episode)), vscode.TreeItemCollapsibleState.None);
      const team = node.scope === 'team';
      // Team memories show who shared them: `[team · Alice]`, `[team]` without a name.
      item.description = team ? `${episode.valid_at.slice(0, 10)} · ${scopeLabel({ scope: 'team', author: parsePromotionEpisode(episode)?.author })}` : episode.valid_at.slice(0, 10);
      item.tooltip = new vscode.MarkdownString().appendText(episode.content);
      item.contextValue = team ? 'graphitiMemory.teamEpisode' : 'graphitiMemory.episode';
      item.iconPath = new vscode.ThemeIcon(episode.name.includes('.promotion.') ? 'pin' : 'comment');
      item.id = `episode:${episode.uuid}`;
      return item;
    }
  }
}

function shortened(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > LABEL_MAX ? `${line.slice(0, LABEL_MAX - 1)}…` : line;
}

/** The first line of text of an episode, without Graphiti's `role(role_type): ` prefix or episode tags. */
export function episodeTitle(episode: Episode): string {
  const body = episode.content.replace(/^[^\n(]*\((?:user|assistant|system)\):\s*/, '');
  return body.split('\n').find((line) => line.trim() !== '' && !/^<\/?graphiti_episode/.test(line.trim()))?.trim() ?? episode.name;
}
