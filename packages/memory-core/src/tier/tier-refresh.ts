// A refresh of the local tier: one bounded read of Graphiti (each group's promoted episodes and its
// best facts for the brief's query), secret-guarded before anything can reach the tier or a prompt.
import type { FactResult } from '@graphiti-memory/graphiti-client';
import type { GraphitiApi, MemoryScope } from '../ports.js';
import { parsePromotionEpisode, type PromotionScope } from '../promotion/episode-format.js';
import { isSuperseded } from '../recall/fact-merging.js';
import { isOwnTeamPromotion } from '../recall/team-authors.js';
import { guardRecalledFacts } from '../recall/recalled-fact-guard.js';
import type { SecretGuard } from '../secrets/secret-guard.js';
import { isBriefKind, type TierFact, type TierGroups, type TierPromotion, type TierRefresh } from './tier-content.js';

/** Episodes read per group when the tier is refreshed. */
const EPISODES_PER_REFRESH = 200;
const BRIEF_QUERY = 'decisions preferences procedures conventions terminology of this project';
/** Facts the brief keeps from a refresh (the groups' best, interleaved). */
const BRIEF_FACTS = 20;

/**
 * Reads the promoted episodes and the top current facts of the tier's groups (the ones `recall.scopes`
 * allows: the caller leaves the others out). Each
 * group is searched on its own: a search's facts do not say which group they came from, and a
 * fact keeps its scope in the brief (`- [user] …`). Only episodes the product promoted (by name and
 * role, memory-core's rule) count as promotions: a chat turn quoting the markup is not one.
 * Everything read passes the secret guard before it can reach the tier file or a prompt; what the
 * guard cannot scan is left out.
 */
export async function refreshTier(
  api: GraphitiApi,
  guard: SecretGuard,
  groups: TierGroups,
  now: () => Date,
  signal?: AbortSignal,
): Promise<TierRefresh> {
  const startedAt = now();
  const scoped: Array<[PromotionScope, string]> = [
    ['workspace', groups.workspace],
    ...(groups.team === undefined ? [] : [['team', groups.team] as [PromotionScope, string]]),
    ...(groups.user === undefined ? [] : [['user', groups.user] as [PromotionScope, string]]),
  ];
  const options = { maxRetries: 0, ...(signal === undefined ? {} : { signal }) };
  const [episodeLists, searches] = await Promise.all([
    Promise.all(scoped.map(([, groupId]) => api.getEpisodes(groupId, { lastN: EPISODES_PER_REFRESH }, options))),
    Promise.all(scoped.map(([, groupId]) => api.search({ group_ids: [groupId], query: BRIEF_QUERY, max_facts: BRIEF_FACTS }, options))),
  ]);
  const promoted: TierPromotion[] = [];
  for (const [index, episodes] of episodeLists.entries()) {
    const [scope, groupId] = scoped[index] ?? ['workspace', groups.workspace];
    // Newest first.
    for (const episode of [...episodes].reverse()) {
      const stored = parsePromotionEpisode(episode);
      if (stored === undefined || !isBriefKind(stored.kind)) continue;
      // Graphiti has no authentication: a team memory that is not this user's own promotion is marked.
      const unverified = scope === 'team' && !(await isOwnTeamPromotion(episode, groups.user));
      promoted.push({
        kind: stored.kind,
        scope,
        text: stored.text,
        createdAt: episode.created_at,
        groupId,
        episodeName: episode.name,
        episodeUuid: episode.uuid,
        ...(stored.author === undefined ? {} : { author: stored.author }),
        ...(unverified ? { unverified: true } : {}),
      });
    }
  }
  const time = now().getTime();
  const facts = interleaved(scoped, searches.map((search) => search.facts.filter((fact) => !isSuperseded(fact, time))));
  const [guardedFacts, guardedPromotions] = await Promise.all([
    guardRecalledFacts(guard, facts),
    guardRecalledFacts(guard, promoted.map((promotion) => ({ ...promotion, fact: promotion.text }))),
  ]);
  return {
    groups: scoped.map(([, groupId]) => groupId),
    facts: guardedFacts,
    promoted: guardedPromotions.map(({ fact, ...promotion }) => ({ ...promotion, text: fact })),
    startedAt: startedAt.toISOString(),
  };
}

/** Each group's facts in its own order, taken in turns (the workspace's first), ranked by that order. */
function interleaved(scoped: ReadonlyArray<readonly [MemoryScope, string]>, lists: ReadonlyArray<readonly FactResult[]>): TierFact[] {
  const facts: TierFact[] = [];
  const seen = new Set<string>();
  for (let position = 0; facts.length < BRIEF_FACTS && lists.some((list) => position < list.length); position++) {
    lists.forEach((list, index) => {
      const fact = list[position];
      const group = scoped[index];
      if (fact === undefined || group === undefined || seen.has(fact.uuid) || facts.length >= BRIEF_FACTS) return;
      seen.add(fact.uuid);
      facts.push({ ...fact, scope: group[0], groupId: group[1], rank: facts.length });
    });
  }
  return facts;
}
