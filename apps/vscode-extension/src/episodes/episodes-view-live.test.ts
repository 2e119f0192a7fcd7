// The view as good as the page (issue 32 item 4): it follows every change without Refresh, shows
// what this machine keeps while Graphiti is down, says when a conversation's digest is sent, opens
// memories and facts as documents, and never shows an internal name or markup.
import type * as vscode from 'vscode';
import { LocalTier } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { FORGET } from '../commands/forget-workspace-command.js';
import { PARTICIPANT_ID } from '../chat/memory-participant.js';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { episodesProvider } from '../test-support/episodes-provider.js';
import {
  answerMessages,
  chatRegistrations,
  ChatResponseStreamDouble,
  createChatContext,
  createChatRequest,
  FakeLanguageModel,
  noCancellation,
  testHost,
} from '../test-support/vscode-double.js';
import type { EpisodeNode } from './episodes-view.js';

async function children(node?: EpisodeNode): Promise<EpisodeNode[]> {
  const nodes = (await episodesProvider().getChildren(node)) ?? [];
  return nodes.filter((found) => (found.type as string) !== 'recallOff');
}

async function curatedRows(): Promise<vscode.TreeItem[]> {
  const curated = (await children()).find((node) => node.type === 'curatedRoot');
  return Promise.all((curated === undefined ? [] : await children(curated)).map(async (node) => episodesProvider().getTreeItem(node)));
}

/** Every word the view shows: labels, descriptions and hovers, from the roots down to `depth`. */
async function everything(depth = 4, node?: EpisodeNode): Promise<string[]> {
  if (depth === 0) return [];
  const words: string[] = [];
  for (const child of await children(node)) {
    const item = await episodesProvider().getTreeItem(child);
    const tooltip = item.tooltip;
    words.push(String(item.label ?? ''), String(item.description ?? ''), typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? ''));
    words.push(...(await everything(depth - 1, child)));
  }
  return words;
}

const INTERNAL = /graphiti_episode|graphiti-memory\.(digest|promotion|turn)|[0-9a-f]{8}-[0-9a-f]{4}-|\bEpisode\b|from a directive|workspace group|session group/;

async function ask(prompt: string, command?: string): Promise<string> {
  const participant = chatRegistrations().participants.get(PARTICIPANT_ID);
  const stream = new ChatResponseStreamDouble();
  const request = createChatRequest({ prompt, model: new FakeLanguageModel({ reply: ['Noted.'] }), ...(command === undefined ? {} : { command }) });
  await participant?.requestHandler(request, createChatContext([]), stream.asStream(), noCancellation());
  return stream.text();
}

function countRefreshes(): { readonly count: () => number } {
  let changed = 0;
  episodesProvider().onDidChangeTreeData?.(() => (changed += 1));
  return { count: () => changed };
}

async function promoted(harness: Harness, text: string): Promise<void> {
  await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text });
}

describe('the memory view follows every change', () => {
  it('drops a memory forgotten from the Command Palette at once, without Refresh', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    await promoted(harness, 'We deploy with Fly.io.');
    await waitFor(() => harness.emulator.state.episodes().some((episode) => episode.name.includes('.promotion.')), 10_000, 'the promotion stored');
    await harness.emulator.idle();
    expect((await curatedRows()).map((row) => row.label)).toContain('We deploy with Fly.io.');

    const refreshes = countRefreshes();
    answerMessages(FORGET);
    expect(await harness.command<{ ok: boolean }>('graphitiMemory.forgetWorkspace')).toMatchObject({ ok: true });
    // The palette's forget told the view: it re-read by itself.
    expect(refreshes.count()).toBeGreaterThan(0);
    expect(await children()).toEqual([]);
  });

  it('refreshes when another tool changes the shared local tier (a promotion or forget by graphiti-harness or a hook)', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    await promoted(harness, 'We use zod.');
    await waitFor(() => harness.emulator.state.episodes().length > 0, 10_000, 'the promotion stored');
    await new Promise((resolve) => setTimeout(resolve, 600));
    const refreshes = countRefreshes();
    // Another process writes the tier: here the same memory-core service, as the harness's forget would.
    await harness.container.get<LocalTier>(LocalTier).forgetGroups(['some-other-group']);
    await waitFor(() => refreshes.count() > 0, 10_000, 'the view refreshed after the tier file changed');
  });
});

describe('with Graphiti down the view shows what this machine keeps', () => {
  it('lists a memory just saved as waiting to be sent, never "Nothing curated yet", under a row that says Graphiti is not answering', async () => {
    const harness = await activateExtension({
      settings: { 'graphitiMemory.enabled': true },
      consented: true,
      emulator: { faults: { '*': { errorRate: 1 } } },
    });
    await promoted(harness, 'Releases are cut from main only.');
    const roots = await children();
    const labels = await Promise.all(roots.map(async (node) => String((await episodesProvider().getTreeItem(node)).label)));
    expect(labels[0]).toMatch(/^Graphiti is not answering: showing what this machine keeps and what waits to be sent/);
    const rows = await curatedRows();
    expect(rows.map((row) => row.label)).toEqual(['Releases are cut from main only.']);
    expect(rows[0]?.description).toBe('decision · workspace · not stored by Graphiti yet');
    expect(labels).toContain('Curated memories (1)');
  });

  it('shows the cached copy of a stored memory, labelled, while Graphiti does not answer', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true }, consented: true });
    await promoted(harness, 'Tabs, not spaces.');
    await waitFor(() => harness.emulator.state.episodes().some((episode) => episode.name.includes('.promotion.')), 10_000, 'the promotion stored');
    await harness.emulator.idle();
    // The tier reads Graphiti's copy back (as the brief's refresh does): the memory is now "stored", not waiting.
    await harness.container.get<LocalTier>(LocalTier).refresh();
    harness.emulator.setFaults({ '*': { errorRate: 1 } });
    const rows = await curatedRows();
    expect(rows.map((row) => row.label)).toEqual(['Tabs, not spaces.']);
    expect(rows[0]?.description).toBe('decision · workspace · cached on this machine');
    harness.emulator.setFaults({});
  });
});

describe('a conversation whose digest waits says when it is sent', () => {
  it('names the local time the digest goes, instead of "No turns stored yet"', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.idleMinutes': 5 }, consented: true });
    await ask('How do we deploy the API?');
    await waitFor(async () => (await children()).some((node) => node.type === 'sessions'), 10_000, 'the conversation listed');
    const sessions = await children((await children()).find((node) => node.type === 'sessions'));
    const inside = await children(sessions[0]);
    const text = String((await episodesProvider().getTreeItem(inside[0]!)).label);
    expect(text).toMatch(/^Waiting: its turns are sent as one digest at about \d{1,2}:\d{2}.*, 5 minutes after the last turn/);
    expect(harness.emulator.state.episodes()).toEqual([]);
  });
});

describe('user words everywhere, and rows that open', () => {
  it('shows no ids, group names or markup; /remember answers in words; a memory and a fact open as read-only documents', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.capture.digestTurns': 1 }, consented: true });
    const remembered = await ask('decision workspace We use pnpm workspaces.', 'remember');
    expect(remembered).toBe('Saved to this workspace’s memory as a decision: “We use pnpm workspaces.” It is on its way to your Graphiti server.');
    await ask('How do we deploy the API?');
    await waitFor(() => harness.emulator.state.episodes().some((episode) => episode.name.includes('.digest.')), 10_000, 'the digest stored');
    await harness.emulator.idle();

    const words = await everything();
    expect(words.join('\n')).toContain('We use pnpm workspaces.');
    expect(words.filter((word) => INTERNAL.test(word))).toEqual([]);

    const curated = (await children()).find((node) => node.type === 'curatedRoot');
    const [memory] = await children(curated);
    const opened = await harness.command<{ ok: boolean; title: string; text: string }>('graphitiMemory.episodes.open', memory);
    expect(opened).toMatchObject({ ok: true, title: 'Memory — We use pnpm workspaces.' });
    expect(opened.text).toContain('# Decision\n\nWe use pnpm workspaces.');
    expect(opened.text).not.toMatch(INTERNAL);
    const preview = testHost().executedCommands.filter((run) => run.command === 'markdown.showPreview').at(-1);
    expect(String(preview?.args[0])).toMatch(/^graphiti-memory-doc:/);

    // A fact opens the conversation or memory it came from.
    const facts = (await children((await children()).find((node) => node.type === 'factsRoot'))).filter((node) => node.type === 'fact');
    const deploy = facts.find((node) => node.type === 'fact' && /deploy/i.test(node.fact.fact));
    expect(deploy).toBeDefined();
    const source = await harness.command<{ ok: boolean; title: string; text: string }>('graphitiMemory.episodes.open', deploy);
    expect(source.title).toBe('Conversation — How do we deploy the API?');
    expect(source.text).toContain('> user: How do we deploy the API?');
    expect(source.text).not.toMatch(INTERNAL);
  });
});
