// How the memory view shapes what Graphiti holds: curated memories (promotions, each once, newest
// first), conversations (each turn's question and answer together, never a row per message), and
// where a fact came from. Pure: no VS Code, no network, so the shaping is tested on its own.
import type { Episode, FactResult } from '@graphiti-memory/graphiti-client';
import { isDigestMessageName, parsePromotionEpisode, parseTurnMessageName } from '@graphiti-memory/memory-core';
import { formatDay } from '@graphiti-memory/prompt-elements';

// `team`: the repository's shared group (only with the user's consent to the team scope).
export type CuratedScope = 'workspace' | 'user' | 'team';

/** The episodes of one group of the view, newest first or not: the shaping sorts. */
export interface ScopedEpisodes {
  readonly scope: CuratedScope;
  readonly episodes: readonly Episode[];
}

export interface CuratedMemory {
  readonly scope: CuratedScope;
  readonly episode: Episode;
}

/** One chat turn: the user's question and the answer, as Graphiti stored them (either may be missing). */
export interface Turn {
  /** The turn id of `<app>.turn.<id>.<role>`, or the episode name for other episodes (digests). */
  readonly key: string;
  readonly question?: Episode;
  readonly answer?: Episode;
  /** Every episode of the turn, question first. */
  readonly episodes: readonly Episode[];
  /** The latest `valid_at` of its episodes. */
  readonly at: string;
}

/** A memory the product promoted (memory-core's reading: its name and its stored block), never a turn quoting the markup. */
export function isPromotion(episode: Episode): boolean {
  return parsePromotionEpisode(episode) !== undefined;
}

/**
 * Promoted and approved memories of the groups, each once (one promotion has one name, whatever
 * group or retry stored it), newest first. Chat turns are left out: a directive typed in a question
 * shows once, as the memory it became, not again as the question that carried it.
 */
export function curatedMemories(groups: readonly ScopedEpisodes[]): CuratedMemory[] {
  const byName = new Map<string, CuratedMemory>();
  for (const { scope, episodes } of groups) {
    for (const episode of episodes) {
      if (!isPromotion(episode)) continue;
      const known = byName.get(episode.name);
      if (known === undefined || known.episode.valid_at < episode.valid_at) byName.set(episode.name, { scope, episode });
    }
  }
  return [...byName.values()].sort((a, b) => compareDesc(a.episode.valid_at, b.episode.valid_at));
}

/** The conversation episodes of a group as turns (question and answer together), newest first. */
export function turnsOf(episodes: readonly Episode[]): Turn[] {
  const turns = new Map<string, { question?: Episode; answer?: Episode; others: Episode[] }>();
  for (const episode of episodes) {
    if (isPromotion(episode)) continue;
    const name = parseTurnMessageName(episode.name);
    const key = name?.turnId ?? episode.name;
    const turn = turns.get(key) ?? { others: [] };
    if (name?.role === 'user') turn.question = episode;
    else if (name?.role === 'assistant') turn.answer = episode;
    else turn.others.push(episode);
    turns.set(key, turn);
  }
  return [...turns.entries()]
    .map(([key, turn]): Turn => {
      const all = [turn.question, turn.answer, ...turn.others].filter((episode): episode is Episode => episode !== undefined);
      const at = all.map((episode) => episode.valid_at).sort(compareDesc)[0] ?? '';
      return { key, ...(turn.question ? { question: turn.question } : {}), ...(turn.answer ? { answer: turn.answer } : {}), episodes: all, at };
    })
    .sort((a, b) => compareDesc(a.at, b.at));
}

/** One turn of a session digest as read back from its `speaker: text` lines. */
export interface DigestTurnText {
  /** The user's words (their first line): what the turn is named by. */
  readonly question: string;
  /** The turn's lines as stored: every speaker's. */
  readonly text: string;
}

// Graphiti's `chat session(user): ` before a digest's turns. Every turn opens with its `user: ` line
// (after a `system: ` line when system prompts are sent); replies may hold blank lines of their own.
const STORED_SPEAKER = /^[^\n(]*\((?:user|assistant|system)\):\s*/;
const USER_PREFIX = 'user: ';
const SYSTEM_PREFIX = 'system: ';

/**
 * The turns of a session digest (memory-core's `digestMessage`), oldest first; `[]` for any other
 * episode, or a digest without `user: ` turns (a model-written summary). A reply line that itself
 * starts with `user: ` starts a row of its own there: the view shows it as two rows, nothing is lost.
 */
export function digestTurnsOf(episode: Pick<Episode, 'name' | 'content'>): DigestTurnText[] {
  if (!isDigestMessageName(episode.name)) return [];
  const blocks: { lines: string[]; question?: string }[] = [];
  for (const line of episode.content.replace(STORED_SPEAKER, '').split('\n')) {
    const current = blocks.at(-1);
    const opensTurn = line.startsWith(USER_PREFIX) ? current?.question !== undefined || current === undefined : line.startsWith(SYSTEM_PREFIX) && current?.question !== undefined;
    const block = opensTurn || current === undefined ? { lines: [] as string[] } : current;
    if (block !== current) blocks.push(block);
    block.lines.push(line);
    if (block.question === undefined && line.startsWith(USER_PREFIX)) block.question = line.slice(USER_PREFIX.length).trim();
  }
  return blocks.flatMap(({ lines, question }) => (question === undefined || question === '' ? [] : [{ question, text: lines.join('\n').trim() }]));
}

/** Where an episode the view loaded came from, for a fact that cites it. */
export interface EpisodeSource {
  readonly scope: CuratedScope | 'session';
  readonly title: string;
  readonly at: string;
}

/**
 * Where a fact came from, in words: the episode it cites when the view knows it, else how many
 * episodes it cites; `undefined` when the fact carries no citation (servers before 2026).
 */
export function factSource(fact: Pick<FactResult, 'episodes'>, known: ReadonlyMap<string, EpisodeSource>): string | undefined {
  const cited = fact.episodes ?? [];
  if (cited.length === 0) return undefined;
  const found = cited.map((uuid) => known.get(uuid)).filter((source): source is EpisodeSource => source !== undefined);
  const first = found[0];
  if (first === undefined) return `from ${cited.length === 1 ? 'a conversation or memory' : `${cited.length} conversations or memories`} not shown here`;
  const more = cited.length > 1 ? ` and ${cited.length - 1} more` : '';
  return `from ${first.scope} memory, ${formatDay(first.at) ?? 'an unknown day'}: "${first.title}"${more}`;
}

/** The fact's dates in words (days as the prompt gives them): since when it holds, and until when when it no longer does. */
export function factDates(fact: Pick<FactResult, 'valid_at' | 'invalid_at' | 'expired_at' | 'created_at'>): string {
  const since = formatDay(fact.valid_at) ?? formatDay(fact.created_at) ?? 'an unknown day';
  const ended = formatDay(fact.invalid_at ?? fact.expired_at);
  return ended === undefined ? `since ${since}` : `${since} to ${ended} (superseded)`;
}

function compareDesc(a: string, b: string): number {
  return Date.parse(b) - Date.parse(a);
}
