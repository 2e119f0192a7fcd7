// The background drainer's info file (`hooks/drainer.json` of the state folder): its pid while it
// holds the drainer lock. A revoke, an uninstall or a forget finds the drainer through it and asks
// it to leave (SIGTERM); the lock, not the file, says whether it still runs (a pid alone may have
// been reused).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';
import { makePrivateFolder, PRIVATE_FILE_MODE, sharedStateFiles } from '@graphiti-memory/memory-node-storage';

export interface DrainerInfo {
  readonly pid: number;
  readonly since: string;
}

/** The drainer lock is refreshed every third of this; a lock older than it belongs to a dead drainer. */
export const DRAINER_LOCK_STALE_MS = 30_000;
const STOP_POLL_MS = 50;
const INFO_WAIT_MS = 500;

export async function writeDrainerInfo(file: string, info: DrainerInfo): Promise<void> {
  await makePrivateFolder(path.dirname(file));
  await writeFileAtomic(file, `${JSON.stringify(info)}\n`, { mode: PRIVATE_FILE_MODE });
}

/** Removes the info file when it still names `pid` (a newer drainer's file stays). */
export async function removeDrainerInfo(file: string, pid: number): Promise<void> {
  if ((await readDrainerInfo(file))?.pid === pid) await fs.rm(file, { force: true });
}

export async function readDrainerInfo(file: string): Promise<DrainerInfo | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<DrainerInfo>;
    return typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) && parsed.pid > 0 ? { pid: parsed.pid, since: String(parsed.since ?? '') } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a drainer holds the lock of `stateDirectory` now. */
export async function drainerRunning(stateDirectory: string): Promise<boolean> {
  return drainerLockHeld(sharedStateFiles(stateDirectory).drainerLock);
}

async function drainerLockHeld(lockTarget: string): Promise<boolean> {
  return lockfile.check(lockTarget, { stale: DRAINER_LOCK_STALE_MS, realpath: false }).catch(() => false);
}

/**
 * Asks the drainer of `stateDirectory` to leave and waits (up to `timeoutMs`) until it let go of
 * its lock, so its outbox journal can be taken over. True when one was running.
 */
export async function stopDrainer(stateDirectory: string, timeoutMs = 5_000): Promise<boolean> {
  const files = sharedStateFiles(stateDirectory);
  if (!(await drainerLockHeld(files.drainerLock))) return false;
  const deadline = Date.now() + timeoutMs;
  // A drainer that just took the lock writes its info file a moment later (an older file may
  // still name a drainer that is gone): wait briefly for a live one.
  const infoDeadline = Math.min(deadline, Date.now() + INFO_WAIT_MS);
  let signalled = false;
  while (!signalled && Date.now() < infoDeadline) {
    const info = await readDrainerInfo(files.drainerInfo);
    if (info !== undefined && info.pid !== process.pid) signalled = signal(info.pid);
    if (!signalled) await new Promise((resolve) => setTimeout(resolve, STOP_POLL_MS));
  }
  if (!signalled) return false;
  while (Date.now() < deadline && (await drainerLockHeld(files.drainerLock))) await new Promise((resolve) => setTimeout(resolve, STOP_POLL_MS));
  return true;
}

/** SIGTERM to `pid`; false when it is gone (or not ours to signal). */
function signal(pid: number): boolean {
  try {
    process.kill(pid, 'SIGTERM');
    return true;
  } catch {
    return false;
  }
}
