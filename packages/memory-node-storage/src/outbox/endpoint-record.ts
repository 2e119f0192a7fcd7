// The endpoint an outbox folder belongs to (`endpoint.json` beside its journals): its URL, written
// when an outbox opens there, and when it first confirmed a delivery. What lets an endpoint change
// tell a typo's queue (never confirmed: moved) from a real server's (confirmed: kept).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../stores/private-folder.js';

export const ENDPOINT_RECORD_FILE = 'endpoint.json';

export interface EndpointRecord {
  readonly url: string;
  /** When the endpoint first confirmed a delivery; absent: never (as far as this folder knows). */
  readonly confirmedAt?: string;
}

/** The URL and confirmation of the endpoint whose outbox is `outboxDirectory`; `undefined` when unrecorded. */
export async function readEndpointRecord(outboxDirectory: string): Promise<EndpointRecord | undefined> {
  try {
    const raw = JSON.parse(await fs.readFile(path.join(outboxDirectory, ENDPOINT_RECORD_FILE), 'utf8')) as Partial<EndpointRecord>;
    if (typeof raw.url !== 'string' || raw.url === '') return undefined;
    return { url: raw.url, ...(typeof raw.confirmedAt === 'string' ? { confirmedAt: raw.confirmedAt } : {}) };
  } catch {
    return undefined;
  }
}

/** Names `url` as the endpoint of `outboxDirectory` (kept as it is when already recorded). Never throws. */
export async function recordEndpoint(outboxDirectory: string, url: string): Promise<void> {
  const known = await readEndpointRecord(outboxDirectory);
  if (known?.url === url) return;
  await writeRecord(outboxDirectory, { url, ...(known?.confirmedAt === undefined ? {} : { confirmedAt: known.confirmedAt }) }).catch(() => undefined);
}

/** Records that the endpoint of `outboxDirectory` confirmed a delivery (once). Never throws. */
export async function recordConfirmation(outboxDirectory: string, at: Date = new Date()): Promise<void> {
  const known = await readEndpointRecord(outboxDirectory);
  if (known === undefined || known.confirmedAt !== undefined) return;
  await writeRecord(outboxDirectory, { ...known, confirmedAt: at.toISOString() }).catch(() => undefined);
}

async function writeRecord(outboxDirectory: string, record: EndpointRecord): Promise<void> {
  await makePrivateFolder(outboxDirectory);
  await writeFileAtomic(path.join(outboxDirectory, ENDPOINT_RECORD_FILE), `${JSON.stringify(record)}\n`, { mode: PRIVATE_FILE_MODE });
}

