// The Memories view's tree as the tests read it (the vscode double keeps registered tree views).
import type * as vscode from 'vscode';
import { EPISODES_VIEW, type EpisodeNode } from '../episodes/episodes-view.js';
import { windowRegistry } from './vscode-double.js';

/** The data provider of the registered episodes view; throws when the view is not registered. */
export function episodesProvider(): vscode.TreeDataProvider<EpisodeNode> {
  const view = windowRegistry().treeViews.get(EPISODES_VIEW);
  if (!view) throw new Error('the episodes view is not registered');
  return view.treeDataProvider as vscode.TreeDataProvider<EpisodeNode>;
}
