import { describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { chatRegistrations, LanguageModelTextPart, MarkdownString, noCancellation } from '../test-support/vscode-double.js';
import { REMEMBER_TOOL, SEARCH_TOOL } from './memory-tools.js';


const ON = { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.autoPromote.review': false };

function tool(name: string): vscode.LanguageModelTool<unknown> {
  const registered = chatRegistrations().tools.get(name);
  if (!registered) throw new Error(`${name} is not registered`);
  return registered;
}

async function invoke(name: string, input: unknown): Promise<string> {
  const result = await tool(name).invoke({ input, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<unknown>, noCancellation());
  return (result?.content ?? []).map((part) => (part instanceof LanguageModelTextPart ? part.value : '')).join('');
}

describe('language-model tools', () => {
  it('explain, without throwing or sending, that memory is off', async () => {
    const harness = await activateExtension();
    expect(await invoke(SEARCH_TOOL, { query: 'deploy' })).toContain('not available');
    expect(await invoke(REMEMBER_TOOL, { kind: 'decision', scope: 'workspace', content: 'We use zod.' })).toContain('Nothing was stored');
    expect(harness.emulator.requests).toEqual([]);
  });

  it('remember (review off) asks for confirmation showing the episode, then queues it', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    const input = { kind: 'preference', scope: 'user', content: 'The user prefers pnpm.' };
    const prepared = (await tool(REMEMBER_TOOL).prepareInvocation?.({ input } as vscode.LanguageModelToolInvocationPrepareOptions<unknown>, noCancellation())) as vscode.PreparedToolInvocation;
    const message = prepared.confirmationMessages?.message;
    expect(message instanceof MarkdownString ? message.value : message).toContain('<graphiti_episode kind="preference" scope="user">\nThe user prefers pnpm.\n</graphiti_episode>');
    expect(await invoke(REMEMBER_TOOL, input)).toContain('Stored the preference in user memory');
    await waitFor(() => harness!.emulator.requests.some((request) => request.path === '/messages'), 5000, 'the memory to be sent');
  });

  it('search returns facts as text', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    await invoke(REMEMBER_TOOL, { kind: 'decision', scope: 'workspace', content: 'The team deploys the API with Fly.io.' });
    await waitFor(() => harness!.emulator.state.facts().length > 0, 5000, 'facts');
    await harness.emulator.idle();
    const text = await invoke(SEARCH_TOOL, { query: 'deploy API Fly.io', scopes: ['workspace'], maxFacts: 3 });
    expect(text).toMatch(/- \[workspace\] .*Fly\.io/);
  });
});

describe('search with recall turned off', () => {
  it('says recall is off instead of claiming memory is empty, and sends no query', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    expect(await invoke(SEARCH_TOOL, { query: 'deploy' })).toContain('graphitiMemory.recall.enabled');
    expect(harness.emulator.requests.filter((request) => request.path === '/search')).toEqual([]);
  });
});

describe('search with recall on but its queries not agreed to', () => {
  it('says so and sends no query', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    await harness.context.workspaceState.update('graphitiMemory.consent', { endpoint: harness.emulator.url, grantedAt: new Date().toISOString(), categories: ['memoryChat'] });
    expect(await invoke(SEARCH_TOOL, { query: 'deploy' })).toContain('not agreed to send search queries');
    expect(harness.emulator.requests.filter((request) => request.path === '/search')).toEqual([]);
  });
});
