// The record of delivered episodes in one JSON file of the endpoint's state folder (0600, written
// atomically under a lock, so the extension, the harness and hook runs all add to it). Bounded: the
// newest `maxEpisodes` are kept. `record` queues and returns; `find` re-reads the file only when it
// changed (a long-lived hook server or extension recalls often).
import { asEpisodeSource, forgottenSource, type EpisodeSource, type EpisodeSources, type Logger } from '@graphiti-memory/memory-core';
import { isRecord, LockedJsonFile } from '../stores/locked-json-file.js';

/** Episodes kept: about 250 bytes each, so the file stays near a megabyte and reads in a few ms. */
export const MAX_EPISODE_SOURCES = 5000;

export interface FileEpisodeSourcesOptions {
  readonly filePath: string;
  readonly maxEpisodes?: number;
  readonly logger?: Logger;
}

interface SourcesFile {
  readonly version: 1;
  /** Oldest first. */
  readonly episodes: readonly EpisodeSource[];
}

export class FileEpisodeSources implements EpisodeSources {
  readonly #file: LockedJsonFile<SourcesFile>;
  readonly #max: number;
  readonly #logger: Logger | undefined;
  #queued: EpisodeSource[] = [];
  #writing: Promise<void> | undefined;
  /** The map of the file content last read: built once per change of the file. */
  #cache: { readonly file: SourcesFile; readonly byEpisode: ReadonlyMap<string, EpisodeSource> } | undefined;

  constructor(options: FileEpisodeSourcesOptions) {
    this.#file = new LockedJsonFile(options.filePath, parseSourcesFile, options.logger);
    this.#max = Math.max(1, options.maxEpisodes ?? MAX_EPISODE_SOURCES);
    this.#logger = options.logger;
  }

  get filePath(): string {
    return this.#file.filePath;
  }

  record(sources: readonly EpisodeSource[]): void {
    if (sources.length === 0) return;
    this.#queued.push(...sources);
    this.#writing ??= this.#writeLoop();
  }

  async find(episodes: readonly string[]): Promise<ReadonlyMap<string, EpisodeSource>> {
    const found = new Map<string, EpisodeSource>();
    // Asked for nothing, it still reads the file: recall warms the record while it searches.
    const byEpisode = await this.#read();
    const queued = new Map(this.#queued.map((source) => [source.episode, source]));
    for (const episode of episodes) {
      const source = queued.get(episode) ?? byEpisode.get(episode);
      if (source !== undefined) found.set(episode, source);
    }
    return found;
  }

  async remove(episodes: readonly string[]): Promise<void> {
    await this.flush();
    const removed = new Set(episodes);
    if (removed.size === 0) return;
    await this.#file.update((current) => {
      const kept = current.episodes.filter((source) => !removed.has(source.episode));
      return { next: kept.length === current.episodes.length ? undefined : { version: 1, episodes: kept }, result: undefined };
    });
  }

  async forgetGroups(groupIds: readonly string[], sessions: readonly string[] = []): Promise<readonly EpisodeSource[]> {
    await this.flush();
    const groups = new Set(groupIds);
    const named = new Set(sessions);
    if (groups.size === 0 && named.size === 0) return [];
    return this.#file.update((current) => {
      const removed = current.episodes.filter((source) => forgottenSource(source, groups, named));
      if (removed.length === 0) return { next: undefined, result: [] };
      return { next: { version: 1, episodes: current.episodes.filter((source) => !forgottenSource(source, groups, named)) }, result: removed };
    });
  }

  /** Resolves when every source recorded so far is in the file. */
  async flush(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
  }

  async #read(): Promise<ReadonlyMap<string, EpisodeSource>> {
    // The locked file hands back the same content while the file is unchanged (a stat per read).
    const file = await this.#file.read();
    if (this.#cache?.file !== file) this.#cache = { file, byEpisode: new Map(file.episodes.map((source) => [source.episode, source])) };
    return this.#cache.byEpisode;
  }

  async #writeLoop(): Promise<void> {
    while (this.#queued.length > 0) {
      const sources = [...this.#queued];
      try {
        await this.#file.update((current) => {
          const byEpisode = new Map(current.episodes.map((source) => [source.episode, source]));
          for (const source of sources) {
            byEpisode.delete(source.episode);
            byEpisode.set(source.episode, source);
          }
          const episodes = [...byEpisode.values()].slice(-this.#max);
          return { next: { version: 1, episodes }, result: undefined };
        });
      } catch {
        // Citations are a convenience: a record that cannot be written is logged and let go.
        this.#logger?.warn('sources: writing the record of delivered episodes failed', { file: this.#file.filePath, episodes: sources.length });
      }
      this.#queued = this.#queued.slice(sources.length);
      }
    this.#writing = undefined;
  }
}

function parseSourcesFile(raw: unknown): SourcesFile {
  const episodes = isRecord(raw) && Array.isArray(raw['episodes']) ? raw['episodes'] : [];
  return { version: 1, episodes: episodes.flatMap((item) => asEpisodeSource(item) ?? []) };
}
