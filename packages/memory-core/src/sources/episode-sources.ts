// The local record of delivered episodes: an episode's uuid (learnt when delivery confirmation finds
// it by name) → the tool, session and day it came from, so a recalled fact can cite its source
// through `FactResult.episodes`. Metadata only: the title is a short, secret-guarded preview.
import type { FactSource, MessageSource } from '../ports.js';

/** One delivered episode and where it came from. */
export interface EpisodeSource extends MessageSource {
  /** The episode's uuid on the server. */
  readonly episode: string;
  readonly groupId: string;
  /** When the episode happened (its `valid_at`, else `created_at`), ISO 8601. */
  readonly at: string;
}

/**
 * Every episode this machine delivered (bounded: the oldest are let go first). `record` never waits
 * for I/O (a file store writes in the background); `find` answers from what is recorded.
 */
export interface EpisodeSources {
  record(sources: readonly EpisodeSource[]): void;
  /** The known ones of `episodes`; unknown uuids (another machine's episodes) are absent. `find([])` may load the record ahead of need. */
  find(episodes: readonly string[]): Promise<ReadonlyMap<string, EpisodeSource>>;
  /** Forgets episodes (deleted from the server). */
  remove(episodes: readonly string[]): Promise<void>;
  /**
   * Forgets every episode of these groups, and every episode of these sessions in any group (a
   * forgotten session's first prompt line must not stay behind). Returns what was removed.
   */
  forgetGroups(groupIds: readonly string[], sessions?: readonly string[]): Promise<readonly EpisodeSource[]>;
  flush(): Promise<void>;
}
export const EpisodeSources = Symbol.for('graphiti-memory.EpisodeSources');

/** Whether `forgetGroups(groupIds, sessions)` removes `source`. */
export function forgottenSource(source: EpisodeSource, groupIds: ReadonlySet<string>, sessions: ReadonlySet<string>): boolean {
  return groupIds.has(source.groupId) || (source.session !== undefined && sessions.has(source.session));
}

/** Content keys kept per episode (a digest of many turns keeps the first ones). */
export const MAX_SOURCE_CONTENTS = 100;

/** Longest session id and title kept (a title is cut where it is made: `TITLE_MAX_CHARS`). */
export const SOURCE_FIELD_MAX_CHARS = 200;

/** A recorded episode as a fact's source, with the exact keys `recall --json` prints. */
export function factSourceOf(source: EpisodeSource): FactSource {
  return {
    tool: source.tool,
    session: source.session ?? null,
    title: source.title ?? null,
    at: source.at,
    episode: source.episode,
  };
}

/** `value` when it is a string worth keeping, cut to `SOURCE_FIELD_MAX_CHARS`; else `undefined`. */
export function sourceField(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed.slice(0, SOURCE_FIELD_MAX_CHARS);
}

/** Checks a stored value (a file another version wrote) and keeps only the known, bounded fields. */
export function asEpisodeSource(value: unknown): EpisodeSource | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const episode = sourceField(record['episode']);
  const groupId = sourceField(record['groupId']);
  const tool = sourceField(record['tool']);
  const at = sourceField(record['at']);
  if (episode === undefined || groupId === undefined || tool === undefined || at === undefined || Number.isNaN(Date.parse(at))) return undefined;
  const session = sourceField(record['session']);
  const title = sourceField(record['title']);
  const contents = Array.isArray(record['contents'])
    ? record['contents'].filter((key): key is string => typeof key === 'string' && /^[0-9a-f]{32}$/.test(key)).slice(0, MAX_SOURCE_CONTENTS)
    : [];
  return { episode, groupId, tool, at, ...(session === undefined ? {} : { session }), ...(title === undefined ? {} : { title }), ...(contents.length === 0 ? {} : { contents }) };
}
