// A read-only look at an endpoint's outbox for what the user is told about delivery (memory-core's
// `deliveryNotice`): dead letters, and messages still undelivered after LONG_WAIT_MS. It reads the
// journals as they are, without their locks (a writer may be mid-line: a torn tail is skipped),
// and never changes them. Journals adopted by another are left out; one record is counted once.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { LONG_WAIT_MS, type DeliveryCounts } from '@graphiti-memory/memory-core';
import { scanJournal } from '../journal/journal-line.js';
import { JOURNAL_FILE_PATTERN } from './journal-adoption.js';
import { replayEntries, type MutableOutboxRecord } from './outbox-journal-entry.js';

/** Journals beyond this total are not read (the counts would cost a prompt more than they are worth). */
const MAX_SUMMARY_BYTES = 32 * 1024 * 1024;

/** Dead letters and long-waiting messages of the outbox in `directory`; zeros when it has none or cannot be read. */
export async function readOutboxSummary(directory: string, now: number): Promise<DeliveryCounts> {
  let names: string[];
  try {
    names = (await fs.readdir(directory)).filter((name) => JOURNAL_FILE_PATTERN.test(name)).sort();
  } catch {
    return { deadLetters: 0, waiting: 0 };
  }
  const replayed = [];
  let bytes = 0;
  for (const name of names) {
    const content = await fs.readFile(path.join(directory, name)).catch(() => undefined);
    if (content === undefined) continue;
    bytes += content.length;
    if (bytes > MAX_SUMMARY_BYTES) break;
    replayed.push({ name, journal: replayEntries(scanJournal(content).values) });
  }
  const adopted = new Set(replayed.flatMap(({ journal }) => [...journal.adoptedFiles]));
  const records = new Map<string, MutableOutboxRecord>();
  for (const { name, journal } of replayed) {
    if (adopted.has(name)) continue;
    for (const record of journal.records.values()) records.set(record.id, record);
  }
  let deadLetters = 0;
  let waiting = 0;
  let oldestWaitingAt: number | undefined;
  for (const record of records.values()) {
    if (record.state === 'dead') deadLetters++;
    else if (now - record.enqueuedAt > LONG_WAIT_MS) {
      waiting++;
      oldestWaitingAt = Math.min(oldestWaitingAt ?? record.enqueuedAt, record.enqueuedAt);
    }
  }
  return { deadLetters, waiting, ...(oldestWaitingAt === undefined ? {} : { oldestWaitingAt }) };
}
