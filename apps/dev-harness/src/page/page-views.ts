// What the memory page shows, shaped from what memory's services return: curated memories, facts,
// conversations grouped by assistant and day, and the audit log in words. Pure functions, so each
// shape is tested without a server; every text is shown by the page as text, never as markup.
import { parsePromotionEpisode, type AuditEntry, type EpisodeSource, type FactSource, type RecalledFact } from '@graphiti-memory/memory-core';
import type { Episode } from '@graphiti-memory/graphiti-client';

/** The scopes the page switches between (a session is a conversation, shown under the workspace). */
export const PAGE_SCOPES = ['workspace', 'user', 'team'] as const;
export type PageScope = (typeof PAGE_SCOPES)[number];

export function isPageScope(value: unknown): value is PageScope {
  return typeof value === 'string' && (PAGE_SCOPES as readonly string[]).includes(value);
}

export interface PageMemory {
  readonly episode: string;
  readonly kind: string;
  readonly scope: string;
  readonly text: string;
  /** When it was recorded (ISO 8601). */
  readonly date: string;
  /** `you`, or the team author's shared name. */
  readonly who: string;
  /** The tool that promoted it, when this machine delivered it. */
  readonly tool: string;
}

export interface PageFact {
  readonly uuid: string;
  readonly fact: string;
  readonly validAt: string | null;
  readonly invalidAt: string | null;
  readonly createdAt: string;
  readonly superseded: boolean;
  /** Workspace paths it names that no longer exist. */
  readonly stale: readonly string[];
  readonly sources: readonly FactSource[];
}

export interface PageConversation {
  readonly session: string;
  readonly title: string | null;
  readonly at: string;
  readonly episodes: readonly string[];
}

/** Conversations of one assistant on one day. */
export interface PageConversationDay {
  readonly tool: string;
  readonly day: string;
  readonly conversations: readonly PageConversation[];
}

/** The curated memories among `episodes` (memory-core's rule: name and stored shape), newest first. */
export function curatedMemories(episodes: readonly Episode[], sources: ReadonlyMap<string, EpisodeSource>, ownAuthor: (episode: Episode) => boolean): PageMemory[] {
  const memories: PageMemory[] = [];
  for (const episode of [...episodes].reverse()) {
    const stored = parsePromotionEpisode(episode);
    if (stored === undefined) continue;
    const who = stored.scope === 'team' && !ownAuthor(episode) ? (stored.author ?? 'a teammate') : 'you';
    memories.push({ episode: episode.uuid, kind: stored.kind, scope: stored.scope, text: stored.text, date: stored.recordedAt, who, tool: sources.get(episode.uuid)?.tool ?? 'not recorded here' });
  }
  return memories;
}

/** Conversations: the episodes that are not curated memories, by the assistant that captured them and the day, newest first. */
export function conversationDays(episodes: readonly Episode[], sources: ReadonlyMap<string, EpisodeSource>): PageConversationDay[] {
  const days = new Map<string, { tool: string; day: string; sessions: Map<string, { session: string; title: string | null; at: string; episodes: string[] }> }>();
  for (const episode of episodes) {
    if (parsePromotionEpisode(episode) !== undefined) continue;
    const source = sources.get(episode.uuid);
    const at = source?.at ?? episode.valid_at ?? episode.created_at;
    const tool = source?.tool ?? 'another tool or machine';
    const day = at.slice(0, 10);
    const key = `${tool}\n${day}`;
    const entry = days.get(key) ?? { tool, day, sessions: new Map() };
    days.set(key, entry);
    const session = source?.session ?? episode.uuid;
    const known = entry.sessions.get(session) ?? { session, title: source?.title ?? null, at, episodes: [] };
    known.episodes.push(episode.uuid);
    if (at > known.at) known.at = at;
    entry.sessions.set(session, known);
  }
  return [...days.values()]
    .map(({ tool, day, sessions }) => ({ tool, day, conversations: [...sessions.values()].sort((left, right) => right.at.localeCompare(left.at)) }))
    .sort((left, right) => right.day.localeCompare(left.day) || left.tool.localeCompare(right.tool));
}

export function pageFact(fact: RecalledFact, now: number): PageFact {
  const passed = (value: string | null | undefined): boolean => value !== null && value !== undefined && Date.parse(value) <= now;
  return {
    uuid: fact.uuid,
    fact: fact.fact,
    validAt: fact.valid_at ?? null,
    invalidAt: fact.invalid_at ?? fact.expired_at ?? null,
    createdAt: fact.created_at,
    superseded: fact.superseded === true || passed(fact.invalid_at) || passed(fact.expired_at),
    stale: fact.stale ?? [],
    sources: fact.sources ?? [],
  };
}

const TOOL_WORDS: Readonly<Record<string, string>> = {
  'graphiti-harness': 'the terminal (graphiti-harness)',
  'agent-hooks': "an assistant's hooks",
  'vscode-extension': 'VS Code',
};

/** One audit entry in words: who sent what where, never what it said (the log holds no content). */
export function auditWords(entry: AuditEntry, scopeOf: (groupId: string) => string): string {
  const who = TOOL_WORDS[entry.tool ?? ''] ?? 'a tool';
  const where = [...new Set(entry.groupIds.map(scopeOf))].join(' and ') || 'every';
  const redacted = entry.redactions > 0 ? `, ${entry.redactions} ${entry.redactions === 1 ? 'secret' : 'secrets'} redacted first` : '';
  const count = entry.episodeNames.length;
  if (entry.kind === 'search') return `${who} searched ${where} memory (a ${entry.bytes}-byte query${redacted})`;
  if (entry.kind === 'promotion') return `${who} sent ${count} curated ${count === 1 ? 'memory' : 'memories'} to ${where} memory (${entry.bytes} bytes${redacted})`;
  return `${who} sent ${count} ${count === 1 ? 'part' : 'parts'} of a conversation to ${where} memory (${entry.bytes} bytes${redacted})`;
}
