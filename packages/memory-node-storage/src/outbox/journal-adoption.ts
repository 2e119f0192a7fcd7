// Adoption of the journals of dead processes. Each process appends only to its own journal and
// holds that journal's lock while it lives; a journal whose lock can be taken belongs to a process
// that died (or closed with work left). The adopter imports its live records into its own journal,
// makes that durable together with an `adopted` marker naming the file, and only then deletes it.
// A crash between the marker and the delete leaves a file that every later adopter skips, because
// it reads the markers of all journals before importing anything.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { JournalFile } from '../journal/journal-file.js';
import { scanJournal } from '../journal/journal-line.js';
import type { FileDeliveryLedger } from '../stores/file-delivery-ledger.js';
import { tryLock, type HeldLock, type LockTiming } from './file-locks.js';
import { entryFromRecord, recoveredRecord, replayEntries, type MutableOutboxRecord, type OutboxJournalEntry } from './outbox-journal-entry.js';
import type { RecordIndex } from './record-index.js';

export const JOURNAL_FILE_PATTERN = /^outbox-[A-Za-z0-9-]+\.journal$/;

export interface OrphanJournal {
  readonly fileName: string;
  readonly lock: HeldLock;
  /** Live records to import; empty when another journal already took them over. */
  readonly records: readonly MutableOutboxRecord[];
  /** Delivery-ledger keys the journal carried (confirmed records' included). */
  readonly keys: readonly string[];
  readonly tornLines: number;
  readonly corruptLines: number;
}

async function readIfPresent(filePath: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(filePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Locks every journal in `directory` that no live process holds (except `ownFileName`) and reads
 * what it has to import. The caller imports, makes it durable, then calls `removeAdopted`.
 */
export async function collectOrphans(directory: string, ownFileName: string, timing: LockTiming, onCompromised: (error: Error) => void): Promise<OrphanJournal[]> {
  const names = await fs.readdir(directory);
  const journals = names.filter((name) => JOURNAL_FILE_PATTERN.test(name) && name !== ownFileName);
  const locked: { fileName: string; lock: HeldLock }[] = [];
  for (const fileName of journals) {
    const lock = await tryLock(path.join(directory, fileName), timing, onCompromised);
    if (lock !== undefined) locked.push({ fileName, lock });
  }
  // Lock folders left by a process that died between deleting its journal and unlocking it.
  for (const name of names) {
    if (!name.endsWith('.journal.lock')) continue;
    const journalName = name.slice(0, -'.lock'.length);
    if (journals.includes(journalName) || journalName === ownFileName) continue;
    const lock = await tryLock(path.join(directory, journalName), timing, onCompromised);
    await lock?.release();
  }
  if (locked.length === 0) return [];

  // Markers of every other journal, live ones included: a file claimed by any of them is not imported.
  const claimed = new Set<string>();
  const scans = new Map<string, ReturnType<typeof scanJournal>>();
  for (const fileName of journals) {
    const content = await readIfPresent(path.join(directory, fileName));
    if (content === undefined) continue;
    const scan = scanJournal(content);
    scans.set(fileName, scan);
    for (const file of replayEntries(scan.values).adoptedFiles) if (file !== fileName) claimed.add(file);
  }
  return locked.map(({ fileName, lock }) => {
    const scan = scans.get(fileName);
    if (scan === undefined) return { fileName, lock, records: [], keys: [], tornLines: 0, corruptLines: 0 };
    const replayed = replayEntries(scan.values);
    if (claimed.has(fileName)) return { fileName, lock, records: [], keys: [...replayed.keys], tornLines: 0, corruptLines: 0 };
    return {
      fileName,
      lock,
      records: [...replayed.records.values()].map((record) => recoveredRecord(record)),
      keys: [...replayed.keys],
      tornLines: scan.tornLines,
      corruptLines: scan.corruptLines + replayed.corruptEntries,
    };
  });
}

/** Deletes adopted journals (and their leftover compaction files), then releases their locks. */
export async function removeAdopted(directory: string, orphans: readonly OrphanJournal[]): Promise<void> {
  const names = await fs.readdir(directory).catch(() => [] as string[]);
  for (const orphan of orphans) {
    const leftovers = names.filter((name) => name.startsWith(`${orphan.fileName}.`) && name.endsWith('.compacting'));
    for (const name of [orphan.fileName, ...leftovers]) {
      await fs.rm(path.join(directory, name), { force: true });
    }
    await orphan.lock.release();
  }
}

/** Names of the other processes' journals in `directory`. */
export async function otherJournals(directory: string, ownFileName: string): Promise<string[]> {
  const names = await fs.readdir(directory).catch(() => [] as string[]);
  return names.filter((name) => name !== ownFileName && JOURNAL_FILE_PATTERN.test(name));
}

/** Whether another process's journal holds anything (then the drain lease is handed over). */
export async function otherJournalsHoldRecords(directory: string, ownFileName: string): Promise<boolean> {
  for (const name of await otherJournals(directory, ownFileName)) {
    const stat = await fs.stat(path.join(directory, name)).catch(() => undefined);
    if (stat !== undefined && stat.size > 0) return true;
  }
  return false;
}

/** Where adopted records go: the adopter's journal, records and ledger. */
export interface AdoptionTarget {
  readonly journal: JournalFile;
  readonly index: RecordIndex;
  readonly ledger: FileDeliveryLedger;
  noteDamage(fileName: string, tornLines: number, corruptLines: number): void;
}

/**
 * Imports the live records and ledger keys of locked `orphans` into `target`, durably (records,
 * then the `adopted` marker, then the keys into the shared ledger file), then deletes the orphans.
 * Returns how many records were imported. On failure the orphans are unlocked and left in place.
 */
export async function importOrphans(directory: string, candidates: readonly OrphanJournal[], target: AdoptionTarget): Promise<number> {
  // A lock lost since it was taken (this process stalled past staleLockMs while reading, and
  // another adopter took the journal over) means its records are that adopter's: importing them
  // too would send them twice. Checked on disk just before the import, which is one durable write.
  const orphans: OrphanJournal[] = [];
  for (const orphan of candidates) {
    if (await orphan.lock.verify()) orphans.push(orphan);
    else await orphan.lock.release();
  }
  if (orphans.length === 0) return 0;
  const imported: MutableOutboxRecord[] = [];
  const adoptedKeys = new Set<string>();
  for (const orphan of orphans) {
    for (const key of orphan.keys) adoptedKeys.add(key);
    for (const record of orphan.records) {
      if (target.index.has(record.id) || imported.some((other) => other.id === record.id)) continue;
      imported.push(record);
      target.journal.append(entryFromRecord(record));
    }
    target.noteDamage(orphan.fileName, orphan.tornLines, orphan.corruptLines);
  }
  // The marker comes after the records: a torn batch leaves the orphan in place, to be re-read.
  target.journal.append({ t: 'adopted', files: orphans.map((orphan) => orphan.fileName) } satisfies OutboxJournalEntry);
  try {
    await target.journal.flush();
    // Keys of records the orphans confirmed must outlive the orphans: into the shared ledger file first.
    await target.ledger.keep([...adoptedKeys]);
  } catch (error) {
    for (const orphan of orphans) await orphan.lock.release();
    throw error;
  }
  target.index.insertOrdered(imported);
  await removeAdopted(directory, orphans);
  return imported.length;
}
