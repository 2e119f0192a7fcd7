// The cold part of the outbox's delivery ledger: keys of messages that left the journals
// (confirmed or dropped, then compacted away), shared by every process of the folder. Each
// append opens, writes, fsyncs and closes under a short cross-process lock, so a rewrite by one
// process (when the file grows past twice its bound) never loses another process's keys.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { syncDirectory } from '../journal/journal-file.js';
import { PRIVATE_FILE_MODE } from '../stores/private-folder.js';
import { encodeJournalLine, scanJournal } from '../journal/journal-line.js';
import { lockWithin, type LockTiming } from './file-locks.js';

export const LEDGER_FILE_NAME = 'delivery-ledger.journal';

export class SharedLedgerFile {
  readonly filePath: string;
  readonly fileName = LEDGER_FILE_NAME;

  constructor(
    directory: string,
    private readonly maxEntries: number,
    private readonly timing: LockTiming,
  ) {
    this.filePath = path.join(directory, LEDGER_FILE_NAME);
  }

  /** Keys in the file, oldest first, at most `maxEntries`; damaged lines are skipped. */
  async load(): Promise<{ keys: string[]; tornLines: number; corruptLines: number }> {
    const content = await fs.readFile(this.filePath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return Buffer.alloc(0);
      throw error;
    });
    const scan = scanJournal(content);
    const keys = new Set<string>();
    for (const value of scan.values) {
      if (typeof value !== 'string') continue;
      keys.delete(value);
      keys.add(value);
    }
    return { keys: [...keys].slice(-this.maxEntries), tornLines: scan.tornLines, corruptLines: scan.corruptLines };
  }

  /** Appends `keys` durably; rewrites the file (deduplicated, bounded) when it grew too long. */
  async append(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const lock = await lockWithin(this.filePath, this.timing, Math.max(this.timing.staleMs * 3, 10_000));
    try {
      const text = keys.map((key) => encodeJournalLine(key)).join('');
      const handle = await fs.open(this.filePath, 'a+', PRIVATE_FILE_MODE);
      let size: number;
      try {
        // A torn tail from a crashed writer is cut off first, so the new lines start on a boundary.
        const validLength = await lastLineEnd(handle);
        const { size: currentSize } = await handle.stat();
        if (validLength < currentSize) await handle.truncate(validLength);
        await handle.write(text, null, 'utf8');
        await handle.datasync();
        size = validLength + Buffer.byteLength(text, 'utf8');
      } finally {
        await handle.close();
      }
      const averageLineBytes = Buffer.byteLength(text, 'utf8') / keys.length;
      if (size / averageLineBytes > this.maxEntries * 2) await this.#rewrite();
    } finally {
      await lock.release();
    }
  }

  async #rewrite(): Promise<void> {
    const { keys } = await this.load();
    await writeFileAtomic(this.filePath, keys.map((key) => encodeJournalLine(key)).join(''), { fsync: true, mode: PRIVATE_FILE_MODE });
    // write-file-atomic fsyncs the file, not the folder: without this the rename could be lost.
    await syncDirectory(path.dirname(this.filePath));
  }
}

/** Bytes up to and including the last line break (reads only the tail of the file). */
async function lastLineEnd(handle: fs.FileHandle): Promise<number> {
  const { size } = await handle.stat();
  const chunk = 64 * 1024;
  for (let end = size; end > 0; end -= chunk) {
    const start = Math.max(0, end - chunk);
    const buffer = Buffer.alloc(end - start);
    await handle.read(buffer, 0, buffer.length, start);
    const newline = buffer.lastIndexOf(0x0a);
    if (newline !== -1) return start + newline + 1;
  }
  return 0;
}
