// Pending memories in one JSON file of the state folder (0600): local only, changed under a lock
// so approving in the harness and in the extension never both send one memory.
import { forgottenWith, type Logger, type PendingMemory, type PendingMemoryStore, type PromotionScope } from '@graphiti-memory/memory-core';
import { isRecord, LockedJsonFile } from '../stores/locked-json-file.js';

export interface FilePendingMemoryStoreOptions {
  readonly filePath: string;
  readonly logger?: Logger;
}

interface PendingFile {
  readonly version: 1;
  readonly memories: readonly PendingMemory[];
}

export class FilePendingMemoryStore implements PendingMemoryStore {
  readonly #file: LockedJsonFile<PendingFile>;

  constructor(options: FilePendingMemoryStoreOptions) {
    this.#file = new LockedJsonFile(options.filePath, parsePendingFile, options.logger);
  }

  get filePath(): string {
    return this.#file.filePath;
  }

  add(memory: PendingMemory): Promise<boolean> {
    return this.#file.update((current) =>
      current.memories.some((known) => known.id === memory.id)
        ? { result: false }
        : { next: { version: 1, memories: [...current.memories, memory] }, result: true },
    );
  }

  async list(): Promise<readonly PendingMemory[]> {
    return [...(await this.#file.read()).memories].sort((left, right) => left.createdAt - right.createdAt);
  }

  take(id: string): Promise<PendingMemory | undefined> {
    return this.#file.update((current) => {
      const memory = current.memories.find((known) => known.id === id);
      if (memory === undefined) return { result: undefined };
      return { next: { version: 1, memories: current.memories.filter((known) => known.id !== id) }, result: memory };
    });
  }

  forgetGroups(groupIds: readonly string[], scopesWithoutGroup: readonly PromotionScope[] = []): Promise<number> {
    const groups = new Set(groupIds);
    return this.#file.update((current) => {
      const kept = current.memories.filter((memory) => !forgottenWith(memory, groups, scopesWithoutGroup));
      const dropped = current.memories.length - kept.length;
      return dropped === 0 ? { result: 0 } : { next: { version: 1, memories: kept }, result: dropped };
    });
  }
}

function parsePendingFile(raw: unknown): PendingFile {
  const memories = isRecord(raw) && Array.isArray(raw['memories']) ? raw['memories'] : [];
  return { version: 1, memories: memories.flatMap((item) => (isPendingMemory(item) ? [item] : [])) };
}

function isPendingMemory(value: unknown): value is PendingMemory {
  return (
    isRecord(value) &&
    typeof value['id'] === 'string' &&
    typeof value['kind'] === 'string' &&
    (value['scope'] === 'workspace' || value['scope'] === 'user') &&
    typeof value['text'] === 'string' &&
    (value['source'] === 'remember-tool' || value['source'] === 'directive') &&
    typeof value['createdAt'] === 'number' &&
    (value['sessionId'] === undefined || typeof value['sessionId'] === 'string') &&
    (value['groupId'] === undefined || typeof value['groupId'] === 'string')
  );
}
