// Compaction of an outbox journal: when acknowledged (confirmed, dropped) records outnumber the
// live ones, the journal is rewritten with what it must keep; the ledger keys of the records that
// leave move to the shared ledger file first, so no key is ever only in a deleted line.
import type { Logger } from '@graphiti-memory/memory-core';
import type { JournalFile } from '../journal/journal-file.js';
import type { FileDeliveryLedger } from '../stores/file-delivery-ledger.js';
import { entryFromRecord } from './outbox-journal-entry.js';
import type { RecordIndex } from './record-index.js';

export class JournalCompaction {
  #acknowledged = 0;
  #running = false;
  #count = 0;

  constructor(
    private readonly journal: JournalFile,
    private readonly index: RecordIndex,
    private readonly ledger: FileDeliveryLedger,
    private readonly minimumLines: number,
    /** Compaction waits while adoption runs or after close. */
    private readonly blocked: () => boolean,
    private readonly logger: Logger | undefined,
  ) {}

  get running(): boolean {
    return this.#running;
  }

  get count(): number {
    return this.#count;
  }

  /** `count` records left the journal's live state. */
  acknowledged(count: number): void {
    this.#acknowledged += count;
    this.maybeCompact();
  }

  maybeCompact(): void {
    if (this.#running || this.blocked()) return;
    if (this.journal.lineCount < this.minimumLines || this.#acknowledged <= this.index.live.size) return;
    this.#running = true;
    let covered = 0;
    let moving: string[] = [];
    this.journal
      .rewrite(
        () => {
          covered = this.#acknowledged;
          moving = this.ledger.takeMovable(this.index.keptKeys());
          return this.index.kept().map((record) => entryFromRecord(record));
        },
        () => this.ledger.moveToShared(moving),
      )
      .then(
        () => {
          this.#count++;
          this.#acknowledged -= covered;
        },
        (error: unknown) => {
          this.ledger.restore(moving);
          this.logger?.warn('outbox compaction failed; the journal keeps growing until the next try', { code: (error as NodeJS.ErrnoException).code ?? 'unknown' });
        },
      )
      .finally(() => {
        this.#running = false;
        // Acknowledgements made while this one was written may already dominate again.
        this.maybeCompact();
      });
  }
}
