// Cited facts end to end, on each face of Graphiti (the emulator's REST service and MCP server): a
// captured turn's messages carry their source to delivery confirmation, which records each episode's
// uuid; recall maps `FactResult.episodes` through that record; forgetting one source deletes the
// episode and the facts only it supports.
import { createGraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import type { Container } from 'inversify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeWithEmulator } from '../../test-support/emulator-container.js';
import { InMemoryKeyValueStore } from '../../test-support/fakes.js';
import { USER_KEY_STORAGE_KEY } from '../scopes/group-id-resolver.js';
import { forgetEpisode } from '../forget/episode-forgetting.js';
import { Ingestion } from '../ingestion/ingestion.js';
import type { ChatTurn } from '../ports.js';
import { RecallService } from '../recall/index.js';
import { InMemoryEpisodeSources } from './in-memory-episode-sources.js';

let emulator: RunningEmulator;
let client: GraphitiApi;

function compose(sources: InMemoryEpisodeSources): Promise<Container> {
  return composeWithEmulator({
    emulator,
    client,
    settings: { scopes: 'workspace', recall: { enabled: true, scopes: 'workspace', timeoutMs: 5000 } },
    // One person: the workspace group is theirs (issue 21), on this machine and on another with the same user key.
    globalStore: new InMemoryKeyValueStore({ [USER_KEY_STORAGE_KEY]: 'alice-key-0001' }),
    episodeSources: sources,
  });
}

const turn: ChatTurn = {
  id: 'turn-1',
  sessionId: 'chat-1',
  participant: 'claude-code',
  user: { text: 'We deploy the billing API with Fly.io.\nAnd more detail here.', timestamp: '2026-11-20T10:00:00Z' },
  assistant: { text: 'Understood.', timestamp: '2026-11-20T10:00:02Z' },
};

describe.each(['rest', 'mcp'] as const)('cited facts (%s face)', (face) => {
  beforeEach(async () => {
    emulator = await startEmulator({ processingDelayMs: 2, face });
    client = createGraphitiClient({ baseUrl: emulator.url, kind: face });
  });
  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  it('cites the tool, session, title and day of the episode a fact came from; forgetting it removes the episode and its facts', async () => {
    const sources = new InMemoryEpisodeSources();
    const container = await compose(sources);
    const ingestion = container.get<Ingestion>(Ingestion);
    ingestion.start();
    ingestion.enqueue(turn);
    // Captured as a session digest (the default): the digest episode carries the turn's source.
    ingestion.endSession(turn.sessionId);
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    const userEpisode = emulator.state.episodes().find((episode) => episode.name.startsWith('graphiti-memory.digest.'));
    expect(userEpisode).toBeDefined();

    const recall = container.get<RecallService>(RecallService);
    const recalled = await recall.recall('How do we deploy the billing API?');
    const cited = recalled.facts.find((fact) => fact.fact.includes('Fly.io'));
    expect(cited?.episodes).toContain(userEpisode?.uuid);
    expect(cited?.sources).toEqual([
      {
        tool: 'Claude Code',
        session: 'chat-1',
        title: 'We deploy the billing API with Fly.io.',
        // The digest is dated by its last message (the reply).
        at: '2026-11-20T10:00:02.000Z',
        episode: userEpisode?.uuid,
      },
    ]);

    // Another machine of the same person (no record of these episodes) gets no citation: never an invented one.
    const elsewhere = await compose(new InMemoryEpisodeSources());
    const unknown = await elsewhere.get<RecallService>(RecallService).recall('How do we deploy the billing API?');
    expect(unknown.facts.length).toBeGreaterThan(0);
    expect(unknown.facts.every((fact) => fact.sources === undefined)).toBe(true);

    const forgotten = await forgetEpisode(client, userEpisode?.uuid ?? '', { sources });
    expect(forgotten.face).toBe(face);
    if (face === 'rest') expect(forgotten.deletedFacts).toContain(cited?.uuid);
    expect(emulator.state.episodes().map((episode) => episode.uuid)).not.toContain(userEpisode?.uuid);
    expect(emulator.state.facts().filter((fact) => fact.episodes.includes(userEpisode?.uuid ?? ''))).toEqual([]);
    expect((await sources.find([userEpisode?.uuid ?? ''])).size).toBe(0);
    const after = await recall.recall('How do we deploy the billing API?');
    expect(after.facts.map((fact) => fact.fact).join('\n')).not.toContain('Fly.io');
    await ingestion.dispose();
    await elsewhere.get<Ingestion>(Ingestion).dispose();
  });
});
