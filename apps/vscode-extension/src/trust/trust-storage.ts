// Where the extension keeps issue 13's local records, in its global storage: the registry of groups
// written to (per endpoint), pending memories (review) and the audit log. Without global storage (or when a file
// cannot be opened) they live in memory for the window, with one log line.
import { createHash } from 'node:crypto';
import path from 'node:path';
import {
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
import { FileAuditLog, FileGroupRegistry, FilePendingMemoryStore } from '@graphiti-memory/memory-node-storage';

export const GROUP_REGISTRY_FILE = 'group-registry.json';
export const PENDING_MEMORIES_FILE = 'pending-memories.json';
export const AUDIT_LOG_FILE = 'audit-log.jsonl';

/**
 * The registry of the endpoint in force, one file per endpoint (`endpoints/<hash>/group-registry.json`,
 * as the harness keeps it): forgetting on one server never drops what another one still holds. Each
 * file opens on first use, off the activation path; calls keep their order.
 */
export class EndpointGroupRegistry implements GroupRegistry {
  readonly #registries = new Map<string, Promise<GroupRegistry>>();

  constructor(
    private readonly storageFolder: string | undefined,
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
      if (this.storageFolder === undefined) throw new Error('no global storage folder');
      const folder = createHash('sha256').update(endpoint).digest('hex').slice(0, 16);
      return await FileGroupRegistry.open({ filePath: path.join(this.storageFolder, 'endpoints', folder, GROUP_REGISTRY_FILE), logger: this.logger });
    } catch (error) {
      this.logger.warn('group registry unavailable; forget covers only the groups of this window', {
        errorClass: error instanceof Error ? error.name : 'unknown',
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
