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
import { REMEMBER_TOOL } from '../tools/memory-tools.js';
import { answerMessages, chatRegistrations, noCancellation } from '../test-support/vscode-double.js';

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
