// The local tier: a small cache in the state folder of what a workspace's memory holds (its
// promoted decisions, preferences, procedures and terminology, and the facts recalled lately), so
// SessionStart has a brief even when Graphiti is down or slow, and recall can fall back to it.
// This module is the tier's content: its format, how a refresh, a recall, a promotion or a forget
// changes it, and how it renders. `LocalTierStore` keeps it on disk.
import type { FactResult } from '@graphiti-memory/graphiti-client';
import { parsePromotionEpisode, scopeLabel } from '@graphiti-memory/memory-core/episode-format';
import {
  guardRecalledFacts,
  isOwnTeamPromotion,
  isSuperseded,
  normaliseFactText,
  tokenEstimate,
  type GraphitiApi,
  type MemoryScope,
  type PromotionScope,
  type RecalledFact,
  type SaidMemory,
  type SecretGuard,
} from '@graphiti-memory/memory-core';
import { fitMemoryLines, formatFactLine, orderByRank, sanitiseFactText } from '@graphiti-memory/prompt-elements';

export const BRIEF_KINDS = ['decision', 'preference', 'procedure', 'terminology'] as const;
export type BriefKind = (typeof BRIEF_KINDS)[number];

export function isBriefKind(value: unknown): value is BriefKind {
  return typeof value === 'string' && (BRIEF_KINDS as readonly string[]).includes(value);
}

/** A recalled fact with the group it was recalled from (a session fact's group is its session). */
export type TierFact = RecalledFact & { readonly groupId?: string };

export interface TierPromotion {
  readonly kind: BriefKind;
  readonly scope: PromotionScope;
  readonly text: string;
  readonly createdAt: string;
  readonly groupId?: string;
  /** `graphiti-memory.promotion.<hash>`: the same memory read back from Graphiti replaces this one. */
  readonly episodeName?: string;
  /** Set once read back from Graphiti: facts extracted from this episode are not listed again. */
  readonly episodeUuid?: string;
  /** Team memories: the display name their author shared, when given. */
  readonly author?: string;
  /** Team memories no known install of this team wrote (not this user's own): `[team · Alice (unverified)]`. */
  readonly unverified?: boolean;
}

export const TIER_VERSION = 2;

export interface LocalTier {
  readonly version: typeof TIER_VERSION;
  /** The normalised endpoint and the workspace group this tier caches. */
  readonly endpoint: string;
  readonly workspaceGroup: string;
  readonly updatedAt: string;
  /** When the tier was last read from Graphiti; absent: cold (only local changes so far). */
  readonly refreshedAt?: string;
  readonly facts: readonly TierFact[];
  readonly promoted: readonly TierPromotion[];
  /**
   * Groups forgotten lately → when. What a refresh or recall fetched before that time is not
   * written for them: a read in flight during a forget must not bring the forgotten back.
   */
  readonly forgotten: Readonly<Record<string, string>>;
}

const MAX_TIER_FACTS = 60;
const MAX_TIER_PROMOTIONS = 60;
/** Episodes read per group when the tier is refreshed. */
const EPISODES_PER_REFRESH = 200;
const BRIEF_QUERY = 'decisions preferences procedures conventions terminology of this project';
/** Facts the brief keeps from a refresh (the groups' best, interleaved). */
const BRIEF_FACTS = 20;
/** A promotion made here but not yet found in Graphiti stays this long (its delivery may be queued). */
const UNCONFIRMED_PROMOTION_MS = 7 * 24 * 60 * 60_000;
/** Longer than any refresh or recall runs, so their late writes still meet the tombstone. */
const TOMBSTONE_MS = 10 * 60_000;

/** The token count the hooks budget with (memory-core's estimate: a real tokenizer would cost the hook its start). */
export function estimateTokens(text: string): number {
  return tokenEstimate(text.length);
}

export function emptyTier(endpoint: string, workspaceGroup: string, now: Date): LocalTier {
  return { version: TIER_VERSION, endpoint, workspaceGroup, updatedAt: now.toISOString(), facts: [], promoted: [], forgotten: {} };
}

/**
 * The tier in `raw` (parsed JSON), for this endpoint and workspace group; `undefined` for anything
 * else. A version-1 tier is migrated: its session facts are dropped (it did not record their
 * session), and it counts as cold, so the next SessionStart reads Graphiti again.
 */
export function parseTier(raw: unknown, endpoint: string, workspaceGroup: string): LocalTier | undefined {
  if (!isRecord(raw) || typeof raw['updatedAt'] !== 'string' || !Array.isArray(raw['facts']) || !Array.isArray(raw['promoted'])) return undefined;
  const facts = raw['facts'].filter(isFact);
  const promoted = raw['promoted'].filter(isPromotion);
  if (raw['version'] === 1) {
    return {
      ...emptyTier(endpoint, workspaceGroup, new Date(raw['updatedAt'])),
      updatedAt: raw['updatedAt'],
      facts: facts.filter((fact) => fact.scope !== 'session').map((fact) => (fact.scope === 'workspace' ? { ...fact, groupId: workspaceGroup } : fact)),
      promoted: promoted.map((promotion) => (promotion.scope === 'workspace' ? { ...promotion, groupId: workspaceGroup } : promotion)),
    };
  }
  if (raw['version'] !== TIER_VERSION || raw['endpoint'] !== endpoint || raw['workspaceGroup'] !== workspaceGroup) return undefined;
  const forgotten = isRecord(raw['forgotten']) ? Object.fromEntries(Object.entries(raw['forgotten']).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {};
  return {
    version: TIER_VERSION,
    endpoint,
    workspaceGroup,
    updatedAt: raw['updatedAt'],
    ...(typeof raw['refreshedAt'] === 'string' ? { refreshedAt: raw['refreshedAt'] } : {}),
    facts,
    promoted,
    forgotten,
  };
}

/** Adds recalled facts (current ones only), newest first, deduplicated by uuid; `fetchedAt`: when the read started. */
export function withRecalledFacts(tier: LocalTier, facts: readonly TierFact[], now: Date, fetchedAt: Date = now): LocalTier {
  const current = facts.filter((fact) => fact.superseded !== true && !isSuperseded(fact, now.getTime()) && !forgottenSince(tier, fact.groupId, fetchedAt));
  const seen = new Set<string>();
  const merged: TierFact[] = [];
  for (const fact of [...current, ...tier.facts]) {
    if (seen.has(fact.uuid)) continue;
    seen.add(fact.uuid);
    merged.push(fact);
  }
  return { ...tier, updatedAt: now.toISOString(), facts: merged.slice(0, MAX_TIER_FACTS) };
}

/** Adds a promotion made on this machine (before Graphiti has stored it); lessons and task updates are not in the brief. */
export function withPromotion(tier: LocalTier, promotion: TierPromotion, now: Date): LocalTier {
  // Already known (Graphiti's copy, with its episode, wins): nothing to add.
  const known = dedupePromotions(tier.promoted);
  if (dedupePromotions([...known, promotion]).length === known.length) return tier;
  return { ...tier, updatedAt: now.toISOString(), promoted: dedupePromotions([promotion, ...tier.promoted]).slice(0, MAX_TIER_PROMOTIONS) };
}

/**
 * Drops every entry of `groupIds` (and entries whose group is unknown: a migrated tier's user
 * entries), and remembers the forget for a while. When the tier's own workspace group is forgotten,
 * nothing of the tier is left and it is cold again.
 */
export function withoutGroups(tier: LocalTier, groupIds: readonly string[], now: Date): LocalTier {
  const gone = new Set(groupIds);
  const at = now.toISOString();
  const forgotten = { ...liveTombstones(tier.forgotten, now), ...Object.fromEntries(groupIds.map((groupId) => [groupId, at])) };
  if (gone.has(tier.workspaceGroup)) return { ...emptyTier(tier.endpoint, tier.workspaceGroup, now), forgotten };
  const kept = (groupId: string | undefined): boolean => groupId !== undefined && !gone.has(groupId);
  return {
    ...tier,
    updatedAt: at,
    facts: tier.facts.filter((fact) => kept(fact.groupId)),
    promoted: tier.promoted.filter((promotion) => kept(promotion.groupId)),
    forgotten,
  };
}

export interface TierGroups {
  readonly workspace: string;
  readonly user?: string;
  /** The repository's team group: only when the user consented to the team scope. */
  readonly team?: string;
}

/** What one read of Graphiti found for the tier. */
export interface TierRefresh {
  /** The groups read: promotions of other groups are left as they are. */
  readonly groups: readonly string[];
  readonly facts: readonly TierFact[];
  readonly promoted: readonly TierPromotion[];
  /** When the read started (a forget after it wins). */
  readonly startedAt: string;
}

/**
 * Reads the promoted episodes and the top current facts of the workspace (and user) group. Each
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

/**
 * The tier after a refresh: Graphiti's promotions of the groups read replace the tier's, except
 * those made here that Graphiti has not stored yet; the refresh's facts come first.
 */
export function withRefresh(tier: LocalTier, refresh: TierRefresh, now: Date): LocalTier {
  const fetchedAt = new Date(refresh.startedAt);
  const read = new Set(refresh.groups);
  const found = new Set(refresh.promoted.map((promotion) => promotion.episodeName));
  const stillLocal = (promotion: TierPromotion): boolean =>
    promotion.episodeUuid === undefined && !found.has(promotion.episodeName) && now.getTime() - Date.parse(promotion.createdAt) < UNCONFIRMED_PROMOTION_MS;
  const promoted = [
    ...refresh.promoted.filter((promotion) => !forgottenSince(tier, promotion.groupId, fetchedAt)),
    ...tier.promoted.filter((promotion) => promotion.groupId === undefined || !read.has(promotion.groupId) || stillLocal(promotion)),
  ];
  const merged = withRecalledFacts(tier, refresh.facts, now, fetchedAt);
  return { ...merged, refreshedAt: now.toISOString(), promoted: dedupePromotions(promoted).slice(0, MAX_TIER_PROMOTIONS), forgotten: liveTombstones(tier.forgotten, now) };
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

function dedupePromotions(promotions: readonly TierPromotion[]): TierPromotion[] {
  const seen = new Set<string>();
  return promotions.filter((promotion) => {
    const keys = [`${promotion.kind}\n${normaliseFactText(promotion.text)}`, ...(promotion.episodeName === undefined ? [] : [promotion.episodeName])];
    if (keys.some((key) => seen.has(key))) return false;
    for (const key of keys) seen.add(key);
    return true;
  });
}

function forgottenSince(tier: LocalTier, groupId: string | undefined, fetchedAt: Date): boolean {
  const at = groupId === undefined ? undefined : tier.forgotten[groupId];
  return at !== undefined && Date.parse(at) >= fetchedAt.getTime();
}

function liveTombstones(forgotten: Readonly<Record<string, string>>, now: Date): Record<string, string> {
  return Object.fromEntries(Object.entries(forgotten).filter(([, at]) => now.getTime() - Date.parse(at) < TOMBSTONE_MS));
}

/** `3 minutes`, `2 hours`, `5 days`. */
export function describeAge(updatedAt: string, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - Date.parse(updatedAt)) / 60_000));
  if (minutes < 1) return 'less than a minute';
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
}

/** What a session may see: a session fact only in the session it was recalled for (`sessionGroup`). */
function visibleFacts(tier: LocalTier, now: Date, sessionGroup: string | undefined): TierFact[] {
  return tier.facts.filter(
    (fact) => !isSuperseded(fact, now.getTime()) && (fact.scope !== 'session' || (fact.groupId !== undefined && fact.groupId === sessionGroup)),
  );
}

/** A fact the brief already shows as a promotion: extracted from its episode, or saying the same. */
function repeatsAPromotion(fact: TierFact, promoted: readonly TierPromotion[]): boolean {
  const text = normaliseFactText(fact.fact);
  return promoted.some((promotion) => {
    if (promotion.episodeUuid !== undefined && fact.episodes?.includes(promotion.episodeUuid) === true) return true;
    const promotionText = normaliseFactText(promotion.text);
    return text !== '' && (promotionText.includes(text) || text.includes(promotionText));
  });
}

/** A rendered brief and what it gave the session (for say-it-once). */
export interface RenderedBrief {
  readonly text: string;
  readonly said: SaidMemory;
}

/**
 * The brief: promoted decisions, preferences, procedures and terminology, then the top current
 * facts (each memory once: a fact a promotion already says is left out), as one `<graphiti_memory>`
 * block within `budget` tokens, with which promotions and facts made it in; `undefined` when there
 * is nothing to show. `sessionGroup`: the session's own group, whose facts alone of all session
 * facts may be shown.
 */
export async function briefOf(tier: LocalTier | undefined, budget: number, now: Date, sessionGroup?: string): Promise<RenderedBrief | undefined> {
  if (tier === undefined) return undefined;
  const header = `Workspace brief from the local memory cache (updated ${describeAge(tier.updatedAt, now)} ago).`;
  const promoted = BRIEF_KINDS.flatMap((kind) => tier.promoted.filter((promotion) => promotion.kind === kind));
  const facts = orderByRank(visibleFacts(tier, now, sessionGroup).filter((fact) => !repeatsAPromotion(fact, promoted)));
  const lines = [...promoted.map((promotion) => `- [${sanitiseFactText(scopeLabel(promotion))} ${promotion.kind}] ${sanitiseFactText(promotion.text)}`), ...facts.map(formatFactLine)];
  const fitted = await fitMemoryLines(lines, budget, estimateTokens, { header: [header], overflow: 'skip' });
  if (fitted === undefined) return undefined;
  const givenPromotions = fitted.keptIndexes.filter((index) => index < promoted.length).flatMap((index) => promoted[index] ?? []);
  const givenFacts = fitted.keptIndexes.filter((index) => index >= promoted.length).flatMap((index) => facts[index - promoted.length] ?? []);
  return {
    text: fitted.text,
    said: {
      facts: givenFacts,
      texts: givenPromotions.map((promotion) => promotion.text),
      episodes: givenPromotions.flatMap((promotion) => (promotion.episodeUuid === undefined ? [] : [promotion.episodeUuid])),
    },
  };
}

/**
 * Recall's fallback when Graphiti missed the deadline: the tier's facts that share a word with the
 * query, most overlapping first, marked as cached with their age; `undefined` when none match.
 */
export async function renderCachedRecall(
  tier: LocalTier | undefined,
  query: string,
  maxFacts: number,
  budget: number,
  now: Date,
  sessionGroup?: string,
): Promise<string | undefined> {
  if (tier === undefined) return undefined;
  const words = new Set(significantWords(query));
  const scored = visibleFacts(tier, now, sessionGroup)
    .map((fact) => ({ fact, score: significantWords(fact.fact).filter((word) => words.has(word)).length }))
    .filter((entry) => entry.score > 0)
    .sort((left, right) => right.score - left.score)
    .slice(0, maxFacts);
  if (scored.length === 0) return undefined;
  const header = `Graphiti did not answer in time: these facts are from the local memory cache (cached ${describeAge(tier.updatedAt, now)} ago).`;
  const lines = scored.map(({ fact }) => formatFactLine(fact));
  return (await fitMemoryLines(lines, budget, estimateTokens, { header: [header], overflow: 'skip' }))?.text;
}

const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'what', 'which', 'that', 'this', 'from', 'have', 'does', 'how', 'our', 'you', 'are', 'was', 'use', 'we']);

function significantWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 2 && !STOP_WORDS.has(word));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFact(value: unknown): value is TierFact {
  return isRecord(value) && typeof value['uuid'] === 'string' && typeof value['fact'] === 'string' && typeof value['scope'] === 'string' && typeof value['rank'] === 'number';
}

function isPromotion(value: unknown): value is TierPromotion {
  return (
    isRecord(value) &&
    isBriefKind(value['kind']) &&
    (value['scope'] === 'workspace' || value['scope'] === 'user' || value['scope'] === 'team') &&
    typeof value['text'] === 'string' &&
    typeof value['createdAt'] === 'string'
  );
}
