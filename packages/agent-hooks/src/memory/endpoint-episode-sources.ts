// The record of delivered episodes of the endpoint in force: one file per endpoint in the shared
// state folder (`endpoints/<hash>/episode-sources.json`), as the group registry. Every tool binds it
// here (`createStateModules`), so a fact delivered from the hooks is cited in VS Code and the reverse.
import { errorClassOf, InMemoryEpisodeSources, type EpisodeSource, type EpisodeSources, type Logger } from '@graphiti-memory/memory-core';
import { endpointStateFiles, FileEpisodeSources } from '@graphiti-memory/memory-node-storage';

export class EndpointEpisodeSources implements EpisodeSources {
  readonly #stores = new Map<string, Promise<EpisodeSources>>();

  constructor(
    private readonly stateFolder: () => Promise<string | undefined>,
    private readonly endpoint: () => string,
    private readonly logger: Logger,
  ) {}

  record(sources: readonly EpisodeSource[]): void {
    void this.#open().then((store) => store.record(sources));
  }

  async find(episodes: readonly string[]): Promise<ReadonlyMap<string, EpisodeSource>> {
    return (await this.#open()).find(episodes);
  }

  async remove(episodes: readonly string[]): Promise<void> {
    await (await this.#open()).remove(episodes);
  }

  async flush(): Promise<void> {
    await Promise.all([...this.#stores.values()].map(async (store) => (await store).flush()));
  }

  #open(): Promise<EpisodeSources> {
    const endpoint = this.endpoint();
    let store = this.#stores.get(endpoint);
    if (store === undefined) {
      store = this.#openFile(endpoint);
      this.#stores.set(endpoint, store);
    }
    return store;
  }

  async #openFile(endpoint: string): Promise<EpisodeSources> {
    try {
      const stateFolder = await this.stateFolder();
      if (stateFolder === undefined || endpoint === '') throw new Error('no state folder or endpoint');
      return new FileEpisodeSources({ filePath: endpointStateFiles(stateFolder, endpoint).episodeSources, logger: this.logger });
    } catch (error) {
      this.logger.warn('the record of delivered episodes is unavailable; citations cover this process only', { errorClass: errorClassOf(error) });
      return new InMemoryEpisodeSources();
    }
  }
}
