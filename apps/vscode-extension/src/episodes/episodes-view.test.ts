import { describe, expect, it } from 'vitest';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { episodesProvider } from '../test-support/episodes-provider.js';
import { answerMessages } from '../test-support/vscode-double.js';
import { DELETE } from './episodes-view.js';



describe('episodes view', () => {
  it('is empty while memory is off (the welcome view explains)', async () => {
    const harness = await activateExtension();
    expect(await episodesProvider().getChildren()).toEqual([]);
    expect(harness.emulator.requests).toEqual([]);
  });

  it('lists recent episodes per scope and deletes one after confirmation', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We use zod.' });
    await waitFor(() => harness!.emulator.state.episodes().length === 1, 5000, 'the episode stored');
    const scopes = (await episodesProvider().getChildren()) ?? [];
    expect(scopes.map((node) => (node.type === 'scope' ? node.scope : node.type))).toEqual(['workspace', 'user']);
    const episodes = (await episodesProvider().getChildren(scopes[0])) ?? [];
    expect(episodes).toHaveLength(1);
    const item = await episodesProvider().getTreeItem(episodes[0]!);
    expect(item.label).toBe('We use zod.');
    expect(item.contextValue).toBe('graphitiMemory.episode');
    answerMessages(DELETE);
    const result = await harness.command<{ ok: boolean }>('graphitiMemory.episodes.deleteEpisode', episodes[0]);
    expect(result.ok).toBe(true);
    expect(harness.emulator.state.episodes()).toEqual([]);
  });
});
