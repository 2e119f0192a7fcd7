// The extension's Promote, approval of a pending memory and Forget reach memory's local tier in the
// shared state folder (the one GRAPHITI_MEMORY_STATE_DIR names in tests) through memory-core's own
// services, with no call of the extension's, so the next SessionStart brief of Claude Code or Copilot
// agent mode shows the promotion, and not the forgotten.
import type * as vscode from 'vscode';
import { LocalTier } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { FORGET } from '../commands/forget-workspace-command.js';
import { activateExtension, type Harness } from '../test-support/extension-harness.js';
import { episodesProvider } from '../test-support/episodes-provider.js';
import { REMEMBER_TOOL, SEARCH_TOOL } from '../tools/memory-tools.js';
import { PARTICIPANT_ID } from '../chat/memory-participant.js';
import { answerMessages, chatRegistrations, ChatResponseStreamDouble, createChatContext, createChatRequest, FakeLanguageModel, noCancellation } from '../test-support/vscode-double.js';

async function tierTexts(harness: Harness): Promise<string[]> {
  const tier = await harness.container.get<LocalTier>(LocalTier).read();
  return (tier?.promoted ?? []).map((promotion) => promotion.text);
}

describe('the local tier follows the extension', () => {
  it('records a promotion and an approved pending memory, and drops them when the workspace is forgotten', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We use zod.' });
    expect(await tierTexts(harness)).toEqual(['We use zod.']);

    const tool = chatRegistrations().tools.get(REMEMBER_TOOL);
    const input = { kind: 'preference', scope: 'workspace', content: 'Answer in British English.' };
    await tool?.invoke({ input, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<unknown>, noCancellation());
    const roots = (await episodesProvider().getChildren()) ?? [];
    const pendingRoot = roots.find((node) => node.type === 'pendingRoot');
    const [pending] = pendingRoot === undefined ? [] : ((await episodesProvider().getChildren(pendingRoot)) ?? []);
    expect(await harness.command<{ status: string }>('graphitiMemory.pending.approve', pending)).toMatchObject({ status: 'sent' });
    expect((await tierTexts(harness)).sort()).toEqual(['Answer in British English.', 'We use zod.']);

    answerMessages(FORGET);
    expect(await harness.command<{ ok: boolean }>('graphitiMemory.forgetWorkspace')).toMatchObject({ ok: true });
    expect(await tierTexts(harness)).toEqual([]);
  });
});

describe('@memory and the search tool answer from the local tier when Graphiti does not', () => {
  it('puts the cached memory into the prompt and says it is cached, with its age', async () => {
    const harness = await activateExtension({
      settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.recall.timeoutMs': 300 },
      consented: true,
      // Every search fails: Graphiti does not answer recall.
      emulator: { faults: { search: { errorRate: 1 } } },
    });
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'Releases are cut from the main branch only.' });

    const participant = chatRegistrations().participants.get(PARTICIPANT_ID);
    const stream = new ChatResponseStreamDouble();
    const model = new FakeLanguageModel({ reply: ['From main.'] });
    await participant?.requestHandler(createChatRequest({ prompt: 'Which branch are releases cut from?', model }), createChatContext([]), stream.asStream(), noCancellation());
    expect(model.lastPrompt()).toContain('Releases are cut from the main branch only.');
    expect(stream.text()).toMatch(/Memory from the local cache \(cached .+ ago — Graphiti did not answer\): 1 fact used/);

    const recallStream = new ChatResponseStreamDouble();
    await participant?.requestHandler(createChatRequest({ prompt: 'Which branch are releases cut from?', model, command: 'recall' }), createChatContext([]), recallStream.asStream(), noCancellation());
    expect(recallStream.text()).toMatch(/From the local memory cache \(cached .+ ago — Graphiti did not answer\), 1 fact:/);

    const tool = chatRegistrations().tools.get(SEARCH_TOOL);
    const result = await tool?.invoke({ input: { query: 'Which branch are releases cut from?' }, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<unknown>, noCancellation());
    expect(JSON.stringify(result)).toContain('Facts from the local memory cache (cached');
    expect(JSON.stringify(result)).toContain('Releases are cut from the main branch only.');
  });
});
