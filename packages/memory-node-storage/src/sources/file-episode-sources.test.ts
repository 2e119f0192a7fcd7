import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { EpisodeSource } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { FileEpisodeSources } from './file-episode-sources.js';

const source = (episode: string, fields: Partial<EpisodeSource> = {}): EpisodeSource => ({ episode, groupId: 'gm_workspace_a', tool: 'Claude Code', at: '2026-11-20T10:00:00.000Z', ...fields });

describe('FileEpisodeSources', () => {
  it('keeps what it records across processes, in a private file, and forgets removed episodes', async () => {
    const filePath = path.join(await temporaryDirectory(), 'endpoint', 'episode-sources.json');
    const writer = new FileEpisodeSources({ filePath });
    writer.record([source('e1', { session: 's1', title: 'Fix the build' }), source('e2', { tool: 'Copilot' })]);
    await writer.flush();
    const reader = new FileEpisodeSources({ filePath });
    expect(await reader.find(['e1', 'e2', 'elsewhere'])).toEqual(
      new Map([
        ['e1', source('e1', { session: 's1', title: 'Fix the build' })],
        ['e2', source('e2', { tool: 'Copilot' })],
      ]),
    );
    if (process.platform !== 'win32') expect((await fs.stat(filePath)).mode & 0o777).toBe(0o600);
    // A later write by another process is seen by a reader that already read the file.
    writer.record([source('e3')]);
    await writer.flush();
    expect((await reader.find(['e3'])).has('e3')).toBe(true);
    await reader.remove(['e1']);
    expect((await writer.find(['e1', 'e2'])).size).toBe(1);
  });

  it('forgets the episodes of forgotten groups and sessions (their first prompt line with them), keeping their content keys for the forget', async () => {
    const filePath = path.join(await temporaryDirectory(), 'endpoint', 'episode-sources.json');
    const sources = new FileEpisodeSources({ filePath });
    const contents = ['0123456789abcdef0123456789abcdef'];
    sources.record([
      source('e1', { session: 's1', title: 'Deploy the billing API', groupId: 'gm_session_s1', contents }),
      source('e2', { session: 's1', title: 'Deploy the billing API', contents }),
      source('e3', { session: 's2', title: 'Other chat' }),
    ]);
    await sources.flush();
    const removed = await sources.forgetGroups(['gm_session_s1'], ['s1']);
    expect(removed.map((entry) => [entry.episode, entry.contents])).toEqual([
      ['e1', contents],
      ['e2', contents],
    ]);
    const file = await fs.readFile(filePath, 'utf8');
    expect(file).not.toContain('Deploy the billing API');
    expect(file).toContain('Other chat');
  });

  it('keeps only the newest maxEpisodes, and drops malformed entries of the file', async () => {
    const filePath = path.join(await temporaryDirectory(), 'episode-sources.json');
    await fs.writeFile(filePath, JSON.stringify({ version: 1, episodes: [{ episode: 'bad' }, source('old'), { ...source('bad-date'), at: 'yesterday' }] }));
    const sources = new FileEpisodeSources({ filePath, maxEpisodes: 3 });
    expect([...(await sources.find(['bad', 'old', 'bad-date'])).keys()]).toEqual(['old']);
    for (let index = 0; index < 5; index++) sources.record([source(`e${index}`)]);
    await sources.flush();
    const kept = JSON.parse(await fs.readFile(filePath, 'utf8')) as { episodes: EpisodeSource[] };
    expect(kept.episodes.map((item) => item.episode)).toEqual(['e2', 'e3', 'e4']);
  });
});
