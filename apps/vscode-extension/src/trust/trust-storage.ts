// Where the extension keeps issue 13's local records, in its global storage: the registry of groups
// written to, pending memories (review) and the audit log. Without global storage (or when a file
// cannot be opened) they live in memory for the window, with one log line.
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

/** A registry whose file opens on first use, off the activation path; calls keep their order. */
export class DeferredGroupRegistry implements GroupRegistry {
  #registry: Promise<GroupRegistry> | undefined;

  constructor(
    private readonly storageFolder: string | undefined,
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

  #open(): Promise<GroupRegistry> {
    this.#registry ??= (async () => {
      try {
        if (this.storageFolder === undefined) throw new Error('no global storage folder');
        return await FileGroupRegistry.open({ filePath: path.join(this.storageFolder, GROUP_REGISTRY_FILE), logger: this.logger });
      } catch (error) {
        this.logger.warn('group registry unavailable; forget covers only the groups of this window', {
          errorClass: error instanceof Error ? error.name : 'unknown',
        });
        return new InMemoryGroupRegistry();
      }
    })();
    return this.#registry;
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
