// Where the user key lives for every tool of this user. The extension keeps it in VS Code's global
// state until the user config shared with agent hooks and the harness is bound in its place.
import type { KeyValueStore } from '@graphiti-memory/memory-core';
import { USER_KEY_STORAGE_KEY } from '@graphiti-memory/memory-core';

export interface SharedUserKeyStore {
  /** The stored key, or `undefined` when none was stored (or it cannot be read). */
  read(): Promise<string | undefined>;
  write(key: string): Promise<void>;
}
export const SharedUserKeyStore = Symbol.for('graphiti-memory.vscode.SharedUserKeyStore');

/** Letters, digits, `_` and `-`, 8 to 128 of them: the same rule as the user config's `userKey`. */
export const USER_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** The key in VS Code's global state (per VS Code profile, synced by Settings Sync when the user syncs it). */
export class GlobalStateUserKeyStore implements SharedUserKeyStore {
  constructor(private readonly store: KeyValueStore) {}

  async read(): Promise<string | undefined> {
    const stored = this.store.get<unknown>(USER_KEY_STORAGE_KEY);
    return typeof stored === 'string' && USER_KEY_PATTERN.test(stored) ? stored : undefined;
  }

  async write(key: string): Promise<void> {
    await this.store.set(USER_KEY_STORAGE_KEY, key);
  }
}
