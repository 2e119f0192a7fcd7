// Say it once: what a session's prompts already carry — its SessionStart brief, its earlier
// recalls — is not injected into that session again unless it changed. The host keeps what was
// injected in the conversation, so repeating it only costs tokens and doubles the memory in one
// message. A session's record holds hashes and ids only, never the text, so it can sit on disk.
import type { FactResult } from '@graphiti-memory/graphiti-client';
import { normaliseFactText } from './fact-merging.js';
import { sha256Hex } from '../scopes/sha256.js';

/** The fields of a fact that say-it-once reads. */
export type SaidFact = Pick<FactResult, 'uuid' | 'fact'> & Partial<Pick<FactResult, 'valid_at' | 'invalid_at' | 'expired_at' | 'episodes'>>;

/** What one session was given so far: hashes and ids only. */
export interface SaidInSession {
  /** Fact uuid → hash of what was said of it (its text and validity): a change is said again. */
  readonly facts: Readonly<Record<string, string>>;
  /** Hashes of the normalised text of everything said (facts and promoted memories). */
  readonly texts: readonly string[];
  /** Promotion episodes whose memory was said: a fact extracted from one says nothing new. */
  readonly episodes: readonly string[];
}

/** What was just given to a session. */
export interface SaidMemory {
  readonly facts?: readonly SaidFact[];
  /** Promoted memories' text (the brief lists them as written). */
  readonly texts?: readonly string[];
  /** Their episodes' uuids, when known. */
  readonly episodes?: readonly string[];
}

export const NOTHING_SAID: SaidInSession = Object.freeze({ facts: Object.freeze({}), texts: Object.freeze([]), episodes: Object.freeze([]) });

/** A session's record keeps at most this many of each (the newest): a record must stay small. */
export const SAID_ONCE_BOUNDS = { facts: 400, texts: 400, episodes: 200 } as const;

/** Hex characters kept of each hash: 128 bits, plenty to tell facts apart. */
const HASH_LENGTH = 32;

/** The hash of a fact's content: its normalised text and validity dates. */
export async function factContentHash(fact: SaidFact): Promise<string> {
  const content = [normaliseFactText(fact.fact), fact.valid_at ?? '', fact.invalid_at ?? '', fact.expired_at ?? ''].join('\n');
  return (await sha256Hex(`graphiti-memory:fact:${content}`)).slice(0, HASH_LENGTH);
}

/** The hash of a text as said (case, spacing and a final full stop do not matter). */
export async function saidTextHash(text: string): Promise<string> {
  return (await sha256Hex(`graphiti-memory:text:${normaliseFactText(text)}`)).slice(0, HASH_LENGTH);
}

/**
 * The facts `said` does not already hold, in their order. A fact is left out when the session was
 * given the same fact unchanged (same uuid, same content hash), or — for a fact it never saw by
 * uuid — the same text, or only promoted memories it was given as the fact's episodes. A fact
 * whose text or validity changed since it was given is kept: the change is news.
 */
export async function unsaidFacts<T extends SaidFact>(facts: readonly T[], said: SaidInSession): Promise<T[]> {
  if (facts.length === 0) return [];
  const texts = new Set(said.texts);
  const episodes = new Set(said.episodes);
  const kept = await Promise.all(
    facts.map(async (fact) => {
      const given = said.facts[fact.uuid];
      if (given !== undefined) return given !== (await factContentHash(fact));
      // Extracted only from promoted memories the session was given: it says what they said.
      if (fact.episodes !== undefined && fact.episodes.length > 0 && fact.episodes.every((episode) => episodes.has(episode))) return false;
      return !texts.has(await saidTextHash(fact.fact));
    }),
  );
  return facts.filter((_, index) => kept[index] === true);
}

/** `said` with `what` added (newest kept when a bound is reached). */
export async function withSaid(said: SaidInSession, what: SaidMemory): Promise<SaidInSession> {
  const facts = await Promise.all((what.facts ?? []).map(async (fact) => [fact.uuid, await factContentHash(fact)] as const));
  const texts = await Promise.all([...(what.texts ?? []), ...(what.facts ?? []).map((fact) => fact.fact)].map(saidTextHash));
  // Re-inserted keys move to the end, so the oldest are the first to go.
  const factEntries = new Map(Object.entries(said.facts));
  for (const [uuid, hash] of facts) {
    factEntries.delete(uuid);
    factEntries.set(uuid, hash);
  }
  return {
    facts: Object.fromEntries([...factEntries].slice(-SAID_ONCE_BOUNDS.facts)),
    texts: newestUnique([...said.texts, ...texts], SAID_ONCE_BOUNDS.texts),
    episodes: newestUnique([...said.episodes, ...(what.episodes ?? [])], SAID_ONCE_BOUNDS.episodes),
  };
}

/** A record read back from storage; anything unreadable in it is left out (it only costs a repeat). */
export function parseSaidInSession(raw: unknown): SaidInSession {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return NOTHING_SAID;
  const record = raw as Record<string, unknown>;
  const facts = typeof record['facts'] === 'object' && record['facts'] !== null && !Array.isArray(record['facts']) ? (record['facts'] as Record<string, unknown>) : {};
  const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
  return {
    facts: Object.fromEntries(Object.entries(facts).filter((entry): entry is [string, string] => typeof entry[1] === 'string').slice(-SAID_ONCE_BOUNDS.facts)),
    texts: strings(record['texts']).slice(-SAID_ONCE_BOUNDS.texts),
    episodes: strings(record['episodes']).slice(-SAID_ONCE_BOUNDS.episodes),
  };
}

function newestUnique(values: readonly string[], bound: number): string[] {
  const seen = new Set<string>();
  const newestFirst: string[] = [];
  for (let index = values.length - 1; index >= 0 && newestFirst.length < bound; index--) {
    const value = values[index];
    if (value === undefined || seen.has(value)) continue;
    seen.add(value);
    newestFirst.push(value);
  }
  return newestFirst.reverse();
}

export interface SaidOnceRecordOptions {
  /**
   * The session's context starts anew (a new, cleared or compacted conversation): what was
   * recorded before no longer counts.
   */
  readonly fresh?: boolean;
}

/**
 * Per-session memory of what was injected. The hooks keep it in the state folder (each event is
 * its own process); the chat participant keeps it in process, per chat session.
 */
export interface SaidOnceStore {
  /** What `sessionId`'s prompts carry so far; `NOTHING_SAID` for a session it does not know. */
  said(sessionId: string): Promise<SaidInSession>;
  /** Adds what was just given to `sessionId`. */
  record(sessionId: string, what: SaidMemory, options?: SaidOnceRecordOptions): Promise<void>;
}
export const SaidOnceStore = Symbol.for('graphiti-memory.SaidOnceStore');

/** `SaidOnceStore` in process: at most `maxSessions` sessions, the least recently used dropped first. */
export class InMemorySaidOnceStore implements SaidOnceStore {
  private readonly sessions = new Map<string, SaidInSession>();

  constructor(private readonly maxSessions = 100) {}

  async said(sessionId: string): Promise<SaidInSession> {
    return this.sessions.get(sessionId) ?? NOTHING_SAID;
  }

  async record(sessionId: string, what: SaidMemory, options: SaidOnceRecordOptions = {}): Promise<void> {
    const before = options.fresh === true ? NOTHING_SAID : (this.sessions.get(sessionId) ?? NOTHING_SAID);
    const next = await withSaid(before, what);
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, next);
    for (const oldest of this.sessions.keys()) {
      if (this.sessions.size <= this.maxSessions) break;
      this.sessions.delete(oldest);
    }
  }
}
