// Recall with citations and the stale check bound: applied to what the searches returned, within the
// recall deadline (a port that does not answer in time leaves the facts as they were).
import { describe, expect, it } from 'vitest';
import { fact, FakeGraphitiApi } from '../../test-support/fake-graphiti-api.js';
import { FakeClock, flushMicrotasks } from '../../test-support/fakes.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { InMemoryEpisodeSources } from '../sources/in-memory-episode-sources.js';
import type { WorkspaceFiles } from '../stale/workspace-files.js';
import { DefaultRecallService } from './recall-service.js';

function recallWith(files: WorkspaceFiles | undefined, stale: 'mark' | 'drop' | 'off', sources = new InMemoryEpisodeSources()) {
  const api = new FakeGraphitiApi();
  const clock = new FakeClock();
  const services = createPolicyServices({ api, clock, settings: { enabled: true, endpoint: 'http://localhost:8000', recall: { enabled: true, scopes: 'workspace', timeoutMs: 500, stale } } });
  api.searchHandler = async () => ({
    facts: [fact({ uuid: 'gone', fact: 'The parser is in src/old.ts', episodes: ['e1'] }), fact({ uuid: 'kept', fact: 'Builds use turbo' })],
  });
  const { gate, configuration, groups, connection, telemetry, secretGuard } = services;
  return { clock, recall: new DefaultRecallService(gate, configuration, groups, connection, clock, telemetry, secretGuard, sources, files) };
}

describe('DefaultRecallService with sources and the stale check', () => {
  it('cites and marks by recall.stale, and drops in drop mode', async () => {
    const sources = new InMemoryEpisodeSources();
    sources.record([{ episode: 'e1', groupId: 'g', tool: 'Claude Code', at: '2026-11-20T10:00:00Z' }]);
    const files: WorkspaceFiles = { gone: (paths) => Promise.resolve(paths) };
    const marked = await recallWith(files, 'mark', sources).recall.recall('where is the parser');
    expect(marked.facts.map((item) => [item.uuid, item.stale, item.sources?.map((source) => source.tool)])).toEqual([
      ['gone', ['src/old.ts'], ['Claude Code']],
      ['kept', undefined, undefined],
    ]);
    const dropped = await recallWith(files, 'drop').recall.recall('where is the parser');
    expect(dropped.facts.map((item) => item.uuid)).toEqual(['kept']);
  });

  it('returns the facts unmarked when the check does not answer within the deadline', async () => {
    const never: WorkspaceFiles = { gone: () => new Promise(() => {}) };
    const { clock, recall } = recallWith(never, 'drop');
    const pending = recall.recall('where is the parser');
    for (let step = 0; step < 20 && clock.pendingSleeps() === 0; step++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await flushMicrotasks();
    }
    await clock.advance(500);
    const result = await pending;
    expect(result.facts.map((item) => [item.uuid, item.stale])).toEqual([
      ['gone', undefined],
      ['kept', undefined],
    ]);
  });
});
