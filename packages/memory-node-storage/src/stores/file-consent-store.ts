// Consent of a workspace to send data to an endpoint, kept in a KeyValueStore (a FileKeyValueStore
// for the harness). A stored value of the wrong shape counts as no consent.
import type { ConsentRecord, ConsentStore, KeyValueStore } from '@graphiti-memory/memory-core';

export const CONSENT_KEY = 'graphiti-memory.consent';

export interface FileConsentStoreOptions {
  /** Key of the record in the store. Default `graphiti-memory.consent`. */
  readonly key?: string;
  readonly now?: () => number;
}

export class FileConsentStore implements ConsentStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly options: FileConsentStoreOptions = {},
  ) {}

  get(): ConsentRecord | undefined {
    const value = this.store.get<unknown>(this.#key);
    if (typeof value !== 'object' || value === null) return undefined;
    const { endpoint, grantedAt } = value as Record<string, unknown>;
    return typeof endpoint === 'string' && typeof grantedAt === 'string' ? { endpoint, grantedAt } : undefined;
  }

  /** Records consent for `endpoint`, which the caller passes normalised (as memory-core's gate compares it). */
  grant(endpoint: string): Promise<void> {
    const grantedAt = new Date(this.options.now?.() ?? Date.now()).toISOString();
    return this.store.set(this.#key, { endpoint, grantedAt } satisfies ConsentRecord);
  }

  revoke(): Promise<void> {
    return this.store.delete(this.#key);
  }

  get #key(): string {
    return this.options.key ?? CONSENT_KEY;
  }
}
