// A server that is killed leaves its socket and info file behind. The next server of the same
// build replaces them, but with a socket per build the files of a build nobody runs any more would
// stay: each starting server removes those of dead servers in its folder, under each one's start
// lock so that a server of that build coming up at the same moment keeps its fresh files.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { HOOK_SERVER_INFO_FILE, readHookServerInfo, type HookServerInfo, type HookServerPlace } from './hook-server-place.js';

export async function sweepDeadServers(place: HookServerPlace): Promise<void> {
  for (const name of await fs.readdir(place.folder)) {
    const base = HOOK_SERVER_INFO_FILE.exec(name)?.[1];
    const info = path.join(place.folder, name);
    if (base === undefined || info === place.info) continue;
    if (!deadServer(await readHookServerInfo(info))) continue;
    const lock = path.join(place.folder, base);
    // Held: that server is starting right now; its files are not stale.
    const release = await lockfile.lock(lock, { realpath: false, stale: 10_000 }).catch(() => undefined);
    if (release === undefined) continue;
    try {
      if (!deadServer(await readHookServerInfo(info))) continue;
      // The socket's path comes from the file's name, not from what the file says.
      if (process.platform !== 'win32') await fs.rm(path.join(place.folder, `${base}.sock`), { force: true });
      await fs.rm(info, { force: true });
    } finally {
      await release().catch(() => undefined);
    }
  }
}

/** Only a pid that no process has any more: an unreadable file may be one being written. */
function deadServer(info: Partial<HookServerInfo> | undefined): boolean {
  if (typeof info?.pid !== 'number' || info.pid === process.pid) return false;
  try {
    process.kill(info.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
