import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { enqueuedLine, temporaryDirectory, writeJournal } from '../../test-support/journal-fixtures.js';
import { encodeJournalLine } from '../journal/journal-line.js';
import { ForeignKeyReader } from './foreign-keys.js';
import { LEDGER_FILE_NAME } from './shared-ledger-file.js';

const KEY = 'group_a:test.turn.1.user';

describe('ForeignKeyReader', () => {
  it('finds a key whose journal was adopted (imported elsewhere, then deleted) in the middle of a read', async () => {
    const directory = await temporaryDirectory('foreign-keys-');
    // The adopter's journal is read first (names in order), the adopted one after it.
    await writeJournal(directory, 'outbox-a-adopter.journal', []);
    await writeJournal(directory, 'outbox-b-orphan.journal', [enqueuedLine('b-0', 1)]);
    let adopted = false;
    const reader = new ForeignKeyReader(directory, 'outbox-self.journal', {
      beforeRead: async (name) => {
        if (name !== 'outbox-b-orphan.journal' || adopted) return;
        adopted = true;
        // Adoption: the record into the adopter's journal, durably, then the orphan deleted.
        await fs.appendFile(path.join(directory, 'outbox-a-adopter.journal'), encodeJournalLine(enqueuedLine('b-0', 1)));
        await fs.rm(path.join(directory, 'outbox-b-orphan.journal'));
      },
    });
    expect(adopted).toBe(false);
    expect(await reader.readNew()).toContain(KEY);
    expect(adopted).toBe(true);
  });

  it('finds a key a closing process moved from its journal to the shared ledger file in the middle of a read', async () => {
    const directory = await temporaryDirectory('foreign-keys-');
    await writeJournal(directory, 'outbox-closing.journal', [enqueuedLine('c-0', 1)]);
    await fs.writeFile(path.join(directory, LEDGER_FILE_NAME), '');
    let closed = false;
    const reader = new ForeignKeyReader(directory, 'outbox-self.journal', {
      beforeRead: async (name) => {
        if (name !== 'outbox-closing.journal' || closed) return;
        closed = true;
        // Close: the journal's keys into the shared file, then the journal deleted.
        await fs.appendFile(path.join(directory, LEDGER_FILE_NAME), encodeJournalLine(KEY));
        await fs.rm(path.join(directory, 'outbox-closing.journal'));
      },
    });
    expect(await reader.readNew()).toContain(KEY);
  });

  it('finds a key a compaction moved from a journal to the shared ledger file in the middle of a read (the shared file is read last)', async () => {
    const directory = await temporaryDirectory('foreign-keys-');
    await fs.writeFile(path.join(directory, LEDGER_FILE_NAME), '');
    await writeJournal(directory, 'outbox-compacting.journal', [enqueuedLine('c-0', 1), { t: 'confirmed', ids: ['c-0'] }]);
    let compacted = false;
    const reader = new ForeignKeyReader(directory, 'outbox-self.journal', {
      beforeRead: async (name) => {
        if (name !== 'outbox-compacting.journal' || compacted) return;
        compacted = true;
        // Compaction: the confirmed record's key into the shared file, then the journal replaced without it.
        await fs.appendFile(path.join(directory, LEDGER_FILE_NAME), encodeJournalLine(KEY));
        await writeJournal(directory, 'outbox-compacting.journal.next', []);
        await fs.rename(path.join(directory, 'outbox-compacting.journal.next'), path.join(directory, 'outbox-compacting.journal'));
      },
    });
    expect(await reader.readNew()).toContain(KEY);
    expect(compacted).toBe(true);
  });
});
