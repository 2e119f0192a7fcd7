// The record of delivered episodes of the endpoint in force: one file per endpoint in the shared
// state folder (`endpoints/<hash>/episode-sources.json`), as the group registry. Every tool binds it
// here (`createStateModules`), so a fact delivered from the hooks is cited in VS Code and the reverse.
import { errorClassOf, InMemoryEpisodeSources, type EpisodeSource, type EpisodeSources, type Logger } from '@graphiti-memory/memory-core';
import { FileEpisodeSources } from '@graphiti-memory/memory-node-storage';
import { EndpointStores } from './endpoint-stores.js';

export class EndpointEpisodeSources implements EpisodeSources {
  readonly #stores: EndpointStores<EpisodeSources>;

  constructor(stateFolder: () => Promise<string | undefined>, endpoint: () => string, logger: Logger) {
    this.#stores = new EndpointStores<EpisodeSources>(stateFolder, endpoint, {
      name: 'the record of delivered episodes',
      open: (files, endpointUrl) => {
        if (endpointUrl === '') throw new Error('no endpoint');
        return new FileEpisodeSources({ filePath: files.episodeSources, logger });
      },
      unavailable: (error) => {
        logger.warn('the record of delivered episodes is unavailable; citations cover this process only', { errorClass: errorClassOf(error) });
        return new InMemoryEpisodeSources();
      },
    });
  }

  record(sources: readonly EpisodeSource[]): void {
    void this.#stores.current().then((store) => store.record(sources));
  }

  async find(episodes: readonly string[]): Promise<ReadonlyMap<string, EpisodeSource>> {
    return (await this.#stores.current()).find(episodes);
  }

  async remove(episodes: readonly string[]): Promise<void> {
    await (await this.#stores.current()).remove(episodes);
  }

  async forgetGroups(groupIds: readonly string[], sessions?: readonly string[]): Promise<readonly EpisodeSource[]> {
    return (await this.#stores.current()).forgetGroups(groupIds, sessions);
  }

  async flush(): Promise<void> {
    await this.#stores.forEachOpened((store) => store.flush());
  }
}
