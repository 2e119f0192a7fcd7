// In VS Code: a recalled fact cites the episode the extension delivered and is marked when it names
// a workspace file that is gone; "Forget This Source" on that episode removes it with its facts.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RecallService } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { episodesProvider } from '../test-support/episodes-provider.js';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { answerMessages, chatRegistrations, ChatResponseStreamDouble, createChatContext, createChatRequest, FakeLanguageModel, noCancellation } from '../test-support/vscode-double.js';
import { PARTICIPANT_ID } from '../chat/memory-participant.js';
import { DELETE, type EpisodeNode } from './episodes-view.js';

async function ask(prompt: string, command?: string): Promise<string> {
  const participant = chatRegistrations().participants.get(PARTICIPANT_ID)!;
  const stream = new ChatResponseStreamDouble();
  await participant.requestHandler(
    createChatRequest({ prompt, model: new FakeLanguageModel({ reply: ['Noted.'] }), ...(command === undefined ? {} : { command }) }),
    createChatContext([]),
    stream.asStream(),
    noCancellation(),
  );
  return stream.text();
}

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

  it('forgets every copy of a captured turn (its session group and its workspace group): /recall then answers nothing from either, and the toast counts what was deleted', async () => {
    const on = { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.capture.granularity': 'turn' };
    const harness = await activateExtension({ settings: on, consented: true });
    await ask('We deploy the API with Fly.io.');
    const copies = () => harness.emulator.state.episodes().filter((episode) => episode.content.includes('Fly.io'));
    await waitFor(() => new Set(copies().map((episode) => episode.group_id)).size === 2, 5000, 'the turn in both groups');
    await harness.emulator.idle();
    expect(await ask('deploy API Fly.io', 'recall')).toContain('Fly.io');
    const facts = harness.emulator.state.facts().filter((fact) => fact.fact.includes('Fly.io')).length;
    expect(facts).toBeGreaterThan(0);

    const sessionCopy = copies().find((episode) => episode.group_id.startsWith('gm_session_'))!;
    answerMessages(DELETE);
    const node = { type: 'episode', scope: 'session', episode: sessionCopy } as unknown as EpisodeNode;
    const result = await harness.command<{ ok: boolean; message: string }>('graphitiMemory.episodes.forgetEpisode', node);
    expect(result.ok).toBe(true);
    expect(copies()).toEqual([]);
    expect(harness.emulator.state.facts().filter((fact) => fact.fact.includes('Fly.io'))).toEqual([]);
    expect(result.message).toBe(`Graphiti Memory: Forgot the source: 2 episodes deleted from 2 groups, with ${facts} facts only they supported.`);
    expect(await ask('deploy API Fly.io', 'recall')).toContain('Memory holds no facts about that yet.');
    await harness.dispose();
  });
});
