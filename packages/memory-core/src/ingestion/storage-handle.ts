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

  /** The store, once open (here, or by the host before); `undefined` before (nothing is opened by asking). */
  get store(): IngestionStore | undefined {
    if (this.#store === undefined) {
      const current = this.storage.current();
      if (current !== undefined) this.#adopt(current);
    }
    return this.#store;
  }

  open(): Promise<IngestionStore> {
    const store = this.store;
    if (store !== undefined) return Promise.resolve(store);
    this.#opening ??= this.storage.open().then(
      (opened) => {
        // The host may have opened it meanwhile and `store` adopted it already.
        if (this.#store === undefined) this.#adopt(opened);
        return opened;
      },
      (error: unknown) => {
        this.#opening = undefined;
        throw error;
      },
    );
    return this.#opening;
  }

  #adopt(store: IngestionStore): void {
    this.#store = store;
    this.opened(store);
  }

  /** Closes what was opened (waiting for an open under way); nothing when never opened. */
  async close(): Promise<void> {
    await this.#opening?.catch(() => undefined);
    if (this.#store !== undefined) await this.storage.close();
  }
}
