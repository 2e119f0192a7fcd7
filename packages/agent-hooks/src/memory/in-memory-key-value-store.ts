// A KeyValueStore held in memory: the user key of one run, and the workspace store of a run that
// sends nothing (recall), which has no ownership marks to keep.
import type { KeyValueStore } from '@graphiti-memory/memory-core';

export class InMemoryKeyValueStore implements KeyValueStore {
  readonly #values: Map<string, unknown>;

  constructor(initial: Readonly<Record<string, unknown>> = {}) {
    this.#values = new Map(Object.entries(initial));
  }

  get<T>(key: string): T | undefined {
    return this.#values.get(key) as T | undefined;
  }

  async set(key: string, value: unknown): Promise<void> {
    this.#values.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.#values.delete(key);
  }
}
