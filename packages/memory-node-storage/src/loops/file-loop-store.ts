// Open loops in one JSON file of the state folder (0600), shared by every tool: a Stop hook adds
// what a turn opened, SessionStart reads it for the brief, `graphiti-harness loops done` closes.
// Changed under the cross-process lock and written atomically (LockedJsonFile), so a crash leaves
// the old or the new file and a damaged one is kept aside as `<file>.corrupt`; bounded by
// memory-core's `boundedLoops`; records that are not loops are left out when read.
import { boundedLoops, type LoopStore, type Logger, type OpenLoop } from '@graphiti-memory/memory-core';
import { isRecord, LockedJsonFile } from '../stores/locked-json-file.js';

interface LoopFile {
  readonly version: 1;
  readonly loops: readonly OpenLoop[];
}

export interface FileLoopStoreOptions {
  /** The file, or how to find it (the extension learns the state folder asynchronously). */
  readonly filePath: string | (() => Promise<string>);
  readonly logger?: Logger;
  /** The bound's clock (tests). */
  readonly now?: () => Date;
}

export class FileLoopStore implements LoopStore {
  readonly #options: FileLoopStoreOptions;
  #file: Promise<LockedJsonFile<LoopFile>> | undefined;

  constructor(options: FileLoopStoreOptions) {
    this.#options = options;
  }

  async list(): Promise<readonly OpenLoop[]> {
    return (await (await this.#open()).read()).loops;
  }

  async update<T>(change: (current: readonly OpenLoop[]) => { readonly next?: readonly OpenLoop[]; readonly result: T }): Promise<T> {
    const now = this.#options.now ?? (() => new Date());
    return (await this.#open()).update((current) => {
      const { next, result } = change(current.loops);
      return next === undefined ? { result } : { next: { version: 1, loops: boundedLoops(next, now()) }, result };
    });
  }

  #open(): Promise<LockedJsonFile<LoopFile>> {
    const { filePath, logger } = this.#options;
    this.#file ??= (typeof filePath === 'string' ? Promise.resolve(filePath) : filePath()).then((found) => new LockedJsonFile(found, parseLoopFile, logger));
    return this.#file;
  }
}

function parseLoopFile(raw: unknown): LoopFile {
  const loops = isRecord(raw) && Array.isArray(raw['loops']) ? raw['loops'] : [];
  return { version: 1, loops: loops.filter(isOpenLoop) };
}

function isEvidence(value: unknown): boolean {
  return isRecord(value) && typeof value['tool'] === 'string' && typeof value['at'] === 'string' && (value['sessionId'] === undefined || typeof value['sessionId'] === 'string');
}

function isOpenLoop(value: unknown): value is OpenLoop {
  return (
    isRecord(value) &&
    typeof value['id'] === 'string' &&
    typeof value['text'] === 'string' &&
    value['scope'] === 'workspace' &&
    typeof value['groupId'] === 'string' &&
    (value['status'] === 'open' || value['status'] === 'done' || value['status'] === 'dropped') &&
    isEvidence(value['evidence']) &&
    typeof value['createdAt'] === 'string' &&
    typeof value['updatedAt'] === 'string' &&
    typeof value['mentions'] === 'number' &&
    (value['closed'] === undefined || isEvidence(value['closed']))
  );
}
