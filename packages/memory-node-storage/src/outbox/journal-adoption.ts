// Adoption of the journals of dead processes. Each process appends only to its own journal and
// holds that journal's lock while it lives; a journal whose lock can be taken belongs to a process
// that died (or closed with work left). The adopter imports its live records into its own journal,
// makes that durable together with an `adopted` marker naming the file, and only then deletes it.
// A crash between the marker and the delete leaves a file that every later adopter skips, because
// it reads the markers of all journals before importing anything.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { scanJournal } from '../journal/journal-line.js';
import { tryLock, type HeldLock, type LockTiming } from './file-locks.js';
import { recoveredRecord, replayEntries, type MutableOutboxRecord } from './outbox-journal-entry.js';

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

/**
 * Ledger keys of every other journal in the folder, read without locking: a journal not yet
 * adoptable (its dead owner's lock is not stale yet) still tells which messages were accepted,
 * so re-reading a transcript in the meantime does not enqueue them twice.
 */
export async function readForeignKeys(directory: string, ownFileName: string): Promise<{ keys: Set<string> }> {
  const keys = new Set<string>();
  const names = await fs.readdir(directory);
  for (const fileName of names) {
    if (!JOURNAL_FILE_PATTERN.test(fileName) || fileName === ownFileName) continue;
    const content = await readIfPresent(path.join(directory, fileName));
    if (content === undefined) continue;
    for (const key of replayEntries(scanJournal(content).values).keys) keys.add(key);
  }
  return { keys };
}
