import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { episodesProvider } from '../test-support/episodes-provider.js';
import type * as vscode from 'vscode';
import {
  answerMessages,
  answerQuickPicks,
  ChatResponseMarkdownPart,
  ChatResponseTurn,
  chatRegistrations,
  ChatResponseStreamDouble,
  createChatContext,
  createChatRequest,
  FakeLanguageModel,
  noCancellation,
  testHost,
  windowRegistry,
} from '../test-support/vscode-double.js';
import { PARTICIPANT_ID } from '../chat/memory-participant.js';
import { DELETE, EPISODES_VIEW, REFRESH_DEBOUNCE_MS, type EpisodeNode } from './episodes-view.js';

/** Asks `@memory`; with `sessionId`, as a later turn of that chat session. Returns the session's id. */
async function ask(prompt: string, sessionId?: string): Promise<string> {
  const participant = chatRegistrations().participants.get(PARTICIPANT_ID);
  if (!participant) throw new Error('the participant is not registered');
  const history = sessionId === undefined ? [] : ([new ChatResponseTurn([new ChatResponseMarkdownPart('Noted.')], { metadata: { sessionId } }, PARTICIPANT_ID)] as unknown as vscode.ChatContext['history']);
  const result = (await participant.requestHandler(
    createChatRequest({ prompt, model: new FakeLanguageModel({ reply: ['Noted.'] }) }),
    createChatContext(history),
    new ChatResponseStreamDouble().asStream(),
    noCancellation(),
  )) as vscode.ChatResult;
  return (result.metadata as { sessionId: string }).sessionId;
}

/** The view's nodes; at the top, without the "Recall is off" row (its own test covers it). */
async function children(node?: EpisodeNode): Promise<EpisodeNode[]> {
  const nodes = (await episodesProvider().getChildren(node)) ?? [];
  return node === undefined ? nodes.filter((found) => (found.type as string) !== 'recallOff') : nodes;
}

async function labels(nodes: readonly EpisodeNode[]): Promise<string[]> {
  return Promise.all(nodes.map(async (node) => String((await episodesProvider().getTreeItem(node)).label)));
}

function messagesRequests(harness: Harness): number {
  return harness.emulator.requests.filter((request) => request.path === '/messages').length;
}


describe('episodes view', () => {
  it('is empty while memory is off (the welcome view explains)', async () => {
    const harness = await activateExtension();
    expect(await episodesProvider().getChildren()).toEqual([]);
    expect(harness.emulator.requests).toEqual([]);
  });

  it('is empty while memory is on but holds nothing (the welcome view says what to do)', async () => {
    await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true }, consented: true });
    expect(await episodesProvider().getChildren()).toEqual([]);
  });

  it('shows pending, curated, what memory knows and conversations in this order: an approved directive once, turns inside their session', async () => {
    // Per-message episodes: the test follows one turn's question and answer into its conversation.
    const harness = await activateExtension({
      settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.autoPromote.enabled': true, 'graphitiMemory.capture.granularity': 'turn' },
      consented: true,
    });
    await ask('preference: Tabs, not spaces.');
    await waitFor(() => messagesRequests(harness) >= 2, 5000, 'the turn sent to the session and the workspace');
    await harness.emulator.idle();

    let roots = await children();
    expect(roots.map((node) => node.type)).toEqual(['pendingRoot', 'curatedRoot', 'factsRoot', 'sessions']);
    expect(await labels(roots)).toEqual(['Pending memories (1)', 'Curated memories (0)', 'What memory knows', 'Conversations (1)']);
    const [pending] = await children(roots[0]);
    expect(await harness.command<{ ok: boolean }>('graphitiMemory.pending.approve', pending)).toMatchObject({ ok: true });
    await waitFor(() => harness.emulator.state.episodes().some((episode) => episode.name.includes('.promotion.')), 5000, 'the promotion stored');
    await harness.emulator.idle();

    roots = await children();
    expect(roots.map((node) => node.type)).toEqual(['curatedRoot', 'factsRoot', 'sessions']);
    // Once, as the memory it became; the question that carried it is a turn of its conversation.
    const curated = await children(roots[0]);
    expect(await labels(curated)).toEqual(['Tabs, not spaces.']);
    expect((await episodesProvider().getTreeItem(curated[0]!)).description).toMatch(/^preference · workspace · \d{4}-\d{2}-\d{2}$/);
    const sessions = await children(roots[2]);
    expect(sessions.map((node) => node.type)).toEqual(['session']);
    const turns = await children(sessions[0]);
    expect(await labels(turns)).toEqual(['preference: Tabs, not spaces.']);
    expect(await labels(await children(turns[0]))).toEqual(['preference: Tabs, not spaces.', 'Noted.']);

    // What memory knows: the facts extracted from the memories, with where each came from.
    const facts = (await children(roots[1])).filter((node) => node.type === 'fact');
    expect(facts.length).toBeGreaterThan(0);
    const tabs = facts.find((node) => node.type === 'fact' && /Tabs, not spaces/.test(node.fact.fact));
    // Shown as the fact alone, without the episode tags the emulator's extraction keeps.
    expect(facts.map((node) => (node.type === 'fact' ? node.fact.fact : '')).filter((text) => /graphiti_episode/.test(text) || text === '')).toEqual([]);
    expect(tabs?.type === 'fact' ? tabs.fact.source : undefined).toMatch(/^from (workspace|session) memory, \d{4}-\d{2}-\d{2}: "/);
    expect(String((await episodesProvider().getTreeItem(tabs!)).description)).toMatch(/^since \d{4}-\d{2}-\d{2}$/);
  });

  it('reads Graphiti again once new memories are confirmed, a burst of confirmations as one refresh, never for writes merely queued', async () => {
    // Each message takes the emulator 150 ms (one worker): sent well before it shows in /episodes (confirmed).
    const harness = await activateExtension({
      settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.capture.granularity': 'turn' },
      consented: true,
      emulator: { processingDelayMs: 150 },
    });
    let changed = 0;
    episodesProvider().onDidChangeTreeData?.(() => (changed += 1));
    await ask('We deploy with Fly.io.');
    await waitFor(() => messagesRequests(harness) >= 2, 5000, 'the turn sent to the session and the workspace');
    // Queued and sent, nothing confirmed: the view has nothing new to show, so it reads nothing.
    expect(changed).toBe(0);
    await waitFor(() => changed > 0, 10_000, 'the view refreshed after the confirmations');
    await harness.emulator.idle();
    await new Promise((resolve) => setTimeout(resolve, REFRESH_DEBOUNCE_MS + 300));
    // Four messages (two per group) confirmed within the debounce: one read of Graphiti.
    expect(changed).toBe(1);
  });

  it("shows a session digest (the default capture) as one row of its conversation that opens on the digest's turns", async () => {
    // A digest every two turns: the second turn of the session closes it.
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.digestTurns': 2 }, consented: true });
    const session = await ask('How do we deploy the API?');
    await ask('And which database do we use?', session);
    await waitFor(() => harness.emulator.state.episodes().some((episode) => episode.name.includes('.digest.')), 5000, 'the digest stored');
    await harness.emulator.idle();

    const sessions = await children((await children()).find((node) => node.type === 'sessions'));
    const conversation = await children(sessions[0]);
    expect(conversation.map((node) => node.type)).toEqual(['episode']);
    const digest = await episodesProvider().getTreeItem(conversation[0]!);
    expect(digest.label).toBe('How do we deploy the API?');
    expect(digest.description).toMatch(/^2 turns · \d{4}-\d{2}-\d{2}$/);
    // Still the episode: delete and "Forget This Source" apply to the digest.
    expect(digest.contextValue).toBe('graphitiMemory.episode');
    const turns = await children(conversation[0]);
    expect(await labels(turns)).toEqual(['How do we deploy the API?', 'And which database do we use?']);
    // Each turn's row holds the turn as stored, every speaker's lines.
    const tooltip = ((await episodesProvider().getTreeItem(turns[1]!)).tooltip as vscode.MarkdownString).value;
    expect(tooltip.split('\n')).toEqual(['user: And which database do we use?', expect.stringMatching(/memory.*: Noted/)]);
  });

  it('says why it cannot search while recall is off, and sends nothing', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    const off = await harness.command<{ ok: boolean; message: string }>('graphitiMemory.searchMemory', 'deploy');
    expect(off).toMatchObject({ ok: false });
    expect(off.message).toMatch(/recall is off/);
    expect(testHost().shownMessages.at(-1)?.message).toMatch(/recall is off/);
    expect(harness.emulator.requests.filter((request) => request.path === '/search')).toEqual([]);
  });

  it('searches what memory knows against Graphiti and shows the facts under the query', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true }, consented: true });
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We deploy the billing API with Fly.io.' });
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We use zod for validation.' });
    await waitFor(() => harness.emulator.state.facts().length >= 2, 5000, 'the facts extracted');
    // Delivery confirmation learns each episode's uuid: what a recalled fact's citation is found by.
    expect((await (await harness.ingestion()).waitForConfirmation({ timeoutMs: 5000 })).pending).toBe(0);
    const result = await harness.command<{ ok: boolean; facts: number; message: string }>('graphitiMemory.searchMemory', 'billing deploy');
    expect(result, result.message).toMatchObject({ ok: true });
    const search = harness.emulator.requests.filter((request) => request.path === '/search');
    expect(search.map((request) => (request.body as { query: string }).query)).toContain('billing deploy');
    const roots = await children();
    const factsRoot = roots.find((node) => node.type === 'factsRoot');
    expect(await labels([factsRoot!])).toEqual(['What memory knows about "billing deploy"']);
    const shown = (await children(factsRoot)).filter((node) => node.type === 'fact');
    const texts = shown.map((node) => (node.type === 'fact' ? node.fact.fact : ''));
    expect(texts.some((text) => text.startsWith('We deploy the billing API with Fly.io'))).toBe(true);
    expect(texts.some((text) => text.startsWith('We use zod'))).toBe(false);
    // The fact cites the curated memory it came from, which the view shows.
    expect(shown[0]?.type === 'fact' ? shown[0].fact.source : undefined).toMatch(/^from workspace memory, \d{4}-\d{2}-\d{2}: "We deploy the billing API with Fly\.io\."$/);
    // And ends as its line in the prompt does (prompt-elements' factLineSuffix): here, its citation.
    const description = String((await episodesProvider().getTreeItem(shown[0]!)).description);
    expect(description).toMatch(/^since \d{4}-\d{2}-\d{2} \(.+, \d{4}-\d{2}-\d{2}\)$/);
    expect(await harness.command('graphitiMemory.clearMemorySearch')).toMatchObject({ ok: true });
    expect(await labels([(await children()).find((node) => node.type === 'factsRoot')!])).toEqual(['What memory knows']);
    // From the palette: the box asks, and stays open when the refreshing view takes the focus.
    testHost().answers.inputBoxes.push(() => 'zod validation');
    expect(await harness.command('graphitiMemory.searchMemory')).toMatchObject({ ok: true });
    expect(testHost().shownInputBoxes.at(-1)?.options).toMatchObject({ title: 'Search what Graphiti Memory knows', ignoreFocusOut: true });
    expect(await labels([(await children()).find((node) => node.type === 'factsRoot')!])).toEqual(['What memory knows about "zod validation"']);
  });

  it('puts the count of pending memories on the view and says when new ones wait', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.autoPromote.enabled': true }, consented: true });
    const view = windowRegistry().treeViews.get(EPISODES_VIEW)!;
    await ask('decision: We release on Tuesdays.');
    await waitFor(() => view.badge?.value === 1, 5000, 'the badge to show 1');
    expect(view.badge?.tooltip).toBe('1 memory waits for your review');
    await waitFor(() => testHost().shownMessages.some((shown) => /1 new memory waits for your review/.test(shown.message)), 5000, 'the notification');
    expect(testHost().shownMessages.find((shown) => /waits for your review/.test(shown.message))?.items).toEqual(['Review']);
    const [pending] = await children((await children())[0]);
    await harness.command('graphitiMemory.pending.reject', pending);
    await waitFor(() => view.badge === undefined, 5000, 'the badge to go');
  });

  it('lists curated memories and deletes one after confirmation', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We use zod.' });
    await waitFor(() => harness!.emulator.state.episodes().length === 1, 5000, 'the episode stored');
    const roots = await children();
    expect(roots.map((node) => node.type)).toEqual(['curatedRoot', 'factsRoot', 'sessions']);
    const episodes = await children(roots[0]);
    expect(episodes).toHaveLength(1);
    const item = await episodesProvider().getTreeItem(episodes[0]!);
    expect(item.label).toBe('We use zod.');
    expect(item.contextValue).toBe('graphitiMemory.episode');
    answerMessages(DELETE);
    const result = await harness.command<{ ok: boolean }>('graphitiMemory.episodes.deleteEpisode', episodes[0]);
    expect(result.ok).toBe(true);
    expect(harness.emulator.state.episodes()).toEqual([]);
  });

  it('forgets the user scope from the view title menu, after a pick and a confirmation', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    await harness.command('graphitiMemory.promote', { kind: 'preference', scope: 'user', text: 'I prefer pnpm.' });
    await waitFor(() => harness.emulator.state.episodes().length === 1, 5000, 'the user memory stored');
    const userGroup = harness.emulator.state.episodes()[0]!.group_id;
    answerQuickPicks('User memory');
    answerMessages((shown) => shown.items.find((item) => /forget/i.test(item)));
    const result = await harness.command<{ ok: boolean }>('graphitiMemory.episodes.forgetScope');
    expect(result.ok).toBe(true);
    expect(harness.emulator.requests.some((request) => request.method === 'DELETE' && request.path === `/group/${userGroup}`)).toBe(true);
  });

  it('says recall is off in its first row, which turns it on; the row leaves once recall is on', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    // An empty view shows the welcome (with its getting-started buttons) instead: something is stored first.
    expect(await episodesProvider().getChildren()).toEqual([]);
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We use zod.' });
    const first = (await episodesProvider().getChildren())?.[0];
    expect(first?.type).toBe('recallOff');
    const item = await episodesProvider().getTreeItem(first!);
    expect(item.label).toBe('Recall is off: answers do not use memory');
    expect(item.command?.command).toBe('graphitiMemory.enableRecall');
    let changed = 0;
    episodesProvider().onDidChangeTreeData?.(() => (changed += 1));
    answerMessages('Allow', undefined);
    await harness.command(item.command!.command);
    // The view is told at once (no manual refresh), and the row is gone.
    expect(changed).toBeGreaterThan(0);
    expect((await episodesProvider().getChildren())?.map((node) => node.type)).not.toContain('recallOff');
  });

  it("shows the team's memories among the curated ones with their authors, and never deletes them", async () => {
    // A repository with a remote: the team scope has a group (consented, with a display name).
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'episodes-team-'));
    fs.mkdirSync(path.join(workspace, '.git'));
    fs.writeFileSync(path.join(workspace, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:acme/app.git\n');
    const harness = await activateExtension({
      workspaceFolder: workspace,
      settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.team.consent': true, 'graphitiMemory.team.displayName': 'Alice' },
      consented: true,
    });
    expect(await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'team', text: 'Releases ship on Tuesdays.' })).toMatchObject({ ok: true });
    expect(await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We use zod for validation.' })).toMatchObject({ ok: true });
    await waitFor(() => harness.emulator.state.episodes().filter((episode) => episode.name.includes('.promotion.')).length >= 2, 5000, 'both promotions stored');
    await harness.emulator.idle();

    const curatedRoot = (await children()).find((node) => node.type === 'curatedRoot');
    const curated = await children(curatedRoot);
    expect((await labels(curated)).sort()).toEqual(['Releases ship on Tuesdays.', 'We use zod for validation.']);
    const team = curated.find((node) => node.type === 'episode' && node.scope === 'team');
    const teamItem = await episodesProvider().getTreeItem(team!);
    expect(teamItem.description).toMatch(/^decision · team · Alice · \d{4}-\d{2}-\d{2}$/);
    // No delete or forget in its menu, and the commands refuse it: it is shared with teammates.
    expect(teamItem.contextValue).toBe('graphitiMemory.teamEpisode');
    const own = curated.find((node) => node.type === 'episode' && node.scope === 'workspace');
    expect((await episodesProvider().getTreeItem(own!)).contextValue).toBe('graphitiMemory.episode');
    answerMessages(DELETE);
    const deleted = await harness.command<{ ok: boolean; message: string }>('graphitiMemory.episodes.deleteEpisode', team);
    expect(deleted).toMatchObject({ ok: false });
    expect(deleted.message).toMatch(/shared.*forget --scope team/);
    answerMessages(DELETE);
    expect(await harness.command('graphitiMemory.episodes.forgetEpisode', team)).toMatchObject({ ok: false });
    expect(harness.emulator.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
    expect(harness.emulator.state.episodes().some((episode) => episode.content.includes('Releases ship on Tuesdays.'))).toBe(true);
  });
});
