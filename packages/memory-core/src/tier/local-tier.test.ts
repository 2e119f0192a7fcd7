// memory-core's LocalTier over an in-memory store: the "where we left off" bridge a delivered
// session digest feeds (another session's brief only, once, gone with a forget of its source), the
// scopes `recall.scopes` allows (in what the brief shows and what its refresh reads), and a forget
// of one source taking what came from it out of the tier.
import { describe, expect, it } from 'vitest';
import { FakeGraphitiApi } from '../../test-support/fake-graphiti-api.js';
import { FakeClock, RecordingLogger } from '../../test-support/fakes.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import type { OutboxEntry } from '../ports.js';
import { saidTextHash, NOTHING_SAID } from '../recall/said-once.js';
import { DefaultLocalTier } from './local-tier.js';
import { InMemoryLocalTierStore } from './local-tier-store.js';

const ENDPOINT = 'http://localhost:8000';
const NOW = new Date('2026-11-27T18:00:00Z');

function tierWith(settings: object = { enabled: true, endpoint: ENDPOINT, recall: { enabled: true } }) {
  const api = new FakeGraphitiApi();
  const services = createPolicyServices({ api, clock: new FakeClock(NOW), workspace: { accountId: 'alice' }, settings });
  const store = new InMemoryLocalTierStore();
  const tier = new DefaultLocalTier(services.configuration, services.groups, services.connection, services.secretGuard, services.clock, new RecordingLogger(), store);
  return { api, services, store, tier };
}

function entry(groupId: string, name: string, timestamp = NOW.toISOString()): OutboxEntry {
  return { groupId, message: { content: '…', role_type: 'system', role: null, name, timestamp } };
}

describe('where we left off', () => {
  it("tells another session's brief the last finished session and what it decided, once, and forgets it with its source", async () => {
    const { services, tier } = tierWith();
    const workspace = (await services.groups.resolve('workspace')) ?? '';
    await tier.recordPromotion({ kind: 'decision', scope: 'workspace', text: 'Keep the login redirect on the server.' }, entry(workspace, 'graphiti-memory.promotion.1', '2026-11-27T16:30:00Z'));
    await tier.recordDigests([{ tool: 'Claude Code', session: 'old-session', title: 'fix the login redirect', episode: 'digest-1', groupId: workspace, at: '2026-11-27T17:00:00Z' }]);

    const next = await tier.brief({ sessionId: 'new-session' });
    expect(next?.bridge?.session).toMatchObject({ session: 'old-session', tool: 'Claude Code', title: 'fix the login redirect', endedAt: '2026-11-27T17:00:00Z', episodes: ['digest-1'] });
    expect(next?.bridge?.decisions.map((decision) => decision.text)).toEqual(['Keep the login redirect on the server.']);
    // Not in the session itself, and not twice in one session.
    expect((await tier.brief({ sessionId: 'old-session' }))?.bridge).toBeUndefined();
    const said = { ...NOTHING_SAID, texts: [await saidTextHash(next?.bridge?.saidKey ?? '')] };
    expect((await tier.brief({ sessionId: 'new-session', said }))?.bridge).toBeUndefined();

    await tier.forgetEpisodes(['digest-1']);
    expect((await tier.brief({ sessionId: 'new-session' }))?.bridge).toBeUndefined();
  });

  it('joins a session group copy to the session the workspace copy made known, so forgetting the session group drops it', async () => {
    const { services, tier } = tierWith();
    const workspace = (await services.groups.resolve('workspace')) ?? '';
    const at = '2026-11-27T17:00:00Z';
    await tier.recordPromotion({ kind: 'decision', scope: 'workspace', text: 'Anything.' }, entry(workspace, 'graphiti-memory.promotion.2'));
    await tier.recordDigests([
      { tool: 'Copilot', session: 's1', episode: 'w-copy', groupId: workspace, at },
      { tool: 'Copilot', session: 's1', episode: 's-copy', groupId: 'gm_session_s1', at },
    ]);
    expect((await tier.brief({ sessionId: 'other' }))?.bridge?.session.groups).toEqual([workspace, 'gm_session_s1']);
    await tier.forgetGroups(['gm_session_s1']);
    expect((await tier.brief({ sessionId: 'other' }))?.bridge).toBeUndefined();
  });
});

describe('recall.scopes in the brief', () => {
  it('shows and reads the user scope only where recall.scopes allows it', async () => {
    for (const [scopes, shown] of [
      ['both', false],
      [['session', 'workspace'], false],
      ['all', true],
    ] as const) {
      const { api, services, tier } = tierWith({ enabled: true, endpoint: ENDPOINT, recall: { enabled: true, scopes } });
      const [workspace, user] = [(await services.groups.resolve('workspace')) ?? '', (await services.groups.resolve('user')) ?? ''];
      await tier.recordPromotion({ kind: 'decision', scope: 'workspace', text: 'We release on Tuesdays.' }, entry(workspace, 'graphiti-memory.promotion.w'));
      await tier.recordPromotion({ kind: 'preference', scope: 'user', text: 'Ada prefers tabs.' }, entry(user, 'graphiti-memory.promotion.u'));
      const brief = await tier.brief({ sessionId: 's1', refreshWithinMs: 1_000 });
      expect(brief?.promoted.map((promotion) => promotion.text).includes('Ada prefers tabs.'), JSON.stringify(scopes)).toBe(shown);
      const groupsRead = api.calls.filter((call) => call.method === 'search' || call.method === 'getEpisodes').map((call) => (call.method === 'search' ? (call.args[0] as { group_ids: string[] }).group_ids[0] : call.args[0]));
      expect(groupsRead.length).toBeGreaterThan(0);
      expect(groupsRead.includes(user), JSON.stringify(scopes)).toBe(shown);
    }
  });
});

describe('forgetting one source', () => {
  it('drops the promotion read back from that episode and the facts only it supports, keeps the rest', async () => {
    const { services, tier, store } = tierWith();
    const workspace = (await services.groups.resolve('workspace')) ?? '';
    await store.update({ endpoint: ENDPOINT, workspaceGroup: workspace }, () => ({
      version: 2,
      endpoint: ENDPOINT,
      workspaceGroup: workspace,
      updatedAt: NOW.toISOString(),
      refreshedAt: NOW.toISOString(),
      forgotten: {},
      promoted: [
        { kind: 'decision', scope: 'workspace', text: 'Deploys go out on Thursdays.', createdAt: NOW.toISOString(), groupId: workspace, episodeUuid: 'gone' },
        { kind: 'decision', scope: 'workspace', text: 'Releases are cut from main.', createdAt: NOW.toISOString(), groupId: workspace, episodeUuid: 'kept' },
      ],
      facts: [
        { uuid: 'f1', name: 'R', fact: 'Deploys happen on Thursdays', valid_at: null, invalid_at: null, expired_at: null, created_at: NOW.toISOString(), episodes: ['gone'], scope: 'workspace', rank: 0, groupId: workspace },
        { uuid: 'f2', name: 'R', fact: 'The team uses Fly.io', valid_at: null, invalid_at: null, expired_at: null, created_at: NOW.toISOString(), episodes: ['gone', 'chat-1'], scope: 'workspace', rank: 1, groupId: workspace },
      ],
    }));
    await tier.forgetEpisodes(['gone']);
    const brief = await tier.brief({ sessionId: 's1' });
    expect(brief?.promoted.map((promotion) => promotion.text)).toEqual(['Releases are cut from main.']);
    expect(brief?.facts.map((fact) => fact.fact)).toEqual(['The team uses Fly.io']);
    expect(await tier.cachedRecall('when do deploys go out on thursdays')).toBeUndefined();
  });
});
