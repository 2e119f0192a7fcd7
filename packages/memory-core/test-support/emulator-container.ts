// memory-core's whole module against the emulator, as the emulator tests compose it: the fake host
// ports with consent for the emulator and the real clock, fast confirmation polls, capture named as
// the harness's, in-memory storage and episode sources. A test states only its settings and what it
// binds besides.
import type { GraphitiApi } from '@graphiti-memory/graphiti-client';
import { Container } from 'inversify';
import { SystemClock } from '../src/clock/system-clock.js';
import { IngestionOptions } from '../src/ingestion/index.js';
import { createInMemoryStorageModule, createMemoryModule } from '../src/memory-module.js';
import { GroupRecorderOptions } from '../src/registry/index.js';
import { EpisodeSources } from '../src/sources/episode-sources.js';
import { InMemoryEpisodeSources } from '../src/sources/in-memory-episode-sources.js';
import type { InMemoryKeyValueStore } from './fakes.js';
import { bindFakeHostPorts } from './fake-host-ports.js';

export interface EmulatorContainerOptions {
  /** The running emulator (only its address is needed here). */
  readonly emulator: { readonly url: string };
  readonly client: GraphitiApi;
  /** Raw settings; `enabled` and the emulator's endpoint are added. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Where the user key is kept (one person on two machines shares it). */
  readonly globalStore?: InMemoryKeyValueStore;
  /** Default: a fresh in-memory record. */
  readonly episodeSources?: EpisodeSources;
  /** Further bindings, made before the module loads. */
  readonly bind?: (container: Container) => void;
}

export async function composeWithEmulator(options: EmulatorContainerOptions): Promise<Container> {
  const container = new Container();
  bindFakeHostPorts(container, {
    settings: { enabled: true, endpoint: options.emulator.url, ...options.settings },
    consentFor: options.emulator.url,
    connection: { current: () => options.client },
    clock: new SystemClock(),
    ...(options.globalStore === undefined ? {} : { globalStore: options.globalStore }),
  });
  container.bind(IngestionOptions).toConstantValue({ pollIntervalMs: 20, maxPollIntervalMs: 100 });
  container.bind(GroupRecorderOptions).toConstantValue({ tool: 'graphiti-harness' });
  container.bind(EpisodeSources).toConstantValue(options.episodeSources ?? new InMemoryEpisodeSources());
  options.bind?.(container);
  await container.load(createMemoryModule(), createInMemoryStorageModule());
  return container;
}
