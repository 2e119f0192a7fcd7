// Pending memories in one JSON file of the state folder (0600): local only, changed under a lock
// so approving in the harness and in the extension never both send one memory. Every tool keeps
// its pending memories in the same file, so each lists what any of them holds for review.
import { promises as fs } from 'node:fs';
import { forgottenWith, type Logger, type PendingMemory, type PendingMemoryStore, type PromotionScope } from '@graphiti-memory/memory-core';
import { isRecord, LockedJsonFile } from '../stores/locked-json-file.js';

export interface FilePendingMemoryStoreOptions {
  /** The file, or how to find it (the extension learns the state folder asynchronously). */
  readonly filePath: string | (() => Promise<string>);
  readonly logger?: Logger;
}

interface PendingFile {
  readonly version: 1;
  readonly memories: readonly PendingMemory[];
}

export class FilePendingMemoryStore implements PendingMemoryStore {
  readonly #options: FilePendingMemoryStoreOptions;
  #file: Promise<LockedJsonFile<PendingFile>> | undefined;

  constructor(options: FilePendingMemoryStoreOptions) {
    this.#options = options;
  }

  /** The file (resolved once). */
  async filePath(): Promise<string> {
    return (await this.#open()).filePath;
  }

  async add(memory: PendingMemory): Promise<boolean> {
    return (await this.#open()).update((current) =>
      current.memories.some((known) => known.id === memory.id)
        ? { result: false }
        : { next: { version: 1, memories: [...current.memories, memory] }, result: true },
    );
  }

  async list(): Promise<readonly PendingMemory[]> {
    return [...(await (await this.#open()).read()).memories].sort((left, right) => left.createdAt - right.createdAt);
  }

  async take(id: string): Promise<PendingMemory | undefined> {
    return (await this.#open()).update((current) => {
      const memory = current.memories.find((known) => known.id === id);
      if (memory === undefined) return { result: undefined };
      return { next: { version: 1, memories: current.memories.filter((known) => known.id !== id) }, result: memory };
    });
  }

  async forgetGroups(groupIds: readonly string[], scopesWithoutGroup: readonly PromotionScope[] = [], sessionsWithoutGroup: readonly string[] = []): Promise<number> {
    const forget = { groupIds: new Set(groupIds), scopesWithoutGroup, sessionsWithoutGroup: new Set(sessionsWithoutGroup) };
    return (await this.#open()).update((current) => {
      const kept = current.memories.filter((memory) => !forgottenWith(memory, forget));
      const dropped = current.memories.length - kept.length;
      return dropped === 0 ? { result: 0 } : { next: { version: 1, memories: kept }, result: dropped };
    });
  }

  #open(): Promise<LockedJsonFile<PendingFile>> {
    const { filePath, logger } = this.#options;
    this.#file ??= (typeof filePath === 'string' ? Promise.resolve(filePath) : filePath()).then((found) => new LockedJsonFile(found, parsePendingFile, logger));
    return this.#file;
  }
}

/**
 * Moves the memories of a pending file kept elsewhere (the extension's, before every tool shared
 * one) into `store`, then removes that file. Taken by renaming it first, so two processes never
 * both import it. Returns how many memories were added (one already pending counts once).
 */
export async function adoptPendingMemories(fromFile: string, store: PendingMemoryStore): Promise<number> {
  const taken = `${fromFile}.adopting-${process.pid}`;
  try {
    await fs.rename(fromFile, taken);
  } catch {
    return 0;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(taken, 'utf8')) as unknown;
  } catch {
    raw = undefined;
  }
  let added = 0;
  for (const memory of parsePendingFile(raw).memories) if (await store.add(memory)) added++;
  await fs.rm(taken, { force: true });
  return added;
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
    (value['scope'] === 'workspace' || value['scope'] === 'user' || value['scope'] === 'team') &&
    typeof value['text'] === 'string' &&
    (value['source'] === 'remember-tool' || value['source'] === 'directive' || value['source'] === 'loop-proposal') &&
    typeof value['createdAt'] === 'number' &&
    (value['sessionId'] === undefined || typeof value['sessionId'] === 'string') &&
    (value['groupId'] === undefined || typeof value['groupId'] === 'string') &&
    (value['groupIds'] === undefined || (Array.isArray(value['groupIds']) && value['groupIds'].every((groupId) => typeof groupId === 'string'))) &&
    // A loop proposal is only one with its action: without it, approving would promote it as plain text.
    (value['source'] === 'loop-proposal' ? isPendingLoop(value['loop']) : value['loop'] === undefined)
  );
}

function isPendingLoop(value: unknown): boolean {
  if (!isRecord(value) || typeof value['text'] !== 'string') return false;
  const evidence = value['evidence'];
  const evidenceOk = isRecord(evidence) && typeof evidence['tool'] === 'string' && typeof evidence['at'] === 'string' && (evidence['sessionId'] === undefined || typeof evidence['sessionId'] === 'string');
  if (value['action'] === 'open') return evidenceOk && value['loopId'] === undefined;
  return value['action'] === 'done' && evidenceOk && typeof value['loopId'] === 'string';
}
