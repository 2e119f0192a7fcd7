// Moving an outbox to another folder (the extension kept its outbox in its own storage before every
// tool shared the state folder): the journals no live process holds are renamed into the new
// folder, where the outbox opened there adopts them as it adopts any dead process's journal, their
// delivery-ledger keys included, so nothing is lost and nothing is sent twice. A journal still held
// (a window of an earlier version) stays until a later move finds it free.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { makePrivateFolder } from '../stores/private-folder.js';
import { JOURNAL_FILE_PATTERN } from './journal-adoption.js';

/** Journals whose lock was not refreshed for this long belong to a process that is gone. */
const STALE_LOCK_MS = 10_000;

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
    const held = await lockfile.check(source, { realpath: false, stale: STALE_LOCK_MS }).catch(() => true);
    if (held) continue;
    await makePrivateFolder(to);
    try {
      await fs.rename(source, path.join(to, name));
      moved++;
    } catch (error) {
      // Another folder on another device: copy, then remove the original.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await fs.copyFile(source, path.join(to, name));
      await fs.rm(source);
      moved++;
    }
  }
  return moved;
}
