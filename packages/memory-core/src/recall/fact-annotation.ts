// What recall adds to the facts Graphiti returned, locally and within the deadline: each fact's
// sources (its `episodes` mapped through the record of delivered episodes; unknown ones are left
// out, never guessed) and, by `recall.stale`, a mark on (or the removal of) facts naming a
// workspace path that is gone. Either part that fails or is late leaves the facts as they were.
import type { RecalledFact } from '../ports.js';
import { factSourceOf, type EpisodeSource, type EpisodeSources } from '../sources/episode-sources.js';
import { MAX_STALE_CHECKS, pathsNamedIn } from '../stale/stale-paths.js';
import type { StaleSetting, WorkspaceFiles } from '../stale/workspace-files.js';

/** Episode uuids looked up per recall (a fact lists a handful; 50 facts at most). */
const MAX_EPISODES_LOOKED_UP = 500;

export interface FactAnnotationPorts {
  readonly sources?: EpisodeSources | undefined;
  readonly files?: WorkspaceFiles | undefined;
}

/** The facts with `sources` and `stale` added; in `drop` mode without the stale ones. */
export async function annotateFacts(facts: readonly RecalledFact[], ports: FactAnnotationPorts, stale: StaleSetting): Promise<RecalledFact[]> {
  if (facts.length === 0) return [];
  const [sourced, gone] = await Promise.all([withSources(facts, ports.sources), gonePaths(facts, stale === 'off' ? undefined : ports.files)]);
  const annotated: RecalledFact[] = [];
  for (const fact of sourced) {
    const missing = pathsNamedIn(fact.fact).filter((path) => gone.has(path));
    if (missing.length === 0) annotated.push(fact);
    else if (stale === 'mark') annotated.push({ ...fact, stale: missing });
  }
  return annotated;
}

async function withSources(facts: readonly RecalledFact[], sources: EpisodeSources | undefined): Promise<readonly RecalledFact[]> {
  if (sources === undefined) return facts;
  const wanted = [...new Set(facts.flatMap((fact) => fact.episodes ?? []))].slice(0, MAX_EPISODES_LOOKED_UP);
  if (wanted.length === 0) return facts;
  let known: ReadonlyMap<string, EpisodeSource>;
  try {
    known = await sources.find(wanted);
  } catch {
    return facts;
  }
  return facts.map((fact) => {
    const cited = (fact.episodes ?? []).flatMap((episode) => {
      const source = known.get(episode);
      return source === undefined ? [] : [factSourceOf(source)];
    });
    if (cited.length === 0) return fact;
    cited.sort((left, right) => Date.parse(left.at) - Date.parse(right.at));
    return { ...fact, sources: cited };
  });
}

async function gonePaths(facts: readonly RecalledFact[], files: WorkspaceFiles | undefined): Promise<ReadonlySet<string>> {
  if (files === undefined) return new Set();
  const named = [...new Set(facts.flatMap((fact) => pathsNamedIn(fact.fact)))].slice(0, MAX_STALE_CHECKS);
  if (named.length === 0) return new Set();
  try {
    return new Set(await files.gone(named));
  } catch {
    return new Set();
  }
}
