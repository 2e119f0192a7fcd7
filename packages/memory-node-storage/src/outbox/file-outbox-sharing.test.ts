// Issue 15 and issue 13 at the level of one folder shared by several outboxes (as by several
// processes): admission under one lock, forgetting, dead letters, offered-is-not-sent, lost locks,
// damaged journals and private files.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { InMemoryDeliveryLedger } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { encodeJournalLine } from '../journal/journal-line.js';
import { FileOutbox } from './file-outbox.js';
import { entry, journalFiles, temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { closingOutboxes } from '../../test-support/outboxes.js';

const openOutbox = closingOutboxes();

const entries = (from: number, to: number, groupId = 'group_a') => Array.from({ length: to - from }, (_, offset) => entry(from + offset, groupId));

describe('FileOutbox shared by several writers', () => {
  it('admits each message once between two outboxes opened on one folder at the same moment', async () => {
    const directory = await temporaryDirectory();
    const [first, second] = await Promise.all([openOutbox({ directory }), openOutbox({ directory })]);
    const [a, b] = await Promise.all([first.admit(entries(0, 40), first.deliveryLedger), second.admit(entries(0, 40), second.deliveryLedger)]);
    expect(a.accepted + b.accepted).toBe(40);
    expect(a.duplicates + b.duplicates).toBe(40);
    expect(first.size() + second.size()).toBe(40);
  });

  it('checks a separate ledger too and counts duplicates within one batch', async () => {
    const directory = await temporaryDirectory();
    const outbox = await openOutbox({ directory });
    const ledger = new InMemoryDeliveryLedger();
    ledger.add('group_a:test.turn.1.user');
    const result = await outbox.admit([entry(1), entry(2), entry(2)], ledger);
    expect(result).toEqual({ accepted: 1, dropped: 0, duplicates: 2 });
    expect(ledger.has('group_a:test.turn.2.user')).toBe(true);
  });

  it('keeps the keys of a closed, fully confirmed outbox: the next one admits nothing again', async () => {
    const directory = await temporaryDirectory();
    const first = await FileOutbox.open({ directory, commitIntervalMs: 5 });
    await first.admit(entries(0, 5), first.deliveryLedger);
    const records = await first.pending(10);
    first.markSent(records.map((record) => record.id), 1);
    first.markConfirmed(records.map((record) => record.id));
    await first.close();
    expect(await journalFiles(directory)).toEqual([]);
    const second = await openOutbox({ directory });
    expect(await second.admit(entries(0, 5), second.deliveryLedger)).toEqual({ accepted: 0, dropped: 0, duplicates: 5 });
  });

  it('gives records offered but never sent back as pending at close (offered is not sent)', async () => {
    const directory = await temporaryDirectory();
    const first = await FileOutbox.open({ directory, commitIntervalMs: 5 });
    first.append(entries(0, 4));
    const offered = await first.pending(4);
    first.markSent([offered[0]!.id], 1);
    await first.close();
    const second = await openOutbox({ directory });
    expect((await second.inFlight()).map((record) => record.message.name)).toEqual(['test.turn.0.user']);
    expect((await second.pending(10)).map((record) => record.message.name)).toEqual(['test.turn.1.user', 'test.turn.2.user', 'test.turn.3.user']);
  });

  it('forgets the queued records of groups, durably, and never admits their keys again', async () => {
    const directory = await temporaryDirectory();
    const first = await FileOutbox.open({ directory, commitIntervalMs: 5 });
    await first.admit([...entries(0, 3, 'group_a'), ...entries(0, 2, 'group_b'), ...entries(5, 6, 'group_c')], first.deliveryLedger);
    const [sent] = await first.pending(1);
    first.markSent([sent!.id], 1);
    const [cRecord] = (await first.pending(10)).filter((record) => record.groupId === 'group_c');
    first.markDropped([cRecord!.id], 'dead-letter', 'HTTP 500');
    expect(await first.forgetGroups(['group_a', 'group_c'])).toBe(4);
    expect(first.size()).toBe(2);
    expect(first.deadLetters()).toEqual([]);
    expect(await first.admit(entries(0, 3, 'group_a'), first.deliveryLedger)).toMatchObject({ accepted: 0, duplicates: 3 });
    await first.close();
    const second = await openOutbox({ directory });
    expect((await second.pending(10)).map((record) => record.groupId)).toEqual(['group_b', 'group_b']);
    expect(await second.admit(entries(0, 3, 'group_a'), second.deliveryLedger)).toMatchObject({ accepted: 0, duplicates: 3 });
  });

  it('keeps dead letters with their last error across processes; retry and drop them', async () => {
    const directory = await temporaryDirectory();
    const first = await FileOutbox.open({ directory, commitIntervalMs: 5, now: () => 1_000 });
    first.append(entries(0, 3));
    const records = await first.pending(3);
    first.markSent([records[0]!.id, records[1]!.id], 500);
    first.markDropped([records[0]!.id, records[1]!.id], 'dead-letter', 'failed 8 times, last: HTTP 500');
    expect(first.size()).toBe(1);
    await first.close();
    const second = await openOutbox({ directory, now: () => 2_000 });
    expect(second.deadLetters()).toEqual([
      { id: records[0]!.id, groupId: 'group_a', name: 'test.turn.0.user', enqueuedAt: 1_000, attempts: 1, deadAt: 1_000, lastError: 'failed 8 times, last: HTTP 500' },
      { id: records[1]!.id, groupId: 'group_a', name: 'test.turn.1.user', enqueuedAt: 1_000, attempts: 1, deadAt: 1_000, lastError: 'failed 8 times, last: HTTP 500' },
    ]);
    expect(second.stats()).toMatchObject({ size: 1, deadLetters: 2 });
    expect(second.retryDeadLetters([records[0]!.id])).toBe(1);
    expect(second.dropDeadLetters()).toBe(1);
    await second.close();
    const third = await openOutbox({ directory });
    expect(third.deadLetters()).toEqual([]);
    expect((await third.pending(10)).map((record) => [record.message.name, record.attempts, record.enqueuedAt])).toEqual([
      ['test.turn.2.user', 0, 1_000],
      ['test.turn.0.user', 0, 2_000],
    ]);
  });

  it('stops sending when its journal lock is removed, and the next process takes the records over', async () => {
    const directory = await temporaryDirectory();
    const first = await openOutbox({ directory });
    first.append(entries(0, 3));
    await first.flush();
    expect(await first.acquireDrain()).toBe(true);
    expect(await first.holdsDrain()).toBe(true);
    await fs.rm(`${first.stats().journalPath}.lock`, { recursive: true });
    expect(await first.holdsDrain()).toBe(false);
    expect(await first.acquireDrain()).toBe(false);
    expect(await first.pending(10)).toEqual([]);
    expect(first.stats().fenced).toBe(true);
    const second = await openOutbox({ directory });
    expect(second.recovery().adoptedRecords).toBe(3);
  });

  it('stops sending when the drain lock is replaced by another process', async () => {
    const directory = await temporaryDirectory();
    const first = await openOutbox({ directory });
    expect(await first.acquireDrain()).toBe(true);
    await fs.rm(path.join(directory, 'drain.lock'), { recursive: true });
    const second = await openOutbox({ directory });
    expect(await second.acquireDrain()).toBe(true);
    expect(await first.holdsDrain()).toBe(false);
  });

  it('offers again what a damaged journal cannot prove accepted, and reports the damage', async () => {
    const directory = await temporaryDirectory();
    const first = await FileOutbox.open({ directory, commitIntervalMs: 5 });
    await first.admit(entries(0, 20), first.deliveryLedger);
    await first.close();
    const [journal] = await journalFiles(directory);
    const filePath = path.join(directory, journal!);
    const content = await fs.readFile(filePath);
    const lines = content.toString('utf8').split('\n');
    // One line overwritten in the middle, and the file cut in the middle of a later line.
    lines[3] = 'x'.repeat(lines[3]!.length);
    const damaged = lines.join('\n');
    await fs.writeFile(filePath, damaged.slice(0, Math.floor(damaged.length * 0.75)));
    const second = await openOutbox({ directory });
    const recovery = second.recovery();
    expect(recovery.corruptLines).toBe(1);
    expect(recovery.tornLines).toBe(1);
    expect(recovery.damagedFiles).toEqual([journal]);
    const result = await second.admit(entries(0, 20), second.deliveryLedger);
    expect(result.accepted).toBe(20 - recovery.adoptedRecords);
    expect(second.size()).toBe(20);
  });

  it('creates its state files readable by the user only', async () => {
    const directory = await temporaryDirectory();
    const outbox = await FileOutbox.open({ directory, commitIntervalMs: 5 });
    await outbox.admit(entries(0, 2), outbox.deliveryLedger);
    const journalPath = outbox.stats().journalPath;
    expect((await fs.stat(journalPath)).mode & 0o777).toBe(0o600);
    const records = await outbox.pending(2);
    outbox.markConfirmed(records.map((record) => record.id));
    await outbox.close();
    expect((await fs.stat(path.join(directory, 'delivery-ledger.journal'))).mode & 0o777).toBe(0o600);
  });
});

describe('FileOutbox upgrading from a separate ledger file', () => {
  it('imports the keys of the earlier ledger file once, so nothing it knew is admitted again', async () => {
    const directory = await temporaryDirectory();
    const legacy = path.join(directory, 'delivery-ledger.journal');
    await fs.writeFile(legacy, ['group_a:test.turn.0.user', 'group_a:test.turn.1.user'].map((key) => encodeJournalLine(key)).join(''));
    const outbox = await openOutbox({ directory: path.join(directory, 'outbox'), legacyLedgerFile: legacy });
    expect(await outbox.admit(entries(0, 3), outbox.deliveryLedger)).toMatchObject({ accepted: 1, duplicates: 2 });
    await expect(fs.stat(legacy)).rejects.toThrow();
    expect((await fs.stat(`${legacy}.imported`)).isFile()).toBe(true);
  });
});
