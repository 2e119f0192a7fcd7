import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileOutbox } from './file-outbox.js';
import { encodeJournalLine } from '../journal/journal-line.js';
import { enqueuedLine, entry, journalFiles, replayFile, temporaryDirectory, writeJournal } from '../../test-support/journal-fixtures.js';
import { closingOutboxes } from '../../test-support/outboxes.js';

const openOutbox = closingOutboxes();

describe('FileOutbox', () => {
  it('keeps records through send and confirmation, and journals them durably on flush', async () => {
    const directory = await temporaryDirectory();
    const outbox = await openOutbox({ directory });
    expect(outbox.append([entry(1), entry(2), entry(3)])).toEqual({ accepted: 3, dropped: 0 });
    const [first, second] = await outbox.pending(2);
    expect([first?.message.name, second?.message.name]).toEqual(['test.turn.1.user', 'test.turn.2.user']);
    outbox.markSent([first!.id, second!.id], 1_000);
    outbox.markConfirmed([first!.id]);
    outbox.markPending([second!.id]);
    expect(outbox.size()).toBe(2);
    expect(await outbox.inFlight()).toEqual([]);
    expect((await outbox.pending(10)).map((record) => record.attempts)).toEqual([1, 0]);
    await outbox.flush();
    const replayed = await replayFile(outbox.stats().journalPath);
    expect([...replayed.records.values()].map((record) => [record.message.name, record.state, record.attempts])).toEqual([
      ['test.turn.2.user', 'pending', 1],
      ['test.turn.3.user', 'pending', 0],
    ]);
  });

  it('does not count a send that met an outage (markPending with outage), also after replay', async () => {
    const directory = await temporaryDirectory();
    const outbox = await openOutbox({ directory });
    outbox.append([entry(1)]);
    const [record] = await outbox.pending(1);
    for (let send = 0; send < 3; send++) {
      outbox.markSent([record!.id], 1_000 + send);
      outbox.markPending([record!.id], { outage: true });
    }
    outbox.markSent([record!.id], 2_000);
    outbox.markPending([record!.id]);
    expect((await outbox.pending(10)).map((pending) => pending.attempts)).toEqual([1]);
    await outbox.flush();
    const replayed = await replayFile(outbox.stats().journalPath);
    expect([...replayed.records.values()].map((replayedRecord) => replayedRecord.attempts)).toEqual([1]);
  });

  it('hands records left at close to the next process, in order and with their state', async () => {
    const directory = await temporaryDirectory();
    const first = await FileOutbox.open({ directory });
    first.append([entry(1), entry(2)]);
    const [sent] = await first.pending(1);
    first.markSent([sent!.id], 5);
    await first.close();
    const second = await openOutbox({ directory });
    expect(second.recovery()).toMatchObject({ adoptedJournals: 1, adoptedRecords: 2 });
    expect((await second.inFlight()).map((record) => record.message.name)).toEqual(['test.turn.1.user']);
    expect((await second.pending(10)).map((record) => record.message.name)).toEqual(['test.turn.2.user']);
    expect(await journalFiles(directory)).toEqual([path.basename(second.stats().journalPath)]);
  });

  it('deletes its journal on close when nothing is left', async () => {
    const directory = await temporaryDirectory();
    const outbox = await FileOutbox.open({ directory });
    outbox.append([entry(1)]);
    const [record] = await outbox.pending(1);
    outbox.markConfirmed([record!.id]);
    await outbox.close();
    expect(await journalFiles(directory)).toEqual([]);
  });

  it('recovers a crashed journal with a torn tail and a corrupt line, reporting both', async () => {
    const directory = await temporaryDirectory();
    const torn = encodeJournalLine(enqueuedLine('dead-3', 3)).slice(0, 20);
    await writeJournal(directory, 'outbox-dead-1.journal', [enqueuedLine('dead-1', 1), enqueuedLine('dead-2', 2), { t: 'sent', ids: ['dead-2'], at: 9 }], `0badc0de {"t":"confirmed","ids":["dead-1"]}\n${torn}`);
    const outbox = await openOutbox({ directory });
    expect(outbox.recovery()).toEqual({ tornLines: 1, corruptLines: 1, adoptedJournals: 1, adoptedRecords: 2, damagedFiles: ['outbox-dead-1.journal'] });
    expect((await outbox.pending(10)).map((record) => record.id)).toEqual(['dead-1']);
    expect((await outbox.inFlight()).map((record) => [record.id, record.attempts, record.sentAt])).toEqual([['dead-2', 1, 9]]);
  });

  it('recovers a journal truncated at any byte without failing', async () => {
    const directory = await temporaryDirectory();
    const lines = [enqueuedLine('cut-1', 1), enqueuedLine('cut-2', 2), { t: 'confirmed' as const, ids: ['cut-1'] }];
    const full = lines.map((line) => encodeJournalLine(line)).join('');
    for (const cut of [0, 5, full.length - 60, full.length - 1]) {
      const folder = path.join(directory, `cut-${cut}`);
      await fs.mkdir(folder);
      await fs.writeFile(path.join(folder, 'outbox-cut-1.journal'), full.slice(0, cut));
      const outbox = await openOutbox({ directory: folder });
      expect(outbox.recovery().corruptLines).toBe(0);
      expect(outbox.size()).toBeLessThanOrEqual(2);
      await outbox.close();
    }
  });

  it('skips an orphan that another journal already adopted, and deletes it', async () => {
    const directory = await temporaryDirectory();
    await writeJournal(directory, 'outbox-old-1.journal', [enqueuedLine('old-1', 1)]);
    await writeJournal(directory, 'outbox-mid-1.journal', [enqueuedLine('old-1', 1), { t: 'adopted', files: ['outbox-old-1.journal'] }, { t: 'confirmed', ids: ['old-1'] }, enqueuedLine('mid-2', 2)]);
    const outbox = await openOutbox({ directory });
    expect((await outbox.pending(10)).map((record) => record.id)).toEqual(['mid-2']);
    expect(await journalFiles(directory)).toEqual([path.basename(outbox.stats().journalPath)]);
  });

  it('brings back records a dead process had handed to its sender as in flight, not as unsent', async () => {
    const directory = await temporaryDirectory();
    await writeJournal(directory, 'outbox-dead-2.journal', [enqueuedLine('dead-1', 1), enqueuedLine('dead-2', 2), { t: 'offered', ids: ['dead-1'], at: 50 }]);
    const outbox = await openOutbox({ directory });
    expect((await outbox.inFlight()).map((record) => [record.id, record.sentAt])).toEqual([['dead-1', 50]]);
    expect((await outbox.pending(10)).map((record) => record.id)).toEqual(['dead-2']);
  });

  it('keeps its delivery ledger consistent through compaction, close and adoption', async () => {
    const directory = await temporaryDirectory();
    const first = await FileOutbox.open({ directory, compactMinLines: 10, commitIntervalMs: 1 });
    for (let index = 0; index < 30; index++) {
      first.deliveryLedger.add(`group_a:test.turn.${index}.user`);
      first.append([entry(index)]);
      const records = await first.pending(1);
      first.markSent([records[0]!.id], 1);
      if (index < 29) first.markConfirmed([records[0]!.id]);
    }
    first.deliveryLedger.add('group_a:without-message');
    await first.flush();
    expect(first.stats().compactions).toBeGreaterThan(0);
    await first.close();
    const second = await openOutbox({ directory });
    for (let index = 0; index < 30; index++) expect(second.deliveryLedger.has(`group_a:test.turn.${index}.user`)).toBe(true);
    expect(second.deliveryLedger.has('group_a:without-message')).toBe(true);
    expect(second.deliveryLedger.has('group_a:test.turn.99.user')).toBe(false);
    expect(second.size()).toBe(1);
  });

  it('does not adopt the journal of a live process', async () => {
    const directory = await temporaryDirectory();
    const live = await openOutbox({ directory });
    live.append([entry(1)]);
    await live.flush();
    const other = await openOutbox({ directory });
    expect(other.size()).toBe(0);
    expect(live.size()).toBe(1);
  });

  it('drops the oldest pending records beyond maxQueueSize, never in-flight ones, and counts them', async () => {
    const directory = await temporaryDirectory();
    let limit = 3;
    const outbox = await openOutbox({ directory, maxQueueSize: () => limit });
    outbox.append([entry(1), entry(2)]);
    const [oldest] = await outbox.pending(1);
    outbox.markSent([oldest!.id], 1);
    expect(outbox.append([entry(3), entry(4), entry(5)])).toEqual({ accepted: 2, dropped: 2 });
    expect((await outbox.pending(10)).map((record) => record.message.name)).toEqual(['test.turn.4.user', 'test.turn.5.user']);
    expect((await outbox.inFlight()).map((record) => record.message.name)).toEqual(['test.turn.1.user']);
    limit = 1;
    expect(outbox.append([entry(6)])).toEqual({ accepted: 0, dropped: 3 });
    expect(outbox.stats().droppedOverflow).toBe(5);
    await outbox.flush();
    expect((await replayFile(outbox.stats().journalPath)).records.size).toBe(1);
  });

  it('compacts when acknowledged records dominate, keeping the live state', async () => {
    const directory = await temporaryDirectory();
    const outbox = await openOutbox({ directory, compactMinLines: 50 });
    for (let index = 0; index < 200; index++) {
      if (index % 20 === 0) await outbox.flush();
      outbox.append([entry(index)]);
      const [record] = (await outbox.pending(100)).slice(-1);
      if (index % 10 === 0) continue;
      outbox.markSent([record!.id], index);
      outbox.markConfirmed([record!.id]);
    }
    await outbox.flush();
    const stats = outbox.stats();
    expect(stats.compactions).toBeGreaterThan(0);
    expect(stats.journalLines).toBeLessThan(200);
    const replayed = await replayFile(stats.journalPath);
    expect([...replayed.records.keys()]).toEqual((await outbox.pending(100)).map((record) => record.id));
    expect(replayed.records.size).toBe(20);
  });

  it('journal replay always equals the in-memory state (random operations)', async () => {
    const directory = await temporaryDirectory();
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), count: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constantFrom('sent' as const, 'confirmed' as const, 'pending' as const, 'dropped' as const), pick: fc.nat(20) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 40 }), async (operations) => {
        const folder = await fs.mkdtemp(path.join(directory, 'run-'));
        const outbox = await FileOutbox.open({ directory: folder, commitIntervalMs: 1, compactMinLines: 8, maxQueueSize: 6 });
        let index = 0;
        for (const step of operations) {
          if (step.kind === 'append') outbox.append(Array.from({ length: step.count }, () => entry(index++)));
          else {
            const all = [...(await outbox.pending(100)), ...(await outbox.inFlight())];
            const target = all[step.pick % Math.max(1, all.length)];
            if (target === undefined) continue;
            if (step.kind === 'sent') outbox.markSent([target.id], 7);
            if (step.kind === 'confirmed') outbox.markConfirmed([target.id]);
            if (step.kind === 'pending') outbox.markPending([target.id]);
            if (step.kind === 'dropped') outbox.markDropped([target.id], 'dead-letter');
          }
        }
        await outbox.flush();
        const expected = [
          ...[...(await outbox.pending(100)), ...(await outbox.inFlight())].map((record) => `${record.id}:${record.state}:${record.attempts}`),
          ...outbox.deadLetters().map((letter) => `${letter.id}:dead:${letter.attempts}`),
        ].sort();
        const replayed = await replayFile(outbox.stats().journalPath);
        const actual = [...replayed.records.values()].map((record) => `${record.id}:${record.state}:${record.attempts}`).sort();
        await outbox.close();
        expect(actual).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });

  it('lets one outbox drain at a time and hands the lock over on close', async () => {
    const directory = await temporaryDirectory();
    const first = await openOutbox({ directory });
    const second = await openOutbox({ directory });
    expect(await first.acquireDrain()).toBe(true);
    expect(await first.acquireDrain()).toBe(true);
    expect(await second.acquireDrain()).toBe(false);
    await first.close();
    expect(await second.acquireDrain()).toBe(true);
  });

  it('releases the drain lock when its holder stops draining', async () => {
    const directory = await temporaryDirectory();
    const first = await openOutbox({ directory, drainIdleReleaseMs: 20 });
    const second = await openOutbox({ directory });
    expect(await first.acquireDrain()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await second.acquireDrain()).toBe(true);
  });

  it('refuses appends after close with a message naming the folder', async () => {
    const directory = await temporaryDirectory();
    const outbox = await FileOutbox.open({ directory });
    await outbox.close();
    expect(() => outbox.append([entry(1)])).toThrow(directory);
  });
});
