// Issue 32 item 3: editing a curated memory supersedes it. The new version is promoted through the
// promotion path (secret guard, scopes, local tier), the old episode is deleted with the facts only
// it supports, and recall and the brief show only the new one. On each face of Graphiti.
import { createGraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import type { Container } from 'inversify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeWithEmulator } from '../../test-support/emulator-container.js';
import { Ingestion } from '../ingestion/ingestion.js';
import { MemoryPromotion } from '../promotion/memory-promotion.js';
import { RecallService } from '../recall/index.js';
import { LocalTier } from '../tier/local-tier.js';
import { InMemoryLocalTierStore, LocalTierStore } from '../tier/local-tier-store.js';
import { editedMemory, MemoryEditing } from './memory-editing.js';

let emulator: RunningEmulator;
let client: GraphitiApi;

function compose(): Promise<Container> {
  return composeWithEmulator({
    emulator,
    client,
    settings: { scopes: 'both', recall: { enabled: true, scopes: 'all', timeoutMs: 5000 } },
    bind: (container) => container.bind(LocalTierStore).toConstantValue(new InMemoryLocalTierStore()),
  });
}

async function promoted(container: Container, text: string): Promise<string> {
  const ingestion = container.get<Ingestion>(Ingestion);
  const outcome = await container.get<MemoryPromotion>(MemoryPromotion).promote({ kind: 'decision', scope: 'workspace', text });
  expect(outcome.ok).toBe(true);
  expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
  const episode = emulator.state.episodes().find((candidate) => candidate.content.includes(text));
  expect(episode).toBeDefined();
  return episode!.uuid;
}

describe.each(['rest', 'mcp'] as const)('editing a curated memory (%s face)', (face) => {
  beforeEach(async () => {
    emulator = await startEmulator({ processingDelayMs: 2, face });
    client = createGraphitiClient({ baseUrl: emulator.url, kind: face });
  });
  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  it('promotes the new version and deletes the old episode with its facts; recall and the brief show only the new one', async () => {
    const container = await compose();
    container.get<Ingestion>(Ingestion).start();
    const old = await promoted(container, 'We deploy the billing API with Heroku.');
    const recall = container.get<RecallService>(RecallService);
    expect((await recall.recall('How do we deploy the billing API?')).facts.map((fact) => fact.fact).join('\n')).toContain('Heroku');

    const outcome = await container.get<MemoryEditing>(MemoryEditing).edit({ episode: old, text: 'We deploy the billing API with Fly.io.' });

    expect(outcome.status).toBe('edited');
    if (outcome.status !== 'edited') return;
    expect(outcome.previous).toMatchObject({ kind: 'decision', scope: 'workspace', text: 'We deploy the billing API with Heroku.', episode: old });
    expect(outcome).toMatchObject({ kind: 'decision', scope: 'workspace' });
    expect(outcome.forgotten.episodes.map((copy) => copy.episode)).toEqual([old]);
    // The old one is gone at once: episode, facts, tier — before the new one is even stored.
    expect(emulator.state.episodes().some((episode) => episode.uuid === old)).toBe(false);
    expect(emulator.state.facts().filter((fact) => fact.fact.includes('Heroku'))).toEqual([]);
    const brief = await container.get<LocalTier>(LocalTier).brief();
    expect(brief?.promoted.map((promotion) => promotion.text)).toEqual(['We deploy the billing API with Fly.io.']);

    expect((await container.get<Ingestion>(Ingestion).waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    // Graphiti sees a new episode in the same group.
    const fresh = emulator.state.episodes().find((episode) => episode.content.includes('Fly.io'));
    expect(fresh?.group_id).toBe(outcome.previous.groupId);
    expect(fresh?.name).toBe(outcome.episodeName);
    const facts = (await recall.recall('How do we deploy the billing API?')).facts.map((fact) => fact.fact).join('\n');
    expect(facts).toContain('Fly.io');
    expect(facts).not.toContain('Heroku');
  });

  it('changes nothing when the new text holds a secret, when it is unchanged, or when the episode is no curated memory', async () => {
    const container = await compose();
    const ingestion = container.get<Ingestion>(Ingestion);
    ingestion.start();
    const old = await promoted(container, 'Releases ship on Tuesdays.');
    const editing = container.get<MemoryEditing>(MemoryEditing);

    const secret = await editing.edit({ episode: old, text: 'Releases use the token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 to publish.' });
    expect(secret).toMatchObject({ status: 'refused', reason: 'secret' });
    expect(await editing.edit({ episode: old, text: '  Releases ship on Tuesdays. ' })).toMatchObject({ status: 'unchanged' });
    expect(emulator.state.episodes().some((episode) => episode.uuid === old)).toBe(true);
    expect(emulator.state.episodes().filter((episode) => episode.content.includes('ghp_'))).toEqual([]);

    expect(await editing.edit({ episode: 'no-such-episode', text: 'Anything.' })).toMatchObject({ status: 'not-found', episode: 'no-such-episode' });
    // A captured chat turn (not a curated memory) in the workspace group.
    const workspace = emulator.state.episodes().find((episode) => episode.uuid === old)!.group_id;
    await client.addMessages({ group_id: workspace, messages: [{ content: 'We talked about lunch.', role_type: 'user', role: 'alice', name: 'graphiti-memory.turn.t1.user' }] });
    await expect.poll(() => emulator.state.episodes().find((episode) => episode.content.includes('lunch')), { timeout: 10_000 }).toBeDefined();
    const turn = emulator.state.episodes().find((episode) => episode.content.includes('lunch'))!;
    expect(await editing.edit({ episode: turn.uuid, text: 'Anything.' })).toMatchObject({ status: 'not-curated', groupId: workspace });
    expect(emulator.state.episodes().some((episode) => episode.uuid === turn.uuid)).toBe(true);
  });

  it('a directive line changes the kind, and the scope when it names one', async () => {
    const container = await compose();
    container.get<Ingestion>(Ingestion).start();
    const old = await promoted(container, 'Answers are short.');
    const outcome = await container.get<MemoryEditing>(MemoryEditing).edit({ episode: old, text: 'preference (user): Answers are short and in English.' });
    expect(outcome).toMatchObject({ status: 'edited', kind: 'preference', scope: 'user' });
    expect((await container.get<Ingestion>(Ingestion).waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    const fresh = emulator.state.episodes().find((episode) => episode.content.includes('in English'));
    expect(fresh?.content).toContain('kind="preference" scope="user"');
    expect(fresh?.content).not.toContain('preference (user):');
  });
});

describe('editedMemory', () => {
  it('keeps kind and scope for plain text and reads them from a single directive line', () => {
    expect(editedMemory({ kind: 'decision', scope: 'team' }, '  Use zod.  ')).toEqual({ kind: 'decision', scope: 'team', text: 'Use zod.' });
    expect(editedMemory({ kind: 'decision', scope: 'team' }, 'procedure: run pnpm test')).toEqual({ kind: 'procedure', scope: 'team', text: 'run pnpm test' });
    expect(editedMemory({ kind: 'decision', scope: 'workspace' }, 'decision (user): a')).toEqual({ kind: 'decision', scope: 'user', text: 'a' });
    // Two lines are text, even when one of them reads like a directive.
    expect(editedMemory({ kind: 'decision', scope: 'workspace' }, 'Line one.\npreference: x')).toEqual({ kind: 'decision', scope: 'workspace', text: 'Line one.\npreference: x' });
  });
});
