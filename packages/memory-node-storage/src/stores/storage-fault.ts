// A write of the state folder that the disk refused (full, read-only, no permission, quota): named
// with its code, the file and what to do, so a hook log or a status line says more than `Error`.
// Content-free: only a code and a path of the state folder.

/** The error codes of a refused write, and what the user can do about each. */
const FAULTS: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full; free space',
  EDQUOT: 'the disk quota is used up; free space or raise the quota',
  EROFS: 'the file system is read-only; make it writable',
  EACCES: 'permission denied; give this user write access to the state folder',
  EPERM: 'the operation is not permitted; give this user write access to the state folder',
};

/** What happens to queued work meanwhile: what reached the disk stays, the rest is offered again. */
const KEPT = 'queued memories are kept and resume once it can be written';

export interface StorageFault {
  readonly code: string;
  /** The file or folder being written. */
  readonly path: string;
  /** `ENOSPC writing <path>: the disk is full; free space — queued memories are kept and …`. */
  readonly message: string;
}

/** A refused write of `path`, with its code kept (for `storageFaultOf`) and the cause attached. */
export class StorageWriteError extends Error {
  readonly code: string;
  readonly path: string;

  constructor(code: string, filePath: string, cause?: unknown) {
    super(faultMessage(code, filePath), cause === undefined ? undefined : { cause });
    this.name = 'StorageWriteError';
    this.code = code;
    this.path = filePath;
  }
}

function faultMessage(code: string, filePath: string): string {
  const what = FAULTS[code] ?? `the write failed (${code}); check the disk and the state folder's permissions`;
  return `${code} writing ${filePath}: ${what} — ${KEPT}`;
}

/** Whether `code` is one of the refused-write codes this module names. */
export function isStorageFaultCode(code: unknown): code is string {
  return typeof code === 'string' && Object.hasOwn(FAULTS, code);
}

/**
 * The refused write in `error` (or in its `cause` chain): Node's fs errors carry `code` and `path`;
 * `fallbackPath` names the file when the error does not (a write through an open handle).
 * `undefined` for anything else (a network error, a bug).
 */
export function storageFaultOf(error: unknown, fallbackPath?: string): StorageFault | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (typeof current !== 'object') return undefined;
    const { code, path: filePath, dest } = current as { code?: unknown; path?: unknown; dest?: unknown };
    const where = typeof dest === 'string' ? dest : typeof filePath === 'string' ? filePath : fallbackPath;
    if (isStorageFaultCode(code) && where !== undefined) return { code, path: where, message: faultMessage(code, where) };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
