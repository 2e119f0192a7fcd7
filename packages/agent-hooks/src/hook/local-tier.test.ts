// The local tier against the emulator over HTTP: what a refresh keeps (each fact with the scope of
// the group it came from, promoted episodes with theirs), what the brief and the cached recall
// render, and that a torn tier file reads as no tier.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { startEmulator } from '@graphiti-memory/graphiti-emulator';
import type { RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readTier, refreshTier, renderBrief, renderCachedRecall, writeTier } from './local-tier.js';
import { tierFile } from '@graphiti-memory/memory-node-storage';

const WORKSPACE = 'tier-workspace';
const USER = 'tier-user';
const NOW = new Date('2026-11-23T12:00:00Z');

describe('local tier', () => {
  let emulator: RunningEmulator;
  let client: GraphitiClient;
  let folder: string;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true, processingDelayMs: 1 });
    client = new GraphitiClient({ baseUrl: emulator.url, maxRetries: 0 });
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'local-tier-'));
    const say = (groupId: string, name: string, content: string) =>
      client.addMessages({ group_id: groupId, messages: [{ name, role: 'user', role_type: 'user', content, timestamp: '2026-11-20T10:00:00Z' }] });
    await say(WORKSPACE, 'w1', 'The project deploys with Fly.io.');
    await say(USER, 'u1', 'The project conventions follow the Google style guide.');
    await say(USER, 'u2', '<graphiti_episode kind="preference">Ada prefers tabs over spaces.</graphiti_episode>');
    await say(WORKSPACE, 'w2', '<graphiti_episode kind="decision">We release on Tuesdays.</graphiti_episode>');
    await vi.waitFor(async () => {
      const stored = (await client.getEpisodes(USER, { lastN: 10 })).length + (await client.getEpisodes(WORKSPACE, { lastN: 10 })).length;
      if (stored < 4) throw new Error(`${stored} of 4 episodes processed`);
    });
  });

  afterAll(async () => {
    await client.close();
    await emulator.close();
    await fs.rm(folder, { recursive: true, force: true });
  });

  it('keeps each fact with the scope of the group it came from, and promotions with theirs', async () => {
    const tier = await refreshTier(client, { workspace: WORKSPACE, user: USER }, undefined, () => NOW);
    const scopes = Object.fromEntries(tier.facts.map((fact) => [fact.fact, fact.scope]));
    expect(scopes).toMatchObject({ 'The project deploys with Fly.io': 'workspace', 'The project conventions follow the Google style guide': 'user' });
    expect(tier.promoted.map(({ kind, scope, text }) => ({ kind, scope, text }))).toEqual(
      expect.arrayContaining([
        { kind: 'decision', scope: 'workspace', text: 'We release on Tuesdays.' },
        { kind: 'preference', scope: 'user', text: 'Ada prefers tabs over spaces.' },
      ]),
    );
    const brief = renderBrief(tier, 1_000, NOW) ?? '';
    expect(brief).toContain('- [user] The project conventions follow the Google style guide');
    expect(brief).toContain('- [workspace] The project deploys with Fly.io');
    expect(brief).toContain('[user preference] Ada prefers tabs over spaces.');
  });

  it('falls back to cached facts that share a word with the query, saying they are cached', async () => {
    const tier = await refreshTier(client, { workspace: WORKSPACE }, undefined, () => NOW);
    expect(tier.facts.every((fact) => fact.scope === 'workspace')).toBe(true);
    const cached = renderCachedRecall(tier, 'how does the project deploys go?', 5, 1_000, NOW) ?? '';
    expect(cached).toContain('from the local memory cache');
    expect(cached).toContain('Fly.io');
    expect(renderCachedRecall(tier, 'unrelated words entirely', 5, 1_000, NOW)).toBeUndefined();
  });

  it('writes a tier whole and reads a torn or foreign file as no tier', async () => {
    const file = tierFile(folder, emulator.url, WORKSPACE);
    const tier = await refreshTier(client, { workspace: WORKSPACE }, undefined, () => NOW);
    await writeTier(file, tier);
    expect(await readTier(file)).toEqual(tier);
    await fs.writeFile(file, JSON.stringify(tier).slice(0, 40));
    expect(await readTier(file)).toBeUndefined();
    await fs.writeFile(file, JSON.stringify({ ...tier, version: 2 }));
    expect(await readTier(file)).toBeUndefined();
  });
});
