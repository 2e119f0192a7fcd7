import { forgottenSource, type EpisodeSource, type EpisodeSources } from './episode-sources.js';

/** The record of delivered episodes of one process (tests, the browser); the newest `limit` kept. */
export class InMemoryEpisodeSources implements EpisodeSources {
  readonly #sources = new Map<string, EpisodeSource>();

  constructor(private readonly limit = 5000) {}

  record(sources: readonly EpisodeSource[]): void {
    for (const source of sources) {
      this.#sources.delete(source.episode);
      this.#sources.set(source.episode, source);
    }
    // A Map iterates in insertion order: the first keys are the oldest records.
    for (const episode of this.#sources.keys()) {
      if (this.#sources.size <= this.limit) break;
      this.#sources.delete(episode);
    }
  }

  find(episodes: readonly string[]): Promise<ReadonlyMap<string, EpisodeSource>> {
    const found = new Map<string, EpisodeSource>();
    for (const episode of episodes) {
      const source = this.#sources.get(episode);
      if (source !== undefined) found.set(episode, source);
    }
    return Promise.resolve(found);
  }

  remove(episodes: readonly string[]): Promise<void> {
    for (const episode of episodes) this.#sources.delete(episode);
    return Promise.resolve();
  }

  forgetGroups(groupIds: readonly string[], sessions: readonly string[] = []): Promise<readonly EpisodeSource[]> {
    const groups = new Set(groupIds);
    const named = new Set(sessions);
    const removed = [...this.#sources.values()].filter((source) => forgottenSource(source, groups, named));
    for (const source of removed) this.#sources.delete(source.episode);
    return Promise.resolve(removed);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }
}
