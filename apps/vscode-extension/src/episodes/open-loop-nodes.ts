// The "Open loops" group of the memory view: this workspace's open loops (LoopService.list: the
// shared loops.json every tool writes), newest first, each with its age and the tool it was said in;
// one untouched for `loops.expireDays` is marked stale (no longer nudged, still open until closed).
import * as vscode from 'vscode';
import { describeLoop, isStaleLoop, type LoopService, type OpenLoop } from '@graphiti-memory/memory-core';
import { formatDay, sanitiseFactText } from '@graphiti-memory/prompt-elements';

/** One open loop as the view shows it. */
export interface ShownLoop {
  readonly loop: OpenLoop;
  /** Untouched for `loops.expireDays`: shown, no longer nudged. */
  readonly stale: boolean;
  /** `open for 3 days, Claude Code` (or `stale: untouched for 40 days, …`). */
  readonly age: string;
}

/** The context value of a loop row: "Mark Loop Done" and "Drop Loop" are offered on it. */
export const LOOP_CONTEXT = 'graphitiMemory.loop';

const LABEL_MAX = 80;

/** This workspace's open loops, newest first; `[]` without a workspace or a store. */
export async function shownLoops(loops: Pick<LoopService, 'list'>, expireDays: number, now: Date): Promise<ShownLoop[]> {
  const listed = await loops.list();
  return (listed?.loops ?? []).map((loop) => ({ loop, stale: isStaleLoop(loop, now, expireDays), age: describeLoop(loop, now, expireDays) }));
}

export function loopsRootItem(loops: readonly ShownLoop[]): vscode.TreeItem {
  const item = new vscode.TreeItem(`Open loops (${loops.length})`, vscode.TreeItemCollapsibleState.Expanded);
  const stale = loops.filter((shown) => shown.stale).length;
  if (stale > 0) item.description = `${stale} stale`;
  item.tooltip = 'To-dos, follow-ups and open questions of your sessions (TODO:, next:, follow-up: lines), in every tool. Mark one done or drop it from its menu.';
  item.iconPath = new vscode.ThemeIcon('tasklist');
  item.id = 'loops';
  return item;
}

export function loopItem(shown: ShownLoop): vscode.TreeItem {
  const { loop } = shown;
  // Loop text comes from chat: shown as data, on one line.
  const text = sanitiseFactText(loop.text);
  const item = new vscode.TreeItem(text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text, vscode.TreeItemCollapsibleState.None);
  item.description = shown.age;
  const day = formatDay(loop.evidence.at);
  const said = `Said in ${loop.evidence.tool}${day === undefined ? '' : ` on ${day}`}${loop.mentions > 1 ? ` (${loop.mentions} times)` : ''}`;
  item.tooltip = new vscode.MarkdownString()
    .appendText(text)
    .appendMarkdown('\n\n')
    .appendText(`${said}. ${shown.stale ? 'Stale: no longer named in briefs until it is said again. ' : ''}Id ${loop.id} (graphiti-harness loops done ${loop.id}).`);
  item.iconPath = new vscode.ThemeIcon(shown.stale ? 'watch' : 'circle-large-outline');
  item.contextValue = LOOP_CONTEXT;
  item.id = `loop:${loop.id}`;
  return item;
}
