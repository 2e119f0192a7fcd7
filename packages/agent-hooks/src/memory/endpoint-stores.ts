// One store per endpoint, each opened on first use from the endpoint's files in the shared state
// folder (`endpoints/<hash>/…`): what one Graphiti holds says nothing about another, so the group
// registry, the record of delivered episodes and the forget ledger are each kept per endpoint and
// reached through the endpoint in force. The wrappers of those stores differ only in what they do
// when a store cannot be opened.
import { endpointStateFiles, type EndpointStateFiles } from '@graphiti-memory/memory-node-storage';

export interface EndpointStoreOpening<T> {
  /** What the store holds, as errors name it (`the record of forgotten groups`). */
  readonly name: string;
  /** Opens the store of `endpoint` from its files. */
  readonly open: (files: EndpointStateFiles, endpoint: string) => T | Promise<T>;
  /**
   * What stands in for a store that cannot be opened (no state folder, an unreadable file), kept
   * for the process. Without it the call fails, and the next call tries to open the store again.
   */
  readonly unavailable?: (error: unknown) => T;
}

export class EndpointStores<T> {
  readonly #stores = new Map<string, Promise<T>>();

  constructor(
    private readonly stateFolder: () => Promise<string | undefined>,
    private readonly endpoint: () => string,
    private readonly opening: EndpointStoreOpening<T>,
  ) {}

  /** The store of the endpoint in force; calls on one endpoint share one store, in order. */
  current(): Promise<T> {
    const endpoint = this.endpoint();
    const known = this.#stores.get(endpoint);
    if (known !== undefined) return known;
    const opened = this.#open(endpoint).catch((error: unknown) => {
      if (this.opening.unavailable !== undefined) return this.opening.unavailable(error);
      this.#stores.delete(endpoint);
      throw error;
    });
    this.#stores.set(endpoint, opened);
    return opened;
  }

  /** Runs `action` on every store opened so far (shutdown flushes them); opens none. */
  async forEachOpened(action: (store: T) => Promise<void>): Promise<void> {
    const opened = await Promise.allSettled(this.#stores.values());
    await Promise.all(opened.flatMap((store) => (store.status === 'fulfilled' ? [action(store.value)] : [])));
  }

  async #open(endpoint: string): Promise<T> {
    const stateFolder = await this.stateFolder();
    if (stateFolder === undefined) {
      throw new Error(`${this.opening.name} needs the shared state folder, and there is none; check the state folder setting (GRAPHITI_MEMORY_STATE_DIR or the user config's stateDir).`);
    }
    return this.opening.open(endpointStateFiles(stateFolder, endpoint), endpoint);
  }
}
