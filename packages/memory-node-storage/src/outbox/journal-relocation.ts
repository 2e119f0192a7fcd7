// Moving an outbox to another folder (the extension kept its outbox in its own storage before every
// tool shared the state folder): the journals no live process holds are renamed into the new
// folder, where the outbox opened there adopts them as it adopts any dead process's journal, their
// delivery-ledger keys included, so nothing is lost and nothing is sent twice. A journal still held
// (a window of an earlier version) stays until a later move finds it free. The move holds the
// journal's lock (file-locks.ts: a live holder keeps it however long it is silent; a dead one's,
// or an old build's left lock silent past `staleMs`, is taken), so no process adopts it mid-move.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makePrivateFolder } from '../stores/private-folder.js';
import { tryLock } from './file-locks.js';
import { JOURNAL_FILE_PATTERN } from './journal-adoption.js';

/** The outbox journals' lock timing (an owner-less lock silent this long is an old build's, left behind). */
const JOURNAL_LOCK = { staleMs: 10_000, updateMs: 5_000 };

/** Moves the free journals of `from` into `to`; returns how many moved. Never throws for a missing `from`. */
export async function relocateOutboxJournals(from: string, to: string): Promise<number> {
  if (path.resolve(from) === path.resolve(to)) return 0;
  let names: string[];
  try {
    names = await fs.readdir(from);
  } catch {
    return 0;
  }
  let moved = 0;
  for (const name of names.filter((candidate) => JOURNAL_FILE_PATTERN.test(candidate))) {
    const source = path.join(from, name);
    // Held by a live process (or not lockable now): it stays for a later move.
    const lock = await tryLock(source, JOURNAL_LOCK, () => undefined).catch(() => undefined);
    if (lock === undefined) continue;
    try {
      await makePrivateFolder(to);
      await moveFile(source, path.join(to, name));
      moved++;
    } finally {
      await lock.release();
    }
  }
  return moved;
}

async function moveFile(source: string, target: string): Promise<void> {
  try {
    await fs.rename(source, target);
  } catch (error) {
    // Another folder on another device: copy, then remove the original.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await fs.copyFile(source, target);
    await fs.rm(source);
  }
}
