// The one way memory reads a file someone else may have placed: a repository's
// `.graphiti-memory.json`, a repository's `.git/config`, the user's `config.json`. Read only when it
// is a regular file owned by this user, at most `maxBytes` (1 MB), and never through a symbolic link
// that leaves the folder it belongs to: a link to `/dev/zero`, `/proc/self/pagemap` or another
// user's file is refused at once, with a message that says what to do, instead of read for seconds.
import { constants, promises as fs, closeSync, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';

/** The most a config file may hold. Ours are a few hundred bytes. */
export const SAFE_READ_MAX_BYTES = 1024 * 1024;

export type FileReadRefusalReason = 'symlink-escape' | 'not-regular' | 'not-owned' | 'too-large';

/** A file that exists but is not read, and why; `message` ends with what to do. */
export class FileReadRefusal extends Error {
  override readonly name = 'FileReadRefusal';
  constructor(
    readonly reason: FileReadRefusalReason,
    message: string,
  ) {
    super(message);
  }
}

export interface SafeFileReadOptions {
  /** Default `SAFE_READ_MAX_BYTES`. */
  readonly maxBytes?: number;
  /** The folder the file belongs to (a repository): a symbolic link may not lead out of it. */
  readonly root?: string;
}

// Never wait on a FIFO's writer, never follow a link swapped in after the check.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const CHUNK_BYTES = 64 * 1024;

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function escapeRefusal(file: string, target: string, root: string): FileReadRefusal {
  return new FileReadRefusal('symlink-escape', `is a symbolic link to ${target}, outside ${root}, so it is not read; replace the link with the file itself (${file}).`);
}

/** The checks on the opened file (its own stats, not the path's). */
function checkOpened(stat: Stats, maxBytes: number): void {
  if (!stat.isFile()) throw new FileReadRefusal('not-regular', 'is not a regular file (a device, a pipe or a folder), so it is not read; replace it with a plain JSON file or delete it.');
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new FileReadRefusal('not-owned', `is owned by user id ${stat.uid}, not by you (user id ${uid}), so it is not read; take it over (chown) or delete it.`);
  }
  if (stat.size > maxBytes) throw tooLarge(maxBytes);
}

function tooLarge(maxBytes: number): FileReadRefusal {
  return new FileReadRefusal('too-large', `is larger than ${maxBytes} bytes, so it is not read; a configuration file is a few hundred bytes: fix or delete it.`);
}

/**
 * The text of `file` (UTF-8), read safely (see the module comment). A missing file rejects with the
 * system's `ENOENT` error; a file that is there but not read rejects with a `FileReadRefusal`.
 */
export async function readSafeTextFile(file: string, options: SafeFileReadOptions = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? SAFE_READ_MAX_BYTES;
  let target = file;
  if ((await fs.lstat(file)).isSymbolicLink()) {
    target = await fs.realpath(file);
    if (options.root !== undefined) {
      const root = await fs.realpath(options.root);
      if (!isInside(root, target)) throw escapeRefusal(file, target, root);
    }
  }
  const handle = await fs.open(target, OPEN_FLAGS);
  try {
    checkOpened(await handle.stat(), maxBytes);
    // Read to the limit whatever the size said: files under /proc report 0 and hold megabytes.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(maxBytes);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** `readSafeTextFile`, synchronously: for hosts whose settings are read synchronously. */
export function readSafeTextFileSync(file: string, options: SafeFileReadOptions = {}): string {
  const maxBytes = options.maxBytes ?? SAFE_READ_MAX_BYTES;
  let target = file;
  if (lstatSync(file).isSymbolicLink()) {
    target = realpathSync(file);
    if (options.root !== undefined) {
      const root = realpathSync(options.root);
      if (!isInside(root, target)) throw escapeRefusal(file, target, root);
    }
  }
  const descriptor = openSync(target, OPEN_FLAGS);
  try {
    checkOpened(fstatSync(descriptor), maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const bytesRead = readSync(descriptor, chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(maxBytes);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(descriptor);
  }
}
