// In VS Code: a recalled fact cites the episode the extension delivered and is marked when it names
// a workspace file that is gone; "Forget This Source" on that episode removes it with its facts.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RecallService } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { episodesProvider } from '../test-support/episodes-provider.js';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { answerMessages } from '../test-support/vscode-double.js';
import { DELETE } from './episodes-view.js';

describe('cited facts and Forget This Source', () => {
  it('cites and marks a recalled fact, and forgets its episode with the facts only it supports', async () => {
    const workspaceFolder = await fs.mkdtemp(path.join(os.tmpdir(), 'cite-workspace-'));
    await fs.mkdir(path.join(workspaceFolder, 'src'));
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true }, consented: true, workspaceFolder });
    try {
      await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'The parser lives in src/legacy.ts now.' });
      await waitFor(() => harness.emulator.state.facts().length > 0, 5000, 'the fact extracted');
      const episode = harness.emulator.state.episodes()[0];
      const recall = harness.container.get<RecallService>(RecallService);
      let fact: Awaited<ReturnType<RecallService['recall']>>['facts'][number] | undefined;
      await waitFor(async () => {
        fact = (await recall.recall('where does the parser live', { scopes: ['workspace'] })).facts[0];
        return fact?.sources !== undefined;
      }, 5000, 'the fact cited');
      expect(fact?.sources).toEqual([{ tool: 'VS Code chat', session: null, title: null, at: expect.any(String) as unknown, episode: episode?.uuid }]);
      expect(fact?.stale).toEqual(['src/legacy.ts']);

      const scopes = (await episodesProvider().getChildren()) ?? [];
      const episodes = (await episodesProvider().getChildren(scopes[0])) ?? [];
      answerMessages(DELETE);
      const result = await harness.command<{ ok: boolean }>('graphitiMemory.episodes.forgetEpisode', episodes[0]);
      expect(result.ok).toBe(true);
      expect(harness.emulator.state.episodes()).toEqual([]);
      expect(harness.emulator.state.facts()).toEqual([]);
    } finally {
      await harness.dispose();
      await fs.rm(workspaceFolder, { recursive: true, force: true });
    }
  });
});
