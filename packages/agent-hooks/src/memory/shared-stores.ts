// The stores every tool keeps in the shared state folder (memory-node-storage's state layout), so
// each sees what any of them recorded: the registry of groups written to (per endpoint), pending
// memories and the audit log, each opened on first use. Records an earlier version kept in another
// folder (the extension's global storage) are moved there once. When the state folder cannot be
// used, the registry lives in memory for the process, with one log line.
import path from 'node:path';
import {
  errorClassOf,
  InMemoryGroupRegistry,
  type AuditLog,
  type ForgetLedger,
  type ForgetRecord,
  type GroupRecord,
  type GroupRegistry,
  type GroupWrite,
  type Logger,
  type PendingMemoryStore,
} from '@graphiti-memory/memory-core';
import {
  adoptAuditLog,
  adoptPendingMemories,
  FileAuditLog,
  FileForgetLedger,
  FileGroupRegistry,
  FilePendingMemoryStore,
  sharedStateFiles,
} from '@graphiti-memory/memory-node-storage';
import { EndpointStores } from './endpoint-stores.js';

/** The names earlier versions gave pending memories and the audit log in their own folder (the extension's global storage). */
export const LEGACY_PENDING_MEMORIES_FILE = 'pending-memories.json';
export const LEGACY_AUDIT_LOG_FILE = 'audit-log.jsonl';

/**
 * The registry of the endpoint in force, one file per endpoint in the shared state folder
 * (`endpoints/<hash>/group-registry.json`, the harness's layout): forgetting on one server never
 * drops what another one still holds. Each file opens on first use, off the activation path; calls
 * keep their order.
 */
export class EndpointGroupRegistry implements GroupRegistry {
  readonly #registries: EndpointStores<GroupRegistry>;

  constructor(stateFolder: () => Promise<string | undefined>, endpoint: () => string, logger: Logger) {
    this.#registries = new EndpointStores<GroupRegistry>(stateFolder, endpoint, {
      name: 'the group registry',
      open: (files) => FileGroupRegistry.open({ filePath: files.groupRegistry, logger }),
      unavailable: (error) => {
        logger.warn('group registry unavailable; forget covers only the groups of this window', { errorClass: errorClassOf(error) });
        return new InMemoryGroupRegistry();
      },
    });
  }

  record(writes: readonly GroupWrite[]): void {
    void this.#registries.current().then((registry) => registry.record(writes));
  }

  async list(): Promise<readonly GroupRecord[]> {
    return (await this.#registries.current()).list();
  }

  async remove(groupIds: readonly string[]): Promise<void> {
    await (await this.#registries.current()).remove(groupIds);
  }

  async flush(): Promise<void> {
    await (await this.#registries.current()).flush();
  }

  /** Waits for the writes of every registry opened so far (shutdown); opens none. */
  async flushOpened(): Promise<void> {
    await this.#registries.forEachOpened((registry) => registry.flush());
  }
}

/**
 * What forgets left for later at the endpoint in force, one file per endpoint in the shared state
 * folder (`endpoints/<hash>/forgotten.json`), read by every tool before it sends or plans a turn.
 * Unlike the registry it has no in-memory fallback: a forget that cannot be recorded fails loudly,
 * and a read that fails stops sending (memory-core's callers), rather than send what was forgotten.
 */
export class EndpointForgetLedger implements ForgetLedger {
  readonly #ledgers: EndpointStores<FileForgetLedger>;

  constructor(stateFolder: () => Promise<string | undefined>, endpoint: () => string, logger: Logger) {
    this.#ledgers = new EndpointStores(stateFolder, endpoint, {
      name: 'the record of forgotten groups',
      open: (files) => new FileForgetLedger({ filePath: files.forgetLedger, logger }),
    });
  }

  async read(): Promise<ForgetRecord> {
    let ledger: FileForgetLedger;
    try {
      ledger = await this.#ledgers.current();
    } catch {
      // No state folder: no forget could have been recorded either.
      return { groups: [], turns: new Set() };
    }
    return ledger.read();
  }

  async forgetGroups(groupIds: readonly string[], at: number): Promise<void> {
    await (await this.#ledgers.current()).forgetGroups(groupIds, at);
  }

  async forgetTurns(turnKeys: readonly string[]): Promise<void> {
    await (await this.#ledgers.current()).forgetTurns(turnKeys);
  }

  async deleted(groupIds: readonly string[]): Promise<void> {
    await (await this.#ledgers.current()).deleted(groupIds);
  }
}

/**
 * Pending memories of every tool: the shared state folder's file, found on first use (off the
 * activation path). What this extension kept in `legacyFolder` (its global storage) moves there first.
 */
export function sharedPendingMemoryStore(stateFolder: () => Promise<string>, legacyFolder: string | undefined, logger: Logger): PendingMemoryStore {
  const store: FilePendingMemoryStore = new FilePendingMemoryStore({
    filePath: async () => {
      const file = sharedStateFiles(await stateFolder()).pendingMemories;
      if (legacyFolder !== undefined) {
        // The store is not opened yet: adopt through a store of the file itself.
        await adoptPendingMemories(path.join(legacyFolder, LEGACY_PENDING_MEMORIES_FILE), new FilePendingMemoryStore({ filePath: file, logger })).catch((error: unknown) =>
          logger.warn('pending memories of an earlier version could not be moved to the shared state folder', { errorClass: errorClassOf(error) }),
        );
      }
      return file;
    },
    logger,
  });
  return store;
}

/**
 * The audit log of every tool: the shared state folder's file, found on first use. What this
 * extension logged in `legacyFolder` (its global storage) moves there first.
 */
export function sharedAuditLog(stateFolder: () => Promise<string>, legacyFolder: string | undefined, logger: Logger): AuditLog {
  return new FileAuditLog({
    filePath: async () => {
      const file = sharedStateFiles(await stateFolder()).auditLog;
      if (legacyFolder !== undefined) {
        await adoptAuditLog(path.join(legacyFolder, LEGACY_AUDIT_LOG_FILE), new FileAuditLog({ filePath: file, logger })).catch((error: unknown) =>
          logger.warn('the audit log of an earlier version could not be moved to the shared state folder', { errorClass: errorClassOf(error) }),
        );
      }
      return file;
    },
    logger,
  });
}
