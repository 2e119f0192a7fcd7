// Where the user key lives for every tool of this user: the user config (`userKey` in
// `graphiti-memory/config.json`) that the harness and agent hooks read too, so all of them write the
// user scope to one group.
import { readUserKey, setUserKey } from '@graphiti-memory/memory-node-storage';

export interface SharedUserKeyStore {
  /** The stored key, or `undefined` when none was stored (or it cannot be read). */
  read(): Promise<string | undefined>;
  /** Stores the key; rejects with a message saying what failed. */
  write(key: string): Promise<void>;
}
export const SharedUserKeyStore = Symbol.for('graphiti-memory.vscode.SharedUserKeyStore');

/** Letters, digits, `_` and `-`, 8 to 128 of them: the same rule as the user config's `userKey`. */
export const USER_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** The key in the user config; the environment is read at each call (`GRAPHITI_MEMORY_CONFIG_DIR` moves the folder). */
export class UserConfigUserKeyStore implements SharedUserKeyStore {
  read(): Promise<string | undefined> {
    return readUserKey(process.env);
  }

  async write(key: string): Promise<void> {
    const problem = await setUserKey(key, process.env);
    if (problem !== undefined) throw new Error(`Graphiti Memory: the user key was not stored: ${problem}`);
  }
}
