// The machine under memory: a Node the packages run on, and a state folder that is the user's
// alone (0700, owned by them) with room to write.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { failed, passed, type DoctorCheck } from './doctor-check.js';

/** `>=20.18.1` of package.json's engines → true when `version` satisfies it (only `>=` ranges are used here). */
export function satisfiesMinimum(version: string, range: string): boolean {
  const minimum = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(range.trim());
  const actual = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (minimum === null || actual === null) return true;
  for (let index = 1; index <= 3; index++) {
    const difference = Number(actual[index]) - Number(minimum[index]);
    if (difference !== 0) return difference > 0;
  }
  return true;
}

export function nodeVersionCheck(version: string, engines: string): DoctorCheck {
  return satisfiesMinimum(version, engines)
    ? passed('node', `Node ${version} (needs ${engines})`)
    : failed('node', `Node ${version} is too old: Graphiti Memory needs ${engines}`, `install Node ${engines.replace(/^>=\s*/, '')} or newer (nodejs.org, or nvm install 20), then run the command again`);
}

/** Below this much free space the outbox and the logs may not get their writes. */
export const LOW_FREE_BYTES = 100 * 1024 * 1024;

export async function stateFolderCheck(stateDirectory: string, uid: number | undefined = process.getuid?.()): Promise<DoctorCheck> {
  let stat;
  try {
    stat = await fs.lstat(stateDirectory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return passed('state-folder', `${stateDirectory} does not exist yet (the first hook or command makes it, mode 0700)`);
    return failed('state-folder', `${stateDirectory} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, `check the folder's permissions: ls -ld ${stateDirectory}`);
  }
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    return failed('state-folder', `${stateDirectory} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}`, `move it away and let the next command make the folder, or point stateDir at a folder of your own`);
  }
  if (uid !== undefined && stat.uid !== uid) {
    return failed('state-folder', `${stateDirectory} is owned by user id ${stat.uid}, not by you (${uid})`, `use a state folder of your own (stateDir in the user config, or GRAPHITI_MEMORY_STATE_DIR)`);
  }
  const mode = stat.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    return failed('state-folder', `${stateDirectory} is open to others (mode ${mode.toString(8).padStart(4, '0')}); it holds what you said in chats`, `chmod 700 ${stateDirectory}`);
  }
  const free = await freeBytes(stateDirectory);
  if (free !== undefined && free < LOW_FREE_BYTES) {
    return failed('state-folder', `${stateDirectory}: only ${megabytes(free)} MB free`, `free space on that disk (the outbox and logs need room), or move stateDir elsewhere`);
  }
  return passed('state-folder', `${stateDirectory}: yours, mode ${mode.toString(8).padStart(4, '0')}${free === undefined ? '' : `, ${megabytes(free)} MB free`}`);
}

async function freeBytes(folder: string): Promise<number | undefined> {
  try {
    const stats = await fs.statfs(path.resolve(folder));
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

function megabytes(bytes: number): number {
  return Math.floor(bytes / (1024 * 1024));
}
