// The local tier's content: a small cache of what a workspace's memory holds (its promoted
// decisions, preferences, procedures and terminology, the facts recalled lately, and the last
// finished sessions for the "where we left off" bridge), so SessionStart has a brief and every tool
// a cached answer when Graphiti is down or slow. This module is its format and how a refresh, a
// recall, a promotion, a session digest or a forget changes it; `LocalTier` applies them and
// `LocalTierStore` keeps the content (memory-node-storage's `FileLocalTierStore` on disk).
import { isSuperseded, normaliseFactText } from '../recall/fact-merging.js';
import type { RecalledFact } from '../ports.js';
import type { PromotionScope } from '../promotion/episode-format.js';

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
  /** The tool that promoted it here (its citation until Graphiti's copy is read back). */
  readonly tool?: string;
  /** Team memories no known install of this team wrote (not this user's own): `[team · Alice (unverified)]`. */
  readonly unverified?: boolean;
}

export const TIER_VERSION = 2;

export interface TierContent {
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
  /** Episodes forgotten lately (one source: `forget --episode`) → when: a read in flight must not bring them back either. */
  readonly forgottenEpisodes?: Readonly<Record<string, string>>;
  /** The workspace's last finished sessions, newest first: the brief's "where we left off" bridge. */
  readonly sessions?: readonly TierSession[];
}

/** A finished session as its delivered digest told it (metadata only: the title is short and secret-guarded). */
export interface TierSession {
  readonly session: string;
  /** The tool that captured it (`Claude Code`, `Copilot`, …). */
  readonly tool: string;
  /** Its first prompt line, as the digest's source recorded it. */
  readonly title?: string;
  /** When its first and last delivered digests happened (ISO 8601). */
  readonly startedAt: string;
  readonly endedAt: string;
  /** The digest episodes (uuids) it is known from: its citation, and what a forget of one source drops. */
  readonly episodes: readonly string[];
  /** The groups those episodes went to: a forget of any of them drops the session. */
  readonly groups: readonly string[];
}

const MAX_TIER_FACTS = 60;
const MAX_TIER_PROMOTIONS = 60;
const MAX_TIER_SESSIONS = 5;
/** A promotion made here but not yet found in Graphiti stays this long (its delivery may be queued). */
const UNCONFIRMED_PROMOTION_MS = 7 * 24 * 60 * 60_000;
/** Longer than any refresh or recall runs, so their late writes still meet the tombstone. */
const TOMBSTONE_MS = 10 * 60_000;

export function emptyTier(endpoint: string, workspaceGroup: string, now: Date): TierContent {
  return { version: TIER_VERSION, endpoint, workspaceGroup, updatedAt: now.toISOString(), facts: [], promoted: [], forgotten: {} };
}

/**
 * The tier in `raw` (parsed JSON), for this endpoint and workspace group; `undefined` for anything
 * else. A version-1 tier is migrated: its session facts are dropped (it did not record their
 * session), and it counts as cold, so the next SessionStart reads Graphiti again.
 */
export function parseTier(raw: unknown, endpoint: string, workspaceGroup: string): TierContent | undefined {
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
  const forgotten = isRecord(raw['forgotten']) ? stringRecord(raw['forgotten']) : {};
  return {
    version: TIER_VERSION,
    endpoint,
    workspaceGroup,
    updatedAt: raw['updatedAt'],
    ...(typeof raw['refreshedAt'] === 'string' ? { refreshedAt: raw['refreshedAt'] } : {}),
    facts,
    promoted,
    forgotten,
    ...(isRecord(raw['forgottenEpisodes']) ? { forgottenEpisodes: stringRecord(raw['forgottenEpisodes']) } : {}),
    ...(Array.isArray(raw['sessions']) ? { sessions: raw['sessions'].filter(isSession) } : {}),
  };
}

/** Adds recalled facts (current ones only), newest first, deduplicated by uuid; `fetchedAt`: when the read started. */
export function withRecalledFacts(tier: TierContent, facts: readonly TierFact[], now: Date, fetchedAt: Date = now): TierContent {
  const episodesGone = new Set(Object.keys(tier.forgottenEpisodes ?? {}));
  const current = facts.filter(
    (fact) => fact.superseded !== true && !isSuperseded(fact, now.getTime()) && !forgottenSince(tier, fact.groupId, fetchedAt) && !onlyFrom(fact.episodes, episodesGone),
  );
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
export function withPromotion(tier: TierContent, promotion: TierPromotion, now: Date): TierContent {
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
export function withoutGroups(tier: TierContent, groupIds: readonly string[], now: Date): TierContent {
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
    sessions: (tier.sessions ?? []).filter((session) => session.groups.every((groupId) => !gone.has(groupId))),
    forgotten,
  };
}

/**
 * Drops what came from these episodes (one source forgotten): promotions read back from them (or,
 * by `episodeNames`, recorded here before they were read back),
 * facts they alone support or that the forget deleted (`deletedFacts`), sessions known from them;
 * and remembers the forget for a while, as `withoutGroups` does.
 */
export function withoutEpisodes(tier: TierContent, episodes: readonly string[], deletedFacts: readonly string[], now: Date, episodeNames: readonly string[] = []): TierContent {
  if (episodes.length === 0 && deletedFacts.length === 0 && episodeNames.length === 0) return tier;
  const at = now.toISOString();
  const gone = new Set(episodes);
  const goneNames = new Set(episodeNames.filter((name) => name !== ''));
  const deleted = new Set(deletedFacts);
  const forgottenEpisodes = { ...liveTombstones(tier.forgottenEpisodes ?? {}, now), ...Object.fromEntries(episodes.map((episode) => [episode, at])) };
  return {
    ...tier,
    updatedAt: at,
    facts: tier.facts.filter((fact) => !deleted.has(fact.uuid) && !onlyFrom(fact.episodes, gone)),
    promoted: tier.promoted.filter(
      (promotion) => !(promotion.episodeUuid !== undefined && gone.has(promotion.episodeUuid)) && !(promotion.episodeName !== undefined && goneNames.has(promotion.episodeName)),
    ),
    sessions: (tier.sessions ?? []).filter((session) => !session.episodes.some((episode) => gone.has(episode))),
    forgottenEpisodes,
  };
}

/** Records a delivered session digest: a session already known grows, a new one goes first (the newest few are kept). */
export function withSession(tier: TierContent, digest: { readonly session: string; readonly tool: string; readonly title?: string; readonly at: string; readonly episode: string; readonly groupId: string }, now: Date): TierContent {
  if (tier.forgotten[digest.groupId] !== undefined || tier.forgottenEpisodes?.[digest.episode] !== undefined) return tier;
  const sessions = tier.sessions ?? [];
  const known = sessions.find((session) => session.session === digest.session);
  const union = (list: readonly string[], item: string): string[] => (list.includes(item) ? [...list] : [...list, item]);
  const session: TierSession = known === undefined
    ? { session: digest.session, tool: digest.tool, ...(digest.title === undefined ? {} : { title: digest.title }), startedAt: digest.at, endedAt: digest.at, episodes: [digest.episode], groups: [digest.groupId] }
    : {
        ...known,
        ...(known.title === undefined && digest.title !== undefined ? { title: digest.title } : {}),
        startedAt: Date.parse(digest.at) < Date.parse(known.startedAt) ? digest.at : known.startedAt,
        endedAt: Date.parse(digest.at) > Date.parse(known.endedAt) ? digest.at : known.endedAt,
        episodes: union(known.episodes, digest.episode),
        groups: union(known.groups, digest.groupId),
      };
  const others = sessions.filter((candidate) => candidate.session !== digest.session);
  const ordered = [session, ...others].sort((left, right) => Date.parse(right.endedAt) - Date.parse(left.endedAt));
  return { ...tier, updatedAt: now.toISOString(), sessions: ordered.slice(0, MAX_TIER_SESSIONS) };
}

/** Whether a fact's known sources are all among `gone` (a fact with none known is not). */
function onlyFrom(episodes: readonly string[] | undefined, gone: ReadonlySet<string>): boolean {
  return episodes !== undefined && episodes.length > 0 && episodes.every((episode) => gone.has(episode));
}

/**
 * The tier after a refresh: Graphiti's promotions of the groups read replace the tier's, except
 * those made here that Graphiti has not stored yet; the refresh's facts come first. What a forget
 * made after the read started (a group, an episode) is not written back.
 */
export function withRefresh(tier: TierContent, refresh: TierRefresh, now: Date): TierContent {
  const fetchedAt = new Date(refresh.startedAt);
  const read = new Set(refresh.groups);
  const found = new Set(refresh.promoted.map((promotion) => promotion.episodeName));
  const episodesGone = new Set(Object.keys(tier.forgottenEpisodes ?? {}));
  const stillLocal = (promotion: TierPromotion): boolean =>
    promotion.episodeUuid === undefined && !found.has(promotion.episodeName) && now.getTime() - Date.parse(promotion.createdAt) < UNCONFIRMED_PROMOTION_MS;
  const promoted = [
    ...refresh.promoted.filter((promotion) => !forgottenSince(tier, promotion.groupId, fetchedAt) && (promotion.episodeUuid === undefined || !episodesGone.has(promotion.episodeUuid))),
    ...tier.promoted.filter((promotion) => promotion.groupId === undefined || !read.has(promotion.groupId) || stillLocal(promotion)),
  ];
  const merged = withRecalledFacts(tier, refresh.facts, now, fetchedAt);
  return {
    ...merged,
    refreshedAt: now.toISOString(),
    promoted: dedupePromotions(promoted).slice(0, MAX_TIER_PROMOTIONS),
    forgotten: liveTombstones(tier.forgotten, now),
    ...(tier.forgottenEpisodes === undefined ? {} : { forgottenEpisodes: liveTombstones(tier.forgottenEpisodes, now) }),
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

function dedupePromotions(promotions: readonly TierPromotion[]): TierPromotion[] {
  const seen = new Set<string>();
  return promotions.filter((promotion) => {
    const keys = [`${promotion.kind}\n${normaliseFactText(promotion.text)}`, ...(promotion.episodeName === undefined ? [] : [promotion.episodeName])];
    if (keys.some((key) => seen.has(key))) return false;
    for (const key of keys) seen.add(key);
    return true;
  });
}

function forgottenSince(tier: TierContent, groupId: string | undefined, fetchedAt: Date): boolean {
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

/** How every tool labels a cached answer: `cached 12 minutes ago — Graphiti did not answer`. */
export function cachedLabel(cachedAt: string, now: Date): string {
  return `cached ${describeAge(cachedAt, now)} ago — Graphiti did not answer`;
}

/** What a session may see: a session fact only in the session it was recalled for (`sessionGroup`). */
export function visibleFacts(tier: TierContent, now: Date, sessionGroup: string | undefined): TierFact[] {
  return tier.facts.filter(
    (fact) => !isSuperseded(fact, now.getTime()) && (fact.scope !== 'session' || (fact.groupId !== undefined && fact.groupId === sessionGroup)),
  );
}

/** A fact the brief already shows as a promotion: extracted from its episode, or saying the same. */
export function repeatsAPromotion(fact: TierFact, promoted: readonly TierPromotion[]): boolean {
  const text = normaliseFactText(fact.fact);
  return promoted.some((promotion) => {
    if (promotion.episodeUuid !== undefined && fact.episodes?.includes(promotion.episodeUuid) === true) return true;
    const promotionText = normaliseFactText(promotion.text);
    return text !== '' && (promotionText.includes(text) || text.includes(promotionText));
  });
}

/** The brief's promotions in the order it lists them (decisions first, then preferences, …). */
export function briefPromotions(tier: TierContent): TierPromotion[] {
  return BRIEF_KINDS.flatMap((kind) => tier.promoted.filter((promotion) => promotion.kind === kind));
}

/** Recall's fallback: the visible facts that share a word with the query, most overlapping first, at most `maxFacts`. */
export function factsMatching(tier: TierContent, query: string, maxFacts: number, now: Date, sessionGroup?: string): TierFact[] {
  const words = new Set(significantWords(query));
  // Promoted memories are memory too: each as the fact it states (a fact extracted from it is not listed twice).
  const promoted = briefPromotions(tier);
  const facts = visibleFacts(tier, now, sessionGroup).filter((fact) => !repeatsAPromotion(fact, promoted));
  return [...promoted.map(promotionAsFact), ...facts]
    .map((fact) => ({ fact, score: significantWords(fact.fact).filter((word) => words.has(word)).length }))
    .filter((entry) => entry.score > 0)
    .sort((left, right) => right.score - left.score)
    .slice(0, maxFacts)
    .map(({ fact }, rank) => ({ ...fact, rank }));
}

/** A promoted memory as a recalled fact (its episode, when known, is its source). */
export function promotionAsFact(promotion: TierPromotion): TierFact {
  return {
    uuid: `promotion:${promotion.episodeUuid ?? promotion.episodeName ?? normaliseFactText(promotion.text)}`,
    name: 'PROMOTED',
    fact: promotion.text,
    valid_at: null,
    invalid_at: null,
    expired_at: null,
    created_at: promotion.createdAt,
    ...(promotion.episodeUuid === undefined ? {} : { episodes: [promotion.episodeUuid] }),
    scope: promotion.scope,
    rank: 0,
    ...(promotion.groupId === undefined ? {} : { groupId: promotion.groupId }),
    ...(promotion.author === undefined ? {} : { author: promotion.author }),
  };
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

function isSession(value: unknown): value is TierSession {
  return (
    isRecord(value) &&
    typeof value['session'] === 'string' &&
    typeof value['tool'] === 'string' &&
    typeof value['startedAt'] === 'string' &&
    typeof value['endedAt'] === 'string' &&
    Array.isArray(value['episodes']) &&
    Array.isArray(value['groups'])
  );
}

function stringRecord(value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
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
