import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { enqueuedLine, replayFile, temporaryDirectory, writeJournal } from '../../test-support/journal-fixtures.js';
import { JournalFile } from '../journal/journal-file.js';
import { FileDeliveryLedger } from '../stores/file-delivery-ledger.js';
import { collectOrphans, importOrphans } from './journal-adoption.js';
import { RecordIndex } from './record-index.js';

const timing = { staleMs: 2_000, updateMs: 1_000 };

describe('importOrphans', () => {
  it('imports nothing of a journal whose lock another adopter took over after it was collected (no record sent twice)', async () => {
    const directory = await temporaryDirectory('adoption-');
    await writeJournal(directory, 'outbox-dead-1.journal', [enqueuedLine('dead-1-0', 0), enqueuedLine('dead-1-1', 1)]);
    await writeJournal(directory, 'outbox-dead-2.journal', [enqueuedLine('dead-2-0', 2)]);
    const own = 'outbox-self.journal';
    const orphans = await collectOrphans(directory, own, timing, () => {});
    expect(orphans.map((orphan) => orphan.fileName).sort()).toEqual(['outbox-dead-1.journal', 'outbox-dead-2.journal']);

    // This process stalled past the lock's staleness; another adopter replaced the lock of dead-1.
    const lock = path.join(directory, 'outbox-dead-1.journal.lock');
    await fs.rm(lock, { recursive: true });
    // (A folder made in between takes the freed inode, so the check does not rest on birth times.)
    await fs.mkdir(path.join(directory, 'inode-taker'));
    await fs.mkdir(lock);

    const journal = await JournalFile.open(path.join(directory, own), 0, 0, { commitIntervalMs: 5 });
    const index = new RecordIndex();
    const ledger = new FileDeliveryLedger(directory, own, 1_000, timing, () => {});
    try {
      expect(await importOrphans(directory, orphans, { journal, index, ledger, noteDamage: () => {} })).toBe(1);
      expect([...(await replayFile(path.join(directory, own))).records.keys()]).toEqual(['dead-2-0']);
      // dead-1 stays for the process that holds its lock now; dead-2 was taken over and removed.
      await expect(fs.stat(path.join(directory, 'outbox-dead-1.journal'))).resolves.toBeDefined();
      await expect(fs.stat(path.join(directory, 'outbox-dead-2.journal'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await journal.close();
    }
  });
});
