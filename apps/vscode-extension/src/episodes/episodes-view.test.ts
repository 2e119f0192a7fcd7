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
    const roots = (await episodesProvider().getChildren()) ?? [];
    // Recall is off (the default): the first row says so.
    expect(roots.map((node) => (node.type === 'scope' ? node.scope : node.type))).toEqual(['recallOff', 'workspace', 'user']);
    const scopes = roots.filter((node) => node.type === 'scope');
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

  it('says recall is off in its first row, which turns it on; the row leaves once recall is on', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    const first = (await episodesProvider().getChildren())?.[0];
    expect(first?.type).toBe('recallOff');
    const item = await episodesProvider().getTreeItem(first!);
    expect(item.label).toBe('Recall is off: answers do not use memory');
    expect(item.command?.command).toBe('graphitiMemory.enableRecall');
    let changed = 0;
    episodesProvider().onDidChangeTreeData?.(() => (changed += 1));
    answerMessages(undefined, undefined);
    await harness.command(item.command!.command);
    // The view is told at once (no manual refresh), and the row is gone.
    expect(changed).toBeGreaterThan(0);
    expect((await episodesProvider().getChildren())?.map((node) => node.type)).not.toContain('recallOff');
  });
});
