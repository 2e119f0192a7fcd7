// Which turns of one transcript the agent hooks already took (a file of the state folder, at
// `transcriptLedgerFile`). A transcript without a ledger was never seen by the hooks. Additions
// are merged under a cross-process lock and written atomically, so events captured at once (a
// hook server answers several; runners may run side by side) never lose one another's turns.
import type { Logger } from '@graphiti-memory/memory-core';
import { isRecord, LockedJsonFile } from '../stores/locked-json-file.js';

export interface FileTranscriptLedgerOptions {
  readonly filePath: string;
  /** Ids kept, newest last; default 20,000. */
  readonly maxIds?: number;
  readonly logger?: Logger;
}

interface LedgerFile {
  readonly ids: readonly string[];
}

const DEFAULT_MAX_IDS = 20_000;

export class FileTranscriptLedger {
  readonly #file: LockedJsonFile<LedgerFile | undefined>;
  readonly #maxIds: number;

  constructor(options: FileTranscriptLedgerOptions) {
    this.#file = new LockedJsonFile(options.filePath, parseLedgerFile, options.logger);
    this.#maxIds = options.maxIds ?? DEFAULT_MAX_IDS;
  }

  /**
   * The ids taken so far; `undefined` when the hooks never took anything from this transcript (a
   * damaged ledger counts as that too: the delivery ledger still refuses what was sent).
   */
  async taken(): Promise<ReadonlySet<string> | undefined> {
    const file = await this.#file.read();
    return file === undefined ? undefined : new Set(file.ids);
  }

  /** Adds `ids` after those already recorded (by this process or another). */
  add(ids: readonly string[]): Promise<void> {
    return this.#file.update((current) => {
      const known = new Set(current?.ids);
      const added = [...new Set(ids)].filter((id) => !known.has(id));
      if (current !== undefined && added.length === 0) return { result: undefined };
      return { next: { ids: [...(current?.ids ?? []), ...added].slice(-this.#maxIds) }, result: undefined };
    });
  }
}

function parseLedgerFile(raw: unknown): LedgerFile | undefined {
  if (!isRecord(raw) || !Array.isArray(raw['ids'])) return undefined;
  return { ids: raw['ids'].filter((id): id is string => typeof id === 'string') };
}
