// The local tier: a small cache in the state folder of what a workspace's memory holds (its
// promoted decisions, preferences, procedures and terminology, and the facts recalled lately), so
// SessionStart has a brief even when Graphiti is down or slow, and recall can fall back to it.
// Refreshed after recalls and after the background drainer's deliveries.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { FactResult } from '@graphiti-memory/graphiti-client';
import type { GraphitiApi, MemoryScope, RecalledFact } from '@graphiti-memory/memory-core';
import { formatFactLine, memoryBlock, orderByRank, sanitiseFactText } from '@graphiti-memory/prompt-elements';

export const BRIEF_KINDS = ['decision', 'preference', 'procedure', 'terminology'] as const;
export type BriefKind = (typeof BRIEF_KINDS)[number];

export interface TierPromotion {
  readonly kind: BriefKind;
  readonly scope: MemoryScope;
  readonly text: string;
  readonly createdAt: string;
}

export interface LocalTier {
  readonly version: 1;
  readonly updatedAt: string;
  readonly facts: readonly RecalledFact[];
  readonly promoted: readonly TierPromotion[];
}

const MAX_TIER_FACTS = 60;
const MAX_TIER_PROMOTIONS = 60;
/** Episodes read per group when the tier is refreshed. */
const EPISODES_PER_REFRESH = 200;
const BRIEF_QUERY = 'decisions preferences procedures conventions terminology of this project';


export async function readTier(file: string): Promise<LocalTier | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<LocalTier>;
    if (parsed.version !== 1 || typeof parsed.updatedAt !== 'string' || !Array.isArray(parsed.facts) || !Array.isArray(parsed.promoted)) return undefined;
    return parsed as LocalTier;
  } catch {
    return undefined;
  }
}

/** Writes through a temporary file and a rename, so a reader never sees half a tier. */
export async function writeTier(file: string, tier: LocalTier): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, JSON.stringify(tier), { mode: 0o600 });
  await fs.rename(temporary, file);
}

/** Adds recalled facts (current ones only), newest recall first, deduplicated by uuid. */
export function withRecalledFacts(tier: LocalTier | undefined, facts: readonly RecalledFact[], now: Date): LocalTier {
  const current = facts.filter((fact) => fact.superseded !== true && !isPast(fact.invalid_at, now) && !isPast(fact.expired_at, now));
  const seen = new Set<string>();
  const merged: RecalledFact[] = [];
  for (const fact of [...current, ...(tier?.facts ?? [])]) {
    if (seen.has(fact.uuid)) continue;
    seen.add(fact.uuid);
    merged.push(fact);
  }
  return { version: 1, updatedAt: now.toISOString(), facts: merged.slice(0, MAX_TIER_FACTS), promoted: tier?.promoted ?? [] };
}

export interface TierGroups {
  readonly workspace: string;
  readonly user?: string;
}

/** Facts the brief keeps from a refresh (the groups' best, interleaved). */
const BRIEF_FACTS = 20;

/**
 * Reads the promoted episodes and the top current facts of the workspace (and user) group. Each
 * group is searched on its own: a search's facts do not say which group they came from, and a
 * fact keeps its scope in the brief (`- [user] …`).
 */
export async function refreshTier(api: GraphitiApi, groups: TierGroups, previous: LocalTier | undefined, now: () => Date, signal?: AbortSignal): Promise<LocalTier> {
  const scoped: Array<[MemoryScope, string]> = [['workspace', groups.workspace], ...(groups.user === undefined ? [] : [['user', groups.user] as [MemoryScope, string]])];
  const options = { maxRetries: 0, ...(signal === undefined ? {} : { signal }) };
  const [episodeLists, searches] = await Promise.all([
    Promise.all(scoped.map(([, groupId]) => api.getEpisodes(groupId, { lastN: EPISODES_PER_REFRESH }, options))),
    Promise.all(scoped.map(([, groupId]) => api.search({ group_ids: [groupId], query: BRIEF_QUERY, max_facts: BRIEF_FACTS }, options))),
  ]);
  const promoted: TierPromotion[] = [];
  episodeLists.forEach((episodes, index) => {
    const scope = scoped[index]?.[0] ?? 'workspace';
    for (const episode of [...episodes].reverse()) {
      const promotion = promotionOf(episode.content, scope, episode.created_at);
      if (promotion !== undefined) promoted.push(promotion);
    }
  });
  const merged = withRecalledFacts(previous, interleaved(scoped, searches.map((search) => search.facts)), now());
  return { ...merged, promoted: dedupePromotions(promoted).slice(0, MAX_TIER_PROMOTIONS) };
}

/** Each group's facts in its own order, taken in turns (the workspace's first), ranked by that order. */
function interleaved(scoped: ReadonlyArray<readonly [MemoryScope, string]>, lists: ReadonlyArray<readonly FactResult[]>): RecalledFact[] {
  const facts: RecalledFact[] = [];
  const seen = new Set<string>();
  for (let position = 0; facts.length < BRIEF_FACTS && lists.some((list) => position < list.length); position++) {
    lists.forEach((list, index) => {
      const fact = list[position];
      const scope = scoped[index]?.[0];
      if (fact === undefined || scope === undefined || seen.has(fact.uuid) || facts.length >= BRIEF_FACTS) return;
      seen.add(fact.uuid);
      facts.push({ ...fact, scope, rank: facts.length });
    });
  }
  return facts;
}

const EPISODE_PATTERN = /<graphiti_episode\s+kind="([a-z_]+)"[^>]*>\s*([\s\S]*?)\s*<\/graphiti_episode>/;

function promotionOf(content: string, scope: MemoryScope, createdAt: string): TierPromotion | undefined {
  const match = EPISODE_PATTERN.exec(content);
  const kind = BRIEF_KINDS.find((candidate) => candidate === match?.[1]);
  const text = match?.[2]?.trim();
  if (kind === undefined || text === undefined || text === '') return undefined;
  return { kind, scope, text, createdAt };
}

function dedupePromotions(promotions: readonly TierPromotion[]): TierPromotion[] {
  const seen = new Set<string>();
  return promotions.filter((promotion) => {
    const key = `${promotion.kind}\n${promotion.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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

/** Token estimate of the brief's budget (≈ 4 characters a token, as memory-core estimates). */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The brief: promoted decisions, preferences, procedures and terminology, then the top current
 * facts, as one `<graphiti_memory>` block within `budget` tokens; `undefined` when the tier is empty.
 */
export function renderBrief(tier: LocalTier | undefined, budget: number, now: Date): string | undefined {
  if (tier === undefined) return undefined;
  const header = `Workspace brief from the local memory cache (updated ${describeAge(tier.updatedAt, now)} ago).`;
  const lines: string[] = [];
  const fits = (candidate: readonly string[]): boolean => estimateTokens(memoryBlock([header, ...candidate])) <= budget;
  for (const kind of BRIEF_KINDS) {
    for (const promotion of tier.promoted.filter((candidate) => candidate.kind === kind)) {
      const line = `- [${promotion.scope} ${kind}] ${sanitiseFactText(promotion.text)}`;
      if (fits([...lines, line])) lines.push(line);
    }
  }
  for (const fact of orderByRank(tier.facts.filter((fact) => !isPast(fact.invalid_at, now) && !isPast(fact.expired_at, now)))) {
    const line = formatFactLine(fact);
    if (fits([...lines, line])) lines.push(line);
  }
  return lines.length === 0 ? undefined : memoryBlock([header, ...lines]);
}

/**
 * Recall's fallback when Graphiti missed the deadline: the tier's facts that share a word with the
 * query, most overlapping first, marked as cached with their age; `undefined` when none match.
 */
export function renderCachedRecall(tier: LocalTier | undefined, query: string, maxFacts: number, budget: number, now: Date): string | undefined {
  if (tier === undefined) return undefined;
  const words = new Set(significantWords(query));
  const scored = tier.facts
    .filter((fact) => !isPast(fact.invalid_at, now) && !isPast(fact.expired_at, now))
    .map((fact) => ({ fact, score: significantWords(fact.fact).filter((word) => words.has(word)).length }))
    .filter((entry) => entry.score > 0)
    .sort((left, right) => right.score - left.score)
    .slice(0, maxFacts);
  if (scored.length === 0) return undefined;
  const header = `Graphiti did not answer in time: these facts are from the local memory cache (cached ${describeAge(tier.updatedAt, now)} ago).`;
  const lines: string[] = [];
  for (const { fact } of scored) {
    const line = formatFactLine(fact);
    if (estimateTokens(memoryBlock([header, ...lines, line])) <= budget) lines.push(line);
  }
  return lines.length === 0 ? undefined : memoryBlock([header, ...lines]);
}

const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'what', 'which', 'that', 'this', 'from', 'have', 'does', 'how', 'our', 'you', 'are', 'was', 'use', 'we']);

function significantWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 2 && !STOP_WORDS.has(word));
}

function isPast(value: string | null | undefined, now: Date): boolean {
  if (value === null || value === undefined) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && time <= now.getTime();
}
