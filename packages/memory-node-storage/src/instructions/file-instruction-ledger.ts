// What `import-instructions` sent, in one JSON file of the state folder (0600): per workspace group
// and instruction file, each imported line by the hash of its content, with the episode it became.
// Re-importing an unchanged line sends nothing; a changed line's record names the memory it
// supersedes. Changed under the cross-process lock and written atomically (LockedJsonFile).
import type { InstructionImports } from '@graphiti-memory/memory-core';
import { isRecord, LockedJsonFile } from '../stores/locked-json-file.js';

/** One line imported from an instruction file. */
export interface ImportedLine {
  /** sha256 (hex) of the line's text: the ledger's key. */
  readonly hash: string;
  /** 1-based, as it was when imported. */
  readonly line: number;
  readonly text: string;
  readonly kind: string;
  readonly groupId: string;
  /** The promotion's episode name (`graphiti-memory.promotion.<hash>`): how its episode is found again. */
  readonly episodeName: string;
  /** ISO 8601. */
  readonly importedAt: string;
}

interface LedgerFile {
  readonly version: 1;
  /** `<workspace group>\n<file relative to the workspace>` → its imported lines. */
  readonly files: Readonly<Record<string, readonly ImportedLine[]>>;
}

/** Files a ledger keeps at most (the oldest are let go first): a ledger must stay small. */
const MAX_FILES = 200;
/** Lines kept per file. */
const MAX_LINES = 2_000;

export class FileInstructionLedger implements InstructionImports {
  readonly #filePath: string | (() => Promise<string>);
  #file: Promise<LockedJsonFile<LedgerFile>> | undefined;

  /** `filePath`: the file, or how to find it (a forget bound before the state folder is known). */
  constructor(filePath: string | (() => Promise<string>)) {
    this.#filePath = filePath;
  }

  #open(): Promise<LockedJsonFile<LedgerFile>> {
    const filePath = this.#filePath;
    this.#file ??= (typeof filePath === 'string' ? Promise.resolve(filePath) : filePath()).then((found) => new LockedJsonFile(found, parseLedger));
    return this.#file;
  }

  static key(groupId: string, relativeFile: string): string {
    return `${groupId}\n${relativeFile}`;
  }

  /** The lines imported from that file; `[]` for none. */
  async lines(key: string): Promise<readonly ImportedLine[]> {
    return (await (await this.#open()).read()).files[key] ?? [];
  }

  /** Replaces the file's record with `lines`. */
  async replace(key: string, lines: readonly ImportedLine[]): Promise<void> {
    await (await this.#open()).update((current) => {
      const { [key]: _replaced, ...others } = current.files;
      const kept = Object.entries(others).slice(-(MAX_FILES - 1));
      return { next: { version: 1, files: { ...Object.fromEntries(kept), [key]: lines.slice(0, MAX_LINES) } }, result: undefined };
    });
  }

  /** Drops the records of these workspace groups (a forget of the workspace); how many files went. */
  async forgetGroups(groupIds: readonly string[]): Promise<number> {
    const groups = new Set(groupIds);
    return (await this.#open()).update((current) => {
      const kept = Object.entries(current.files).filter(([key]) => !groups.has(key.split('\n')[0] ?? ''));
      const dropped = Object.keys(current.files).length - kept.length;
      return dropped === 0 ? { result: 0 } : { next: { version: 1, files: Object.fromEntries(kept) }, result: dropped };
    });
  }

  /** Drops the lines whose memories are these episodes (a forgotten source); how many lines went. */
  async forgetEpisodes(episodeNames: readonly string[]): Promise<number> {
    const names = new Set(episodeNames);
    if (names.size === 0) return 0;
    return (await this.#open()).update((current) => {
      let dropped = 0;
      const files = Object.fromEntries(
        Object.entries(current.files).map(([key, lines]) => {
          const kept = lines.filter((line) => !names.has(line.episodeName));
          dropped += lines.length - kept.length;
          return [key, kept];
        }),
      );
      return dropped === 0 ? { result: 0 } : { next: { version: 1, files }, result: dropped };
    });
  }
}

function parseLedger(raw: unknown): LedgerFile {
  const files = isRecord(raw) && isRecord(raw['files']) ? raw['files'] : {};
  return {
    version: 1,
    files: Object.fromEntries(Object.entries(files).map(([key, lines]) => [key, Array.isArray(lines) ? lines.filter(isImportedLine) : []])),
  };
}

function isImportedLine(value: unknown): value is ImportedLine {
  return (
    isRecord(value) &&
    typeof value['hash'] === 'string' &&
    typeof value['line'] === 'number' &&
    typeof value['text'] === 'string' &&
    typeof value['kind'] === 'string' &&
    typeof value['groupId'] === 'string' &&
    typeof value['episodeName'] === 'string' &&
    typeof value['importedAt'] === 'string'
  );
}
