// Where the extension keeps issue 13's local records: the registry of groups written to (per
// endpoint, in the state folder shared with the harness and agent hooks), and in its global storage
// pending memories (review) and the audit log. Without global storage (or when a file
// cannot be opened) they live in memory for the window, with one log line.
import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  errorClassOf,
  InMemoryAuditLog,
  InMemoryGroupRegistry,
  InMemoryPendingMemoryStore,
  type AuditLog,
  type GroupRecord,
  type GroupRegistry,
  type GroupWrite,
  type Logger,
  type PendingMemoryStore,
} from '@graphiti-memory/memory-core';
import { FileAuditLog, FileGroupRegistry, FilePendingMemoryStore, readConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import envPaths from 'env-paths';

export const GROUP_REGISTRY_FILE = 'group-registry.json';
export const PENDING_MEMORIES_FILE = 'pending-memories.json';
export const AUDIT_LOG_FILE = 'audit-log.jsonl';

/**
 * The state folder the harness and agent hooks keep their records in (their default, the user's data
 * folder; `GRAPHITI_MEMORY_STATE_DIR` or the user config's `stateDir` move it). The extension keeps
 * its group registry there too, so a forget from any of them covers what all of them wrote.
 */
export async function sharedStateDirectory(env: Readonly<Record<string, string | undefined>> = process.env): Promise<string> {
  const fromEnvironment = env['GRAPHITI_MEMORY_STATE_DIR']?.trim();
  if (fromEnvironment) return path.resolve(fromEnvironment);
  const config = await readConfigFile(userConfigPath(env));
  const fromConfig = config.ok ? config.values.stateDir?.trim() : undefined;
  if (fromConfig) return path.resolve(fromConfig);
  return envPaths('graphiti-harness', { suffix: '' }).data;
}

/**
 * The registry of the endpoint in force, one file per endpoint in the shared state folder
 * (`endpoints/<hash>/group-registry.json`, the harness's layout): forgetting on one server never
 * drops what another one still holds. Each file opens on first use, off the activation path; calls
 * keep their order.
 */
export class EndpointGroupRegistry implements GroupRegistry {
  readonly #registries = new Map<string, Promise<GroupRegistry>>();

  constructor(
    private readonly stateFolder: () => Promise<string | undefined>,
    private readonly endpoint: () => string,
    private readonly logger: Logger,
  ) {}

  record(writes: readonly GroupWrite[]): void {
    void this.#open().then((registry) => registry.record(writes));
  }

  async list(): Promise<readonly GroupRecord[]> {
    return (await this.#open()).list();
  }

  async remove(groupIds: readonly string[]): Promise<void> {
    await (await this.#open()).remove(groupIds);
  }

  async flush(): Promise<void> {
    await (await this.#open()).flush();
  }

  /** Waits for the writes of every registry opened so far (shutdown); opens none. */
  async flushOpened(): Promise<void> {
    await Promise.all([...this.#registries.values()].map(async (registry) => (await registry).flush()));
  }

  #open(): Promise<GroupRegistry> {
    const endpoint = this.endpoint();
    let registry = this.#registries.get(endpoint);
    if (registry === undefined) {
      registry = this.#openFile(endpoint);
      this.#registries.set(endpoint, registry);
    }
    return registry;
  }

  async #openFile(endpoint: string): Promise<GroupRegistry> {
    try {
      const stateFolder = await this.stateFolder();
      if (stateFolder === undefined) throw new Error('no state folder');
      const folder = createHash('sha256').update(endpoint).digest('hex').slice(0, 16);
      return await FileGroupRegistry.open({ filePath: path.join(stateFolder, 'endpoints', folder, GROUP_REGISTRY_FILE), logger: this.logger });
    } catch (error) {
      this.logger.warn('group registry unavailable; forget covers only the groups of this window', {
        errorClass: errorClassOf(error),
      });
      return new InMemoryGroupRegistry();
    }
  }
}

export function pendingMemoryStoreIn(storageFolder: string | undefined, logger: Logger): PendingMemoryStore {
  return storageFolder === undefined
    ? new InMemoryPendingMemoryStore()
    : new FilePendingMemoryStore({ filePath: path.join(storageFolder, PENDING_MEMORIES_FILE), logger });
}

export function auditLogIn(storageFolder: string | undefined, logger: Logger): AuditLog {
  return storageFolder === undefined ? new InMemoryAuditLog() : new FileAuditLog({ filePath: path.join(storageFolder, AUDIT_LOG_FILE), logger });
}
