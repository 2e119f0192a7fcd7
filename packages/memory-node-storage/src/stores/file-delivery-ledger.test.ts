import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileDeliveryLedger } from './file-delivery-ledger.js';
import { encodeJournalLine } from '../journal/journal-line.js';
import { temporaryDirectory } from '../test-support/journal-fixtures.js';

describe('FileDeliveryLedger', () => {
  it('remembers keys across reopening', async () => {
    const filePath = path.join(await temporaryDirectory(), 'ledger.journal');
    const ledger = await FileDeliveryLedger.open({ filePath, commitIntervalMs: 1 });
    ledger.add('group_a:app.turn.1.user');
    ledger.add('group_a:app.turn.1.user');
    ledger.add('group_b:app.turn.2.user');
    await ledger.close();
    const reopened = await FileDeliveryLedger.open({ filePath });
    expect(reopened.has('group_a:app.turn.1.user')).toBe(true);
    expect(reopened.has('group_b:app.turn.2.user')).toBe(true);
    expect(reopened.has('group_a:app.turn.3.user')).toBe(false);
    expect(reopened.size()).toBe(2);
    await reopened.close();
  });

  it('recovers a torn tail and corrupt lines with counts, and keeps appending cleanly', async () => {
    const filePath = path.join(await temporaryDirectory(), 'ledger.journal');
    await fs.writeFile(filePath, encodeJournalLine('k1') + 'garbage line\n' + encodeJournalLine(7) + encodeJournalLine('k2').slice(0, 6));
    const ledger = await FileDeliveryLedger.open({ filePath, commitIntervalMs: 1 });
    expect(ledger.recovery()).toEqual({ tornLines: 1, corruptLines: 2, entries: 1 });
    ledger.add('k3');
    await ledger.close();
    const reopened = await FileDeliveryLedger.open({ filePath });
    expect(reopened.recovery()).toEqual({ tornLines: 0, corruptLines: 2, entries: 2 });
    expect(reopened.has('k3')).toBe(true);
    await reopened.close();
  });

  it('is bounded: forgets the oldest keys and compacts its file', async () => {
    const filePath = path.join(await temporaryDirectory(), 'ledger.journal');
    const ledger = await FileDeliveryLedger.open({ filePath, maxEntries: 100, commitIntervalMs: 1 });
    for (let index = 0; index < 3_000; index++) {
      ledger.add(`g:${index}`);
      if (index % 500 === 0) await ledger.flush();
    }
    await ledger.close();
    expect(ledger.size()).toBe(100);
    expect(ledger.has('g:0')).toBe(false);
    const lines = (await fs.readFile(filePath, 'utf8')).split('\n').length - 1;
    expect(lines).toBeLessThan(3_000);
    const reopened = await FileDeliveryLedger.open({ filePath, maxEntries: 100 });
    expect(reopened.has('g:2999')).toBe(true);
    expect(reopened.size()).toBe(100);
    await reopened.close();
  });
});
