// The "Open loops" group of the memory view (issue 33): the workspace's open loops from the shared
// loops file with their age and source, stale ones marked; "Mark Loop Done" / "Drop Loop" close one
// for every tool and send its task_update episode; the view refreshes when another tool changes the file.
import { GroupIdResolver, MemoryGate, type OpenLoop } from '@graphiti-memory/memory-core';
import { FileLoopStore, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { describe, expect, it } from 'vitest';
import { episodesProvider } from '../test-support/episodes-provider.js';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { EpisodesTreeProvider, type EpisodeNode } from './episodes-view.js';
import { LOOP_DONE_COMMAND, LOOP_DROP_COMMAND, type LoopCloseResult } from './open-loops.js';

const DAY_MS = 24 * 60 * 60_000;

function loop(id: string, groupId: string, text: string, daysAgo: number, tool = 'Claude Code'): OpenLoop {
  const at = new Date(Date.now() - daysAgo * DAY_MS).toISOString();
  return { id, text, scope: 'workspace', groupId, status: 'open', evidence: { tool, sessionId: 'claude-1', at, marker: 'todo' }, createdAt: at, updatedAt: at, mentions: 1 };
}

/** The loops file as another tool (a hook, graphiti-harness) writes it. */
function hookStore(harness: Harness): FileLoopStore {
  return new FileLoopStore({ filePath: sharedStateFiles(harness.stateDirectory).loops });
}

async function workspaceGroup(harness: Harness): Promise<string> {
  const groupId = await harness.container.get<GroupIdResolver>(GroupIdResolver).resolve('workspace');
  if (groupId === undefined) throw new Error('no workspace group');
  return groupId;
}

async function loopNodes(): Promise<EpisodeNode[]> {
  const roots = (await episodesProvider().getChildren()) ?? [];
  const group = roots.find((node) => node.type === 'loopsRoot');
  return group === undefined ? [] : ((await episodesProvider().getChildren(group)) ?? []);
}

function sentContents(harness: Harness): string[] {
  return harness.emulator.requests
    .filter((request) => request.path === '/messages')
    .flatMap((request) => (request.body as { messages: { content: string }[] }).messages.map((message) => message.content));
}

describe('open loops in the memory view', () => {
  it('lists the workspace open loops with age and source, stale marked, and closes one for every tool with a task_update episode', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    const groupId = await workspaceGroup(harness);
    const store = hookStore(harness);
    await store.update(() => ({
      next: [
        loop('aaaaaaaaaaaa', groupId, 'add a migration test for the retry budget', 3),
        loop('bbbbbbbbbbbb', groupId, 'check why the staging deploy is slow', 40, 'Codex'),
        // Another workspace's loop is not this view's.
        loop('cccccccccccc', 'gm_workspace_other', 'rename the other repo', 1),
      ],
      result: undefined,
    }));

    const roots = (await episodesProvider().getChildren()) ?? [];
    const group = roots.find((node) => node.type === 'loopsRoot');
    expect(group).toBeDefined();
    const groupItem = await episodesProvider().getTreeItem(group!);
    expect(groupItem.label).toBe('Open loops (2)');
    expect(groupItem.description).toBe('1 stale');

    const nodes = await loopNodes();
    const items = await Promise.all(nodes.map((node) => episodesProvider().getTreeItem(node)));
    expect(items.map((item) => item.label)).toEqual(['add a migration test for the retry budget', 'check why the staging deploy is slow']);
    expect(items[0]?.description).toBe('open for 3 days, Claude Code');
    expect(items[1]?.description).toMatch(/^stale: untouched for 40 days, Codex$/);
    expect(items.map((item) => item.contextValue)).toEqual(['graphitiMemory.loop', 'graphitiMemory.loop']);

    const done = await harness.command<LoopCloseResult>(LOOP_DONE_COMMAND, nodes[0]);
    expect(done).toMatchObject({ ok: true, status: 'done', taskUpdate: true });
    const dropped = await harness.command<LoopCloseResult>(LOOP_DROP_COMMAND, nodes[1]);
    expect(dropped).toMatchObject({ ok: true, status: 'dropped' });

    // Closed in the shared file: every tool's next brief stops naming them.
    const kept = await store.list();
    expect(kept.find((known) => known.id === 'aaaaaaaaaaaa')).toMatchObject({ status: 'done', closed: { tool: 'VS Code', marker: 'hand' } });
    expect(kept.find((known) => known.id === 'bbbbbbbbbbbb')).toMatchObject({ status: 'dropped' });
    expect(kept.find((known) => known.id === 'cccccccccccc')).toMatchObject({ status: 'open' });
    // Graphiti is told, as task_update episodes.
    await waitFor(() => sentContents(harness).some((content) => content.includes('Loop done (VS Code): add a migration test for the retry budget')), 10_000, 'the done task_update sent');
    await waitFor(() => sentContents(harness).some((content) => content.includes('Loop dropped (VS Code): check why the staging deploy is slow')), 10_000, 'the dropped task_update sent');
    expect(sentContents(harness).filter((content) => content.includes('Loop done')).every((content) => content.includes('kind="task_update"'))).toBe(true);
    expect(await loopNodes()).toEqual([]);

    // A row left over from before (closed in another window): nothing changes, and it says why.
    const again = await harness.command<LoopCloseResult>(LOOP_DONE_COMMAND, nodes[0]);
    expect(again).toMatchObject({ ok: false, status: 'not-open' });
  });

  it('refreshes when another tool changes the loops file', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    const groupId = await workspaceGroup(harness);
    expect(await loopNodes()).toEqual([]);
    let refreshed = 0;
    harness.container.get(EpisodesTreeProvider).onDidChangeTreeData(() => refreshed++);
    // Let the watch start (it is set up off the activation path).
    await new Promise((resolve) => setTimeout(resolve, 150));
    await hookStore(harness).update(() => ({ next: [loop('dddddddddddd', groupId, 'write the release notes', 0)], result: undefined }));
    await waitFor(() => refreshed > 0, 5000, 'the view refreshed after the loops file changed');
    expect((await loopNodes()).map((node) => (node.type === 'loop' ? node.loop.loop.text : ''))).toEqual(['write the release notes']);
  });

  it('changes nothing and sends nothing while memory is off, and says so', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    const groupId = await workspaceGroup(harness);
    const store = hookStore(harness);
    await store.update(() => ({ next: [loop('eeeeeeeeeeee', groupId, 'update the changelog', 1)], result: undefined }));
    const [node] = await loopNodes();
    expect(node).toBeDefined();
    await harness.command('graphitiMemory.disable', 'workspace');
    await waitFor(() => !harness.container.get<MemoryGate>(MemoryGate).evaluate().open, 5000, 'memory off');
    const result = await harness.command<LoopCloseResult>(LOOP_DONE_COMMAND, node);
    expect(result).toMatchObject({ ok: false, status: 'off' });
    expect((await store.list())[0]).toMatchObject({ status: 'open' });
    expect(sentContents(harness).some((content) => content.includes('update the changelog'))).toBe(false);
  });
});
