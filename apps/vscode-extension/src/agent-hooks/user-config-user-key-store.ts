// The user memory key in the user config every tool on the machine reads (`userKey` in
// graphiti-memory/config.json): agent hooks and the harness then write the user scope to the same
// group as the extension.
import { readUserKey, setUserKey } from '@graphiti-memory/memory-node-storage';
import type { SharedUserKeyStore } from '../user-key/shared-user-key-store.js';
import type { AgentHookPlaces } from './agent-hook-places.js';

export class UserConfigUserKeyStore implements SharedUserKeyStore {
  constructor(private readonly places: AgentHookPlaces) {}

  read(): Promise<string | undefined> {
    return readUserKey(this.places.environment);
  }

  async write(key: string): Promise<void> {
    const problem = await setUserKey(key, this.places.environment);
    if (problem !== undefined) throw new Error(problem);
  }
}
