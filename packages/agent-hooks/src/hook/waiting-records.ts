// Whether records wait in an endpoint's outbox with no drainer to send them (a drainer killed, a
// machine restarted, one asked to leave): then any later hook event, of any session, starts one.
// Cheap enough for the prompt path: a directory listing and a few stats, no network, no journal
// read. The drainer notes how it ended (`hooks/drain-end.json`: when, for which endpoint, how
// many still pending); journals no newer than an end with nothing pending hold only dead letters
// or nothing, so no drainer is started for them.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { endpointStateFiles, makePrivateFolder, PRIVATE_FILE_MODE, sharedStateFiles } from '@graphiti-memory/memory-node-storage';

/** How the last drainer of the state folder ended. */
export interface DrainEnd {
  readonly endpoint: string;
  /** Epoch ms, after the drainer closed its outbox. */
  readonly at: number;
  /** Messages it left pending (dead letters are not pending). */
  readonly pending: number;
}

/** The drainer lock is refreshed every 10 s (proper-lockfile's `update`); older than this, its holder is gone. */
const LOCK_FRESH_MS = 30_000;

function drainEndFile(stateDirectory: string): string {
  return path.join(sharedStateFiles(stateDirectory).hooksDirectory, 'drain-end.json');
}

export async function recordDrainEnd(stateDirectory: string, end: DrainEnd): Promise<void> {
  const file = drainEndFile(stateDirectory);
  await makePrivateFolder(path.dirname(file));
  await writeFileAtomic(file, `${JSON.stringify(end)}\n`, { mode: PRIVATE_FILE_MODE });
}

async function readDrainEnd(stateDirectory: string): Promise<DrainEnd | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(drainEndFile(stateDirectory), 'utf8')) as Partial<DrainEnd>;
    return typeof parsed.endpoint === 'string' && typeof parsed.at === 'number' && typeof parsed.pending === 'number'
      ? { endpoint: parsed.endpoint, at: parsed.at, pending: parsed.pending }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Newest modification time of the endpoint's outbox journals (0: none). */
async function newestJournal(stateDirectory: string, endpoint: string): Promise<number> {
  const folder = endpointStateFiles(stateDirectory, endpoint).outboxDirectory;
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch {
    return 0;
  }
  let newest = 0;
  for (const name of names) {
    if (!name.endsWith('.journal')) continue;
    const stat = await fs.stat(path.join(folder, name)).catch(() => undefined);
    if (stat !== undefined && stat.isFile() && stat.size > 0) newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

/** Whether a drainer holds the state folder's drainer lock (refreshed within LOCK_FRESH_MS). */
async function drainerRunning(stateDirectory: string, now: number): Promise<boolean> {
  const stat = await fs.stat(`${sharedStateFiles(stateDirectory).drainerLock}.lock`).catch(() => undefined);
  return stat !== undefined && now - stat.mtimeMs < LOCK_FRESH_MS;
}

/** True when the endpoint's outbox may hold records no drainer is sending. Never throws. */
export async function recordsWaitWithoutDrainer(stateDirectory: string, endpoint: string, now = Date.now()): Promise<boolean> {
  try {
    const newest = await newestJournal(stateDirectory, endpoint);
    if (newest === 0) return false;
    const end = await readDrainEnd(stateDirectory);
    if (end !== undefined && end.endpoint === endpoint && end.pending === 0 && end.at >= newest) return false;
    return !(await drainerRunning(stateDirectory, now));
  } catch {
    return false;
  }
}
