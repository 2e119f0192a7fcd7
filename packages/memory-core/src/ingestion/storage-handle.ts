// Ingestion's storage, opened once on first need and remembered. A failed open is not remembered:
// the next need tries again (staging and the drain loop retry after `idleRecheckMs`).
import type { IngestionStorage, IngestionStore } from '../ports.js';

export class StorageHandle {
  #store: IngestionStore | undefined;
  #opening: Promise<IngestionStore> | undefined;

  constructor(
    private readonly storage: IngestionStorage,
    private readonly opened: (store: IngestionStore) => void,
  ) {}

  /** The store, once open; `undefined` before (nothing is opened by asking). */
  get store(): IngestionStore | undefined {
    return this.#store;
  }

  open(): Promise<IngestionStore> {
    if (this.#store !== undefined) return Promise.resolve(this.#store);
    this.#opening ??= this.storage.open().then(
      (store) => {
        this.#store = store;
        this.opened(store);
        return store;
      },
      (error: unknown) => {
        this.#opening = undefined;
        throw error;
      },
    );
    return this.#opening;
  }

  /** Closes what was opened (waiting for an open under way); nothing when never opened. */
  async close(): Promise<void> {
    await this.#opening?.catch(() => undefined);
    if (this.#store !== undefined) await this.storage.close();
  }
}
