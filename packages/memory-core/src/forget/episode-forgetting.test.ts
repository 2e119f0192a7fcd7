import type { Episode, FactResult } from '@graphiti-memory/graphiti-client';
import { describe, expect, it } from 'vitest';
import { fact } from '../../test-support/fake-graphiti-api.js';
import { InMemoryEpisodeSources } from '../sources/in-memory-episode-sources.js';
import { forgetEpisode, type EpisodeForgetApi } from './episode-forgetting.js';

/** A REST face whose episode `e1` produced three facts: one only it supports, one shared, one an older server does not attribute. */
function restApi(kind: 'rest' | 'mcp' = 'rest') {
  const calls: string[] = [];
  const facts = new Map<string, FactResult>([
    ['only', fact({ uuid: 'only', fact: 'A', episodes: ['e1'] })],
    ['shared', fact({ uuid: 'shared', fact: 'B', episodes: ['e1', 'e2'] })],
    ['unattributed', fact({ uuid: 'unattributed', fact: 'C' })],
  ]);
  const episode = { uuid: 'e1', name: 'n', group_id: 'g1', entity_edges: ['only', 'shared', 'unattributed', 'deleted-meanwhile'] } as unknown as Episode;
  const api: EpisodeForgetApi = {
    serverFace: () => Promise.resolve({ kind }),
    getEpisodes: (groupId) => {
      calls.push(`getEpisodes ${groupId}`);
      return Promise.resolve([episode]);
    },
    getEntityEdge: (uuid) => {
      const found = facts.get(uuid);
      return found === undefined ? Promise.reject(Object.assign(new Error('not found'), { status: 404 })) : Promise.resolve(found);
    },
    deleteEntityEdge: (uuid) => {
      calls.push(`deleteEntityEdge ${uuid}`);
      return Promise.resolve({ message: 'ok', success: true });
    },
    deleteEpisode: (uuid) => {
      calls.push(`deleteEpisode ${uuid}`);
      return Promise.resolve({ message: 'ok', success: true });
    },
  };
  return { api, calls };
}

describe('forgetEpisode', () => {
  it('on REST deletes the facts only the episode supports, keeps shared and unattributed ones, then the episode', async () => {
    const { api, calls } = restApi();
    const sources = new InMemoryEpisodeSources();
    sources.record([{ episode: 'e1', groupId: 'g1', tool: 'Copilot', at: '2026-11-20T00:00:00Z' }]);
    const result = await forgetEpisode(api, 'e1', { sources });
    expect(result).toEqual({ episode: 'e1', face: 'rest', deletedFacts: ['only'], keptFacts: 1, unknownFacts: 1 });
    expect(calls).toEqual(['getEpisodes g1', 'deleteEntityEdge only', 'deleteEpisode e1']);
    expect((await sources.find(['e1'])).size).toBe(0);
  });

  it('on MCP only deletes the episode (delete_episode removes its facts itself)', async () => {
    const { api, calls } = restApi('mcp');
    expect(await forgetEpisode(api, 'e1')).toEqual({ episode: 'e1', face: 'mcp', deletedFacts: [], keptFacts: 0, unknownFacts: 0 });
    expect(calls).toEqual(['deleteEpisode e1']);
  });

  it('on REST refuses an episode whose group is unknown here, saying to pass the group', async () => {
    const { api, calls } = restApi();
    await expect(forgetEpisode(api, 'e9')).rejects.toThrow(/episode e9 .*--group GROUP_ID/);
    expect(calls).toEqual([]);
    expect((await forgetEpisode(api, 'e1', { groupId: 'g1' })).deletedFacts).toEqual(['only']);
  });
});
