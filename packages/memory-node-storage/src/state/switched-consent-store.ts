// A ConsentStore that also honours the memory switches: `get()` is the wrapped store's consent,
// unless the switches close memory for this workspace folder and that consent's endpoint. Bound
// for a long-running sender (the agent hooks' drainer), memory-core's gate then closes at the next
// delivery pass after a revoke made in any tool, without waiting for the process to be stopped.
// `get()` is synchronous (the gate's contract), so the small switches file is read synchronously,
// at most every `refreshMs`.
import type { ConsentCategory, ConsentRecord, ConsentStore } from '@graphiti-memory/memory-core';
import { closedBySwitches, type FileMemorySwitches } from './memory-switches.js';

const REFRESH_MS = 100;

export interface SwitchedConsentStoreOptions {
  readonly base: ConsentStore;
  readonly switches: FileMemorySwitches;
  readonly workspaceFolder: string;
  readonly refreshMs?: number;
  readonly now?: () => number;
}

export class SwitchedConsentStore implements ConsentStore {
  #checkedAt = Number.NEGATIVE_INFINITY;
  #checkedEndpoint: string | undefined;
  #closed = false;

  constructor(private readonly options: SwitchedConsentStoreOptions) {}

  get(): ConsentRecord | undefined {
    const record = this.options.base.get();
    if (record === undefined) return undefined;
    const now = (this.options.now ?? Date.now)();
    if (now - this.#checkedAt >= (this.options.refreshMs ?? REFRESH_MS) || this.#checkedEndpoint !== record.endpoint) {
      const read = this.options.switches.readSync();
      // Unreadable switches may hold a revoke: closed until the file is fixed.
      this.#closed = !read.ok || closedBySwitches(read.switches, this.options.workspaceFolder, record.endpoint) !== undefined;
      this.#checkedAt = now;
      this.#checkedEndpoint = record.endpoint;
    }
    return this.#closed ? undefined : record;
  }

  grant(endpoint: string, categories?: readonly ConsentCategory[]): Promise<void> {
    return this.options.base.grant(endpoint, categories);
  }

  revoke(): Promise<void> {
    return this.options.base.revoke();
  }
}
