// State holds what the user asked, what was sent and to where: other users of the machine must not
// read it. Folders are created 0700 and files 0600; a state folder left open by an older version
// is closed once, the first time a run finds it open.
import { constants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** A state folder is a few levels deep; anything deeper is not ours to walk. */
const MAX_DEPTH = 6;

/**
 * Creates `folder` and its missing parents 0700. A folder that exists already is left as it is:
 * it may be the user's (a parent, HOME) or another program's.
 */
export async function makePrivateFolder(folder: string): Promise<void> {
  await fs.mkdir(folder, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
}

/**
 * Runs `operation` on something in `folder`; when it finds the folder missing (ENOENT), makes it as
 * `makePrivateFolder` does and runs it once more. State files are changed and logs appended on
 * every hook run: making the folder first cost each of them two more file system round trips.
 */
export async function inPrivateFolder<T>(folder: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await makePrivateFolder(folder);
    return operation();
  }
}

// Never through a symbolic link planted where the file should be (it would append outside the state
// folder), and never to a file another user owns.
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

/** Appends `text` to `file`, created 0600, in a private folder made when missing; never follows a link. */
export function appendPrivateFile(file: string, text: string): Promise<void> {
  return inPrivateFolder(path.dirname(file), async () => {
    const handle = await fs.open(file, APPEND_FLAGS, PRIVATE_FILE_MODE);
    try {
      const stat = await handle.stat();
      if (!stat.isFile() || !ownedByUs(stat)) {
        throw Object.assign(new Error(`${file} is not a regular file of this user; nothing is appended to it`), { code: 'EPERM' });
      }
      await handle.appendFile(text);
    } finally {
      await handle.close();
    }
  });
}

/**
 * Closes an existing state folder to other users: when `root` is open to them, it and every
 * folder below become 0700 and every file 0600. Only what this user owns is changed, never the
 * home folder nor a symbolic link's target. A root already private is the fast path (one stat).
 * Never throws: a state folder it cannot change still serves (returns whether it is private).
 */
export async function tightenStateFolder(root: string): Promise<boolean> {
  if (process.platform === 'win32') return true;
  const resolved = path.resolve(root);
  if (resolved === path.resolve(os.homedir()) || resolved === path.parse(resolved).root) return false;
  try {
    const stat = await fs.lstat(resolved);
    if (!stat.isDirectory() || !ownedByUs(stat)) return false;
    if ((stat.mode & 0o077) === 0) return true;
    await tighten(resolved, 0);
    return true;
  } catch {
    return false;
  }
}

async function tighten(folder: string, depth: number): Promise<void> {
  await fs.chmod(folder, PRIVATE_DIRECTORY_MODE);
  if (depth >= MAX_DEPTH) return;
  const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const file = path.join(folder, entry.name);
    const stat = await fs.lstat(file).catch(() => undefined);
    if (stat === undefined || stat.isSymbolicLink() || !ownedByUs(stat)) continue;
    if (stat.isDirectory()) await tighten(file, depth + 1).catch(() => undefined);
    else if (stat.isFile() && (stat.mode & 0o077) !== 0) await fs.chmod(file, PRIVATE_FILE_MODE).catch(() => undefined);
  }
}

function ownedByUs(stat: { readonly uid: number }): boolean {
  return typeof process.getuid !== 'function' || stat.uid === process.getuid();
}
