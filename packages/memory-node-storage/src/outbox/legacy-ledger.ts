// Earlier versions kept the delivery ledger in a separate file next to the outbox folder. Its keys
// are carried into the outbox's ledger once, then the file is renamed (`.imported`), so upgrading
// never sends again what an earlier version accepted.
import { promises as fs } from 'node:fs';
import { scanJournal } from '../journal/journal-line.js';
import type { FileDeliveryLedger } from '../stores/file-delivery-ledger.js';

/** Imports the keys of `filePath` into `ledger` (durably) and renames the file; returns how many keys. */
export async function importLegacyLedger(filePath: string, ledger: FileDeliveryLedger): Promise<number> {
  let content: Buffer;
  try {
    content = await fs.readFile(filePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const keys = scanJournal(content).values.filter((value): value is string => typeof value === 'string');
  await ledger.keep(keys);
  await fs.rename(filePath, `${filePath}.imported`);
  return keys.length;
}
