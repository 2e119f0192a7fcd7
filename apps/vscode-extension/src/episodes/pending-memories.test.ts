import fs from 'node:fs';
import path from 'node:path';
import { FilePendingMemoryStore, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { REMEMBER_TOOL } from '../tools/memory-tools.js';
import { captureChatSession, finishedRequest } from '../test-support/chat-session-files.js';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { episodesProvider } from '../test-support/episodes-provider.js';
import { answerInputBoxes, chatRegistrations, LanguageModelTextPart, noCancellation } from '../test-support/vscode-double.js';
import { EpisodesTreeProvider, type EpisodeNode } from './episodes-view.js';

/** The test's harness, for the helpers below (the setup file disposes it after each test). */
let harness: Harness | undefined;



async function remember(content: string, kind = 'preference', scope = 'workspace'): Promise<string> {
  const tool = chatRegistrations().tools.get(REMEMBER_TOOL);
  if (!tool) throw new Error('the remember tool is not registered');
  const prepared = await tool.prepareInvocation?.({ input: { kind, scope, content } } as vscode.LanguageModelToolInvocationPrepareOptions<unknown>, noCancellation());
  expect(prepared?.confirmationMessages).toBeUndefined();
  const result = await tool.invoke({ input: { kind, scope, content }, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<unknown>, noCancellation());
  return (result?.content ?? []).map((part) => (part instanceof LanguageModelTextPart ? part.value : '')).join('');
}

async function pendingNodes(): Promise<EpisodeNode[]> {
  const roots = (await episodesProvider().getChildren()) ?? [];
  const pending = roots.find((node) => node.type === 'pendingRoot');
  return pending === undefined ? [] : ((await episodesProvider().getChildren(pending)) ?? []);
}

function sentContents(): string[] {
  return harness!.emulator.requests
    .filter((request) => request.path === '/messages')
    .flatMap((request) => (request.body as { messages: { content: string }[] }).messages.map((message) => message.content));
}

describe('review of pending memories (autoPromote.review, on by default)', () => {
  it('keeps what the remember tool proposes pending, sends nothing, and sends it edited once approved', async () => {
    harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    expect(await remember('The user prefers pnpm.')).toContain('waits for the user');
    expect(await remember('Use tabs, not spaces.')).toContain('Pending memories');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(harness.emulator.requests.filter((request) => request.path === '/messages')).toEqual([]);

    const pending = await pendingNodes();
    expect(pending).toHaveLength(2);
    const item = await episodesProvider().getTreeItem(pending[0]!);
    expect(item.label).toBe('Preference (workspace): The user prefers pnpm.');
    expect(item.contextValue).toBe('graphitiMemory.pending');

    answerInputBoxes('The user prefers pnpm 10.');
    const approved = await harness.command<{ ok: boolean; status: string }>('graphitiMemory.pending.approveEdited', pending[0]);
    expect(approved).toMatchObject({ ok: true, status: 'sent' });
    const rejected = await harness.command<{ ok: boolean; status: string }>('graphitiMemory.pending.reject', pending[1]);
    expect(rejected).toMatchObject({ ok: true, status: 'rejected' });
    await waitFor(() => sentContents().length > 0, 5000, 'the approved memory sent');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(sentContents().join('\n')).toContain('The user prefers pnpm 10.');
    expect(sentContents().join('\n')).not.toContain('tabs');
    expect(await pendingNodes()).toEqual([]);
  });

  it('holds an auto-promoted directive of a chat turn for review: the turn is sent, the memory is not', async () => {
    harness = await activateExtension({
      settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.autoPromote.enabled': true, 'graphitiMemory.capture.vscodeChat': true, 'graphitiMemory.capture.granularity': 'turn', 'graphitiMemory.scopes': 'workspace' },
      consented: true,
    });
    const text = 'Noted for later.\ndecision (workspace): adopt zod for settings';
    await captureChatSession(harness, 'session-1', [finishedRequest('request_1', text, 'Sure.')]);
    await waitFor(() => sentContents().some((content) => content.includes('adopt zod')), 5000, 'the turn sent');
    await waitFor(async () => (await pendingNodes()).length === 1, 5000, 'the directive pending');
    const [node] = await pendingNodes();
    expect(node?.type === 'pending' ? node.memory : undefined).toMatchObject({ kind: 'decision', scope: 'workspace', text: 'adopt zod for settings', source: 'directive' });
    const names = harness.emulator.requests
      .filter((entry) => entry.path === '/messages')
      .flatMap((entry) => (entry.body as { messages: { name: string }[] }).messages.map((message) => message.name));
    expect(names.some((name) => name.includes('.promotion.'))).toBe(false);
  });

  it('keeps a memory pending when the edit adds a secret, and says why', async () => {
    harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    await remember('Deploy with the staging key.', 'procedure');
    const [node] = await pendingNodes();
    const result = await harness.command<{ ok: boolean; status: string; message: string }>(
      'graphitiMemory.pending.approveEdited',
      node,
      'Deploy with AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    );
    expect(result).toMatchObject({ ok: false, status: 'refused' });
    expect(result.message).toContain('secret');
    expect(await pendingNodes()).toHaveLength(1);
    expect(harness.emulator.requests.filter((request) => request.path === '/messages')).toEqual([]);
  });

  it("lists what another tool holds for review in the shared file (an earlier version's own file moved in), refreshing when the file changes", async () => {
    harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    // What an earlier version of the extension kept in its global storage.
    const legacy = { id: 'a1b2c3d4e5f6', kind: 'preference', scope: 'user', text: 'Answers in British English.', source: 'remember-tool', createdAt: 1 };
    fs.mkdirSync(harness.context.globalStorageFolder, { recursive: true });
    fs.writeFileSync(path.join(harness.context.globalStorageFolder, 'pending-memories.json'), JSON.stringify({ version: 1, memories: [legacy] }));
    expect((await pendingNodes()).map((node) => (node.type === 'pending' ? node.memory.id : ''))).toEqual([legacy.id]);
    expect(fs.existsSync(path.join(harness.context.globalStorageFolder, 'pending-memories.json'))).toBe(false);

    let refreshed = 0;
    harness.container.get(EpisodesTreeProvider).onDidChangeTreeData(() => refreshed++);
    await new Promise((resolve) => setTimeout(resolve, 150));
    // An agent hook (or graphiti-harness) holds a directive for review in the shared state folder.
    const hooks = new FilePendingMemoryStore({ filePath: sharedStateFiles(harness.stateDirectory).pendingMemories });
    await hooks.add({ id: '0f1e2d3c4b5a', kind: 'decision', scope: 'workspace', text: 'adopt zod for settings', source: 'directive', createdAt: Date.now(), sessionId: 'claude-1' });
    await waitFor(() => refreshed > 0, 5000, 'the view refreshed after the shared file changed');
    const pending = await pendingNodes();
    expect(pending.map((node) => (node.type === 'pending' ? node.memory.text : ''))).toEqual(['Answers in British English.', 'adopt zod for settings']);

    const approved = await harness.command<{ ok: boolean; status: string }>('graphitiMemory.pending.approve', pending[1]);
    expect(approved).toMatchObject({ ok: true, status: 'sent' });
    await waitFor(() => sentContents().some((content) => content.includes('adopt zod for settings')), 5000, 'the approved memory sent');
    expect((await hooks.list()).map((memory) => memory.id)).toEqual([legacy.id]);
  });
});
