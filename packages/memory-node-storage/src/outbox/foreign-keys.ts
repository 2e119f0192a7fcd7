// What the other writers of an outbox folder have accepted: the delivery-ledger keys in their
// journals and in the shared ledger file. Read incrementally (journals only grow, except when
// compaction replaces one, which a new inode or a shorter file shows), so checking before every
// admission costs only the bytes written since the last check.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { scanJournal } from '../journal/journal-line.js';
import { asOutboxJournalEntry, ledgerKeyOf } from './outbox-journal-entry.js';
import { JOURNAL_FILE_PATTERN } from './journal-adoption.js';
import { LEDGER_FILE_NAME } from './shared-ledger-file.js';

/** Passes of one read when journals keep vanishing under it (adopters at work). */
const MAX_PASSES = 5;

interface ReadPosition {
  readonly inode: number;
  readonly offset: number;
}

export class ForeignKeyReader {
  readonly #positions = new Map<string, ReadPosition>();

  constructor(
    private readonly directory: string,
    private readonly ownFileName: string,
    /** Test seam: runs before each file of a pass is read (to interleave another process's step). */
    private readonly hooks?: { readonly beforeRead?: (fileName: string) => Promise<void> },
  ) {}

  /**
   * Keys written by other processes since the last call (all of them on the first call). Keys only
   * move from a journal to another file before that journal loses them (adoption imports, then
   * deletes; close and compaction write the shared ledger file, then delete or rewrite), so the
   * shared file is read last, and a pass during which a listed journal vanished is read again:
   * otherwise a key could be in neither file when each was read, and be admitted twice.
   */
  async readNew(): Promise<string[]> {
    const keys: string[] = [];
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const { vanished } = await this.#pass(keys);
      if (!vanished) break;
    }
    return keys;
  }

  async #pass(keys: string[]): Promise<{ vanished: boolean }> {
    const names = await fs.readdir(this.directory).catch(() => [] as string[]);
    const journals = names.filter((name) => JOURNAL_FILE_PATTERN.test(name) && name !== this.ownFileName).sort();
    const present = new Set<string>();
    let vanished = false;
    for (const name of [...journals, ...(names.includes(LEDGER_FILE_NAME) ? [LEDGER_FILE_NAME] : [])]) {
      const isJournal = name !== LEDGER_FILE_NAME;
      await this.hooks?.beforeRead?.(name);
      const content = await this.#readAppended(name);
      if (content === 'missing') {
        vanished ||= isJournal;
        continue;
      }
      present.add(name);
      if (content === undefined) continue;
      for (const value of scanJournal(content).values) {
        if (!isJournal) {
          if (typeof value === 'string') keys.push(value);
          continue;
        }
        const entry = asOutboxJournalEntry(value);
        if (entry?.t === 'enqueued') {
          const key = ledgerKeyOf(entry.groupId, entry.message.name);
          if (key !== undefined) keys.push(key);
        } else if (entry?.t === 'key') keys.push(entry.key);
      }
    }
    for (const name of this.#positions.keys()) if (!present.has(name)) this.#positions.delete(name);
    return { vanished };
  }

  /** The complete lines appended since the last read; the whole file when it was replaced. */
  async #readAppended(name: string): Promise<Buffer | undefined | 'missing'> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(path.join(this.directory, name), 'r');
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : undefined;
    }
    try {
      const { ino, size } = await handle.stat();
      const known = this.#positions.get(name);
      const start = known !== undefined && known.inode === ino && known.offset <= size ? known.offset : 0;
      if (size <= start) return undefined;
      const buffer = Buffer.alloc(size - start);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
      const end = buffer.lastIndexOf(0x0a, bytesRead - 1);
      if (end === -1) return undefined;
      this.#positions.set(name, { inode: ino, offset: start + end + 1 });
      return buffer.subarray(0, end + 1);
    } finally {
      await handle.close();
    }
  }
}
