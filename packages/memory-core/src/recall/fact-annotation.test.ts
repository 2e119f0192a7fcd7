import { describe, expect, it } from 'vitest';
import type { RecalledFact } from '../ports.js';
import { InMemoryEpisodeSources } from '../sources/in-memory-episode-sources.js';
import { MAX_STALE_CHECKS } from '../stale/stale-paths.js';
import type { WorkspaceFiles } from '../stale/workspace-files.js';
import { annotateFacts } from './fact-annotation.js';

function recalled(uuid: string, text: string, episodes?: string[]): RecalledFact {
  return { uuid, name: 'RELATES_TO', fact: text, valid_at: null, invalid_at: null, expired_at: null, created_at: '2026-01-01T00:00:00Z', scope: 'workspace', rank: 0, ...(episodes === undefined ? {} : { episodes }) };
}

/** A workspace where only `present` exists; records what it was asked. */
class FakeWorkspaceFiles implements WorkspaceFiles {
  readonly asked: string[][] = [];
  constructor(private readonly present: readonly string[]) {}
  gone(paths: readonly string[]): Promise<readonly string[]> {
    this.asked.push([...paths]);
    return Promise.resolve(paths.filter((path) => !this.present.includes(path)));
  }
}

describe('annotateFacts', () => {
  it('cites known episodes, oldest first, and leaves unknown ones out', async () => {
    const sources = new InMemoryEpisodeSources();
    sources.record([
      { episode: 'e2', groupId: 'g', tool: 'Copilot', at: '2026-11-21T00:00:00Z' },
      { episode: 'e1', groupId: 'g', tool: 'Claude Code', session: 's1', title: 'Fix the build', at: '2026-11-20T00:00:00Z' },
    ]);
    const [cited, foreign, none] = await annotateFacts(
      [recalled('f1', 'Builds run on turbo', ['e2', 'elsewhere', 'e1']), recalled('f2', 'Deploys go to Fly', ['elsewhere']), recalled('f3', 'No episodes field')],
      { sources },
      'off',
    );
    expect(cited?.sources).toEqual([
      { tool: 'Claude Code', session: 's1', title: 'Fix the build', at: '2026-11-20T00:00:00Z', episode: 'e1' },
      { tool: 'Copilot', session: null, title: null, at: '2026-11-21T00:00:00Z', episode: 'e2' },
    ]);
    expect(foreign?.sources).toBeUndefined();
    expect(none?.sources).toBeUndefined();
  });

  it('marks a fact naming a gone path, and none naming an existing one', async () => {
    const files = new FakeWorkspaceFiles(['src/kept.ts']);
    const facts = await annotateFacts([recalled('a', 'The parser is in src/old.ts.'), recalled('b', 'The lexer is in src/kept.ts.')], { files }, 'mark');
    expect(facts.map((fact) => [fact.uuid, fact.stale])).toEqual([
      ['a', ['src/old.ts']],
      ['b', undefined],
    ]);
  });

  it('drops facts naming a gone path in drop mode, and checks nothing when off', async () => {
    const files = new FakeWorkspaceFiles([]);
    expect((await annotateFacts([recalled('a', 'See src/old.ts'), recalled('b', 'No path here')], { files }, 'drop')).map((fact) => fact.uuid)).toEqual(['b']);
    const off = new FakeWorkspaceFiles([]);
    expect((await annotateFacts([recalled('a', 'See src/old.ts')], { files: off }, 'off'))[0]?.stale).toBeUndefined();
    expect(off.asked).toEqual([]);
  });

  it('asks about at most MAX_STALE_CHECKS paths per recall', async () => {
    const files = new FakeWorkspaceFiles([]);
    const many = Array.from({ length: 50 }, (_, index) => recalled(`f${index}`, `Moved to lib/file${index}.ts`));
    await annotateFacts(many, { files }, 'mark');
    expect(files.asked).toHaveLength(1);
    expect(files.asked[0]).toHaveLength(MAX_STALE_CHECKS);
  });

  it('leaves the facts as they were when a port fails', async () => {
    const broken: WorkspaceFiles = { gone: () => Promise.reject(new Error('EACCES')) };
    const sources = { record: () => {}, find: () => Promise.reject(new Error('corrupt')), remove: () => Promise.resolve(), forgetGroups: () => Promise.resolve([]), flush: () => Promise.resolve() };
    const facts = await annotateFacts([recalled('a', 'See src/old.ts', ['e1'])], { files: broken, sources }, 'drop');
    expect(facts.map((fact) => [fact.uuid, fact.stale, fact.sources])).toEqual([['a', undefined, undefined]]);
  });
});
