// The group registry in one JSON file of the state folder (0600). `record` queues and returns;
// a background write merges the queue into the file under a lock, so the extension, the harness
// and hook runs all add to one registry without losing each other's writes.
import {
  mergeGroupWrite,
  sortGroupRecords,
  type GroupRecord,
  type GroupRegistry,
  type GroupWrite,
  type Logger,
  type MemoryScope,
} from '@graphiti-memory/memory-core';
import { isRecord, LockedJsonFile } from '../stores/locked-json-file.js';

export interface FileGroupRegistryOptions {
  readonly filePath: string;
  readonly logger?: Logger;
}

interface RegistryFile {
  readonly version: 1;
  readonly groups: readonly GroupRecord[];
}

const SCOPES: readonly MemoryScope[] = ['session', 'workspace', 'user', 'team'];

export class FileGroupRegistry implements GroupRegistry {
  readonly #file: LockedJsonFile<RegistryFile>;
  readonly #logger: Logger | undefined;
  #queued: GroupWrite[] = [];
  #writing: Promise<void> | undefined;
  #lastError: Error | undefined;

  private constructor(options: FileGroupRegistryOptions) {
    this.#file = new LockedJsonFile(options.filePath, parseRegistryFile, options.logger);
    this.#logger = options.logger;
  }

  static async open(options: FileGroupRegistryOptions): Promise<FileGroupRegistry> {
    const registry = new FileGroupRegistry(options);
    await registry.#file.read();
    return registry;
  }

  get filePath(): string {
    return this.#file.filePath;
  }

  record(writes: readonly GroupWrite[]): void {
    if (writes.length === 0) return;
    this.#queued.push(...writes);
    this.#writing ??= this.#writeLoop();
  }

  async list(): Promise<readonly GroupRecord[]> {
    await this.flush();
    return sortGroupRecords((await this.#file.read()).groups);
  }

  async remove(groupIds: readonly string[]): Promise<void> {
    await this.flush();
    const removed = new Set(groupIds);
    if (removed.size === 0) return;
    await this.#file.update((current) => {
      const groups = current.groups.filter((record) => !removed.has(record.groupId));
      return { next: groups.length === current.groups.length ? undefined : { version: 1, groups }, result: undefined };
    });
  }

  /** Resolves when every write recorded so far is in the file; rejects when the last write failed. */
  async flush(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
    const error = this.#lastError;
    this.#lastError = undefined;
    if (error !== undefined) throw error;
  }

  async #writeLoop(): Promise<void> {
    while (this.#queued.length > 0) {
      const writes = this.#queued;
      this.#queued = [];
      try {
        await this.#file.update((current) => {
          const records = new Map(current.groups.map((record) => [record.groupId, record]));
          for (const write of writes) records.set(write.groupId, mergeGroupWrite(records.get(write.groupId), write));
          return { next: { version: 1, groups: [...records.values()] }, result: undefined };
        });
      } catch (error) {
        this.#lastError = error instanceof Error ? error : new Error(String(error));
        this.#logger?.warn('registry: writing the group registry failed', { file: this.#file.filePath });
      }
    }
    this.#writing = undefined;
  }
}

function parseRegistryFile(raw: unknown): RegistryFile {
  const groups = isRecord(raw) && Array.isArray(raw['groups']) ? raw['groups'] : [];
  return { version: 1, groups: groups.flatMap((item) => (isGroupRecord(item) ? [item] : [])) };
}

function isGroupRecord(value: unknown): value is GroupRecord {
  if (!isRecord(value)) return false;
  const optionalString = (key: string) => value[key] === undefined || typeof value[key] === 'string';
  return (
    typeof value['groupId'] === 'string' &&
    SCOPES.includes(value['scope'] as MemoryScope) &&
    optionalString('workspaceKey') &&
    optionalString('sessionId') &&
    optionalString('title') &&
    (value['episodeNames'] === undefined || (Array.isArray(value['episodeNames']) && value['episodeNames'].every((name) => typeof name === 'string'))) &&
    Array.isArray(value['tools']) &&
    value['tools'].every((tool) => typeof tool === 'string') &&
    typeof value['firstWriteAt'] === 'number' &&
    typeof value['lastWriteAt'] === 'number' &&
    typeof value['messages'] === 'number'
  );
}
