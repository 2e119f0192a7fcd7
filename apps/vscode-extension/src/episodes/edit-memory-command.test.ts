// Edit Memory… in the view (issue 32 item 3 from VS Code): the new version is stored, the old one
// is gone from Graphiti, the view shows the new text at once, and a conversation cannot be edited.
import { describe, expect, it } from 'vitest';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { episodesProvider } from '../test-support/episodes-provider.js';
import { answerInputBoxes, testHost } from '../test-support/vscode-double.js';
import { EDIT_COMMAND } from './edit-memory-command.js';
import type { EpisodeNode } from './episodes-view.js';

async function curated(): Promise<EpisodeNode[]> {
  const root = ((await episodesProvider().getChildren()) ?? []).find((node) => node.type === 'curatedRoot');
  return root === undefined ? [] : ((await episodesProvider().getChildren(root)) ?? []);
}

async function stored(harness: Harness, text: string): Promise<void> {
  await waitFor(() => harness.emulator.state.episodes().some((episode) => episode.content.includes(text)), 10_000, `"${text}" stored`);
  await harness.emulator.idle();
}

describe('Edit Memory…', () => {
  it('replaces a curated memory: the new text in Graphiti and the view, the old one gone', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We deploy with Heroku.' });
    await stored(harness, 'We deploy with Heroku.');
    const [memory] = (await curated()).filter((node) => node.type === 'episode');
    expect(memory).toBeDefined();

    answerInputBoxes('We deploy with Fly.io.');
    const result = await harness.command<{ ok: boolean; status: string; message: string }>(EDIT_COMMAND, memory);
    expect(result).toMatchObject({ ok: true, status: 'edited' });
    expect(result.message).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}|graphiti-memory\./);
    // The input box offered the memory's own words, never its stored markup.
    expect(testHost().shownInputBoxes.at(-1)?.options?.value).toBe('We deploy with Heroku.');
    await stored(harness, 'We deploy with Fly.io.');
    expect(harness.emulator.state.episodes().some((episode) => episode.content.includes('Heroku'))).toBe(false);
    const labels = await Promise.all((await curated()).map(async (node) => String((await episodesProvider().getTreeItem(node)).label)));
    expect(labels).toEqual(['We deploy with Fly.io.']);
  });

  it('edits only curated memories: a conversation says so and nothing changes', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    const node: EpisodeNode = { type: 'turn', scope: 'session', turn: { key: 'k', episodes: [], at: '' } };
    expect(await harness.command<{ ok: boolean; status: string }>(EDIT_COMMAND, node)).toMatchObject({ ok: false, status: 'not-a-memory' });
    expect(harness.dataRequests()).toEqual([]);
  });
});
