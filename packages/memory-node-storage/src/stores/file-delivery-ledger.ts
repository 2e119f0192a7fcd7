// The de-duplication ledger on disk: an append-only journal of keys (`<groupId>:<episode name>`),
// one self-checking line each, group-committed like the outbox. Bounded: beyond `maxEntries` the
// oldest keys are forgotten, and the file is rewritten when forgotten lines dominate.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { DeliveryLedger, Logger } from '@graphiti-memory/memory-core';
import { JournalFile } from '../journal/journal-file.js';
import { scanJournal } from '../journal/journal-line.js';

export interface FileDeliveryLedgerOptions {
  readonly filePath: string;
  /** Keys remembered; the oldest are forgotten beyond it. Default 100 000. */
  readonly maxEntries?: number;
  /** Default 25 ms. */
  readonly commitIntervalMs?: number;
  readonly logger?: Logger;
}

export interface LedgerRecovery {
  readonly tornLines: number;
  readonly corruptLines: number;
  readonly entries: number;
}

export class FileDeliveryLedger implements DeliveryLedger {
  readonly #keys: Set<string>;
  #compacting = false;

  private constructor(
    private readonly journal: JournalFile,
    keys: Set<string>,
    private readonly maxEntries: number,
    private readonly recoveryReport: LedgerRecovery,
    private readonly logger: Logger | undefined,
  ) {
    this.#keys = keys;
  }

  /** Opens the ledger; torn and corrupt lines are skipped and counted (`recovery()`), never fatal. */
  static async open(options: FileDeliveryLedgerOptions): Promise<FileDeliveryLedger> {
    const filePath = path.resolve(options.filePath);
    await fs.mkdir(path.dirname(filePath), { recursive: true });
    const content = await fs.readFile(filePath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return Buffer.alloc(0);
      throw error;
    });
    const scan = scanJournal(content);
    const maxEntries = Math.max(1, options.maxEntries ?? 100_000);
    const keys = new Set<string>();
    let corruptLines = scan.corruptLines;
    for (const value of scan.values) {
      if (typeof value !== 'string') {
        corruptLines++;
        continue;
      }
      keys.delete(value);
      keys.add(value);
    }
    trimOldest(keys, maxEntries);
    const journal = await JournalFile.open(filePath, scan.validLength, scan.lineCount, {
      commitIntervalMs: Math.max(1, options.commitIntervalMs ?? 25),
      onWriteError: (error) => options.logger?.error('delivery ledger write failed; retrying', { code: (error as NodeJS.ErrnoException).code ?? 'unknown' }),
    });
    const recovery = { tornLines: scan.tornLines, corruptLines, entries: keys.size };
    if (scan.tornLines + corruptLines > 0) options.logger?.warn('delivery ledger recovered', { file: filePath, tornLines: scan.tornLines, corruptLines });
    return new FileDeliveryLedger(journal, keys, maxEntries, recovery, options.logger);
  }

  has(key: string): boolean {
    return this.#keys.has(key);
  }

  add(key: string): void {
    if (this.#keys.has(key)) return;
    this.#keys.add(key);
    this.journal.append(key);
    trimOldest(this.#keys, this.maxEntries);
    this.#maybeCompact();
  }

  size(): number {
    return this.#keys.size;
  }

  recovery(): LedgerRecovery {
    return this.recoveryReport;
  }

  flush(): Promise<void> {
    return this.journal.flush();
  }

  close(): Promise<void> {
    return this.journal.close();
  }

  #maybeCompact(): void {
    if (this.#compacting || this.journal.lineCount < Math.max(1_000, this.#keys.size * 2)) return;
    this.#compacting = true;
    this.journal
      .rewrite(() => [...this.#keys])
      .catch((error: unknown) => this.logger?.warn('delivery ledger compaction failed', { code: (error as NodeJS.ErrnoException).code ?? 'unknown' }))
      .finally(() => {
        this.#compacting = false;
      });
  }
}

function trimOldest(keys: Set<string>, maxEntries: number): void {
  for (const key of keys) {
    if (keys.size <= maxEntries) return;
    keys.delete(key);
  }
}
