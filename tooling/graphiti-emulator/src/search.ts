// Stand-in for Graphiti's hybrid search: lexical only. A fact scores one point per distinct query
// term found in its text or relation name (stop words ignored); facts scoring 0 are left out.
// Ties go to the newer fact. Invalidated facts are returned too, as upstream does.
import { searchTerms } from './text-tokens.js';
import type { FactRecord } from './types.js';

export function searchFacts(facts: readonly FactRecord[], query: string, maxFacts: number): FactRecord[] {
  const queryTerms = new Set(searchTerms(query));
  if (queryTerms.size === 0 || maxFacts <= 0) return [];
  return facts
    .map((fact, index) => {
      const factTerms = new Set(searchTerms(`${fact.fact} ${fact.name.replaceAll('_', ' ')}`));
      let score = 0;
      for (const term of queryTerms) if (factTerms.has(term)) score++;
      return { fact, score, index };
    })
    .filter((scored) => scored.score > 0)
    .sort((left, right) => right.score - left.score || right.index - left.index)
    .slice(0, maxFacts)
    .map((scored) => scored.fact);
}
