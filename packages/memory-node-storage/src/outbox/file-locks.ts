// Cross-process locks of an outbox folder. A lock is a `<target>.lock` directory holding an `owner`
// file (host, pid, process start time, a nonce); the holder refreshes the folder's mtime every
// `updateMs`. Whether a lock may be taken over is decided by its owner's liveness, not by age:
// an owner alive on this host (a process that stalled under load, or was frozen by SIGSTOP) keeps
// its lock however long it went without refreshing — taking it over by age let two processes
// admit, adopt or send the same records. A dead owner's lock is taken at once. Only a lock whose
// owner cannot be checked (another host on a network drive, no owner file) turns stale by age.
// Taking over is exclusive: the taker first creates `taken-<what it judged dead>` inside the lock
// with O_EXCL, so of two processes that judged the same owner dead exactly one wins.
import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StorageWriteError, storageFaultOf } from '../stores/storage-fault.js';

export interface LockTiming {
  readonly staleMs: number;
  readonly updateMs: number;
}

export interface HeldLock {
  release(): Promise<void>;
  /** Set when the lock was lost (removed, or taken over by another process). */
  readonly compromised: boolean;
  /** Checks now, not at the next refresh, that the lock's owner file is still this holder's. Marks the lock compromised if not. */
  verify(): Promise<boolean>;
}

/** Who holds a lock. */
export interface LockOwner {
  readonly host: string;
  readonly pid: number;
  /** The process's start time as the system reports it (Linux: /proc), to tell a reused pid apart. */
  readonly start?: string;
  readonly nonce: string;
}

const OWNER_FILE = 'owner';
/** A live pid whose start time the system does not give counts as its owner for this many stale times. */
const UNVERIFIED_OWNER_FACTOR = 20;
/** Nonces of the locks this process holds, shared by every copy of this module in the process. */
const held: Set<string> = ((globalThis as Record<symbol, unknown>)[Symbol.for('graphiti-memory.held-locks')] ??= new Set<string>()) as Set<string>;

/** The start time of process `pid` (Linux), or `undefined` where the system does not say. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses); starttime is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** `true`/`false` when known, `undefined` when the owner cannot be checked from here (another host). */
export function ownerAlive(owner: LockOwner): boolean | undefined {
  if (owner.host !== os.hostname()) return undefined;
  if (owner.pid === process.pid) return held.has(owner.nonce);
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: a process of another user lives under that pid.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.start === undefined) return true;
  const start = processStart(owner.pid);
  return start === undefined || start === owner.start;
}

/** The owner file of a lock folder; `undefined` when missing or unreadable. */
export async function readLockOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    const value = JSON.parse(await fs.readFile(path.join(lockPath, OWNER_FILE), 'utf8')) as Partial<LockOwner>;
    if (typeof value.host !== 'string' || typeof value.pid !== 'number' || typeof value.nonce !== 'string') return undefined;
    return { host: value.host, pid: value.pid, nonce: value.nonce, ...(typeof value.start === 'string' ? { start: value.start } : {}) };
  } catch {
    return undefined;
  }
}

function newOwner(): LockOwner {
  const start = processStart(process.pid);
  return { host: os.hostname(), pid: process.pid, nonce: randomBytes(8).toString('hex'), ...(start === undefined ? {} : { start }) };
}

function isCode(error: unknown, ...codes: string[]): boolean {
  return codes.includes((error as NodeJS.ErrnoException).code ?? '');
}

/** Creates the lock folder with its owner file in one step (a folder renamed into place). */
async function create(lockPath: string, owner: LockOwner): Promise<boolean> {
  const staging = `${lockPath}.${owner.nonce}.new`;
  await fs.mkdir(staging, { mode: 0o700 });
  let placed = false;
  try {
    await fs.writeFile(path.join(staging, OWNER_FILE), JSON.stringify(owner), { mode: 0o600 });
    // rename(2) onto an existing empty folder replaces it: a lock folder without owner (an earlier
    // version's) is left to the takeover path, which judges it by age.
    if (await fs.stat(lockPath).then(() => true, () => false)) return false;
    await fs.rename(staging, lockPath);
    placed = true;
    return true;
  } catch (error) {
    if (isCode(error, 'EEXIST', 'ENOTEMPTY', 'EPERM', 'EISDIR')) return false;
    throw error;
  } finally {
    // Renamed into place, the staging folder is gone: no removal to wait for.
    if (!placed) await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Takes over a lock whose owner is dead (or, unverifiable, silent for `staleMs`); `false` when it is held. */
async function takeOver(lockPath: string, owner: LockOwner, timing: LockTiming): Promise<boolean> {
  let stat;
  try {
    stat = await fs.stat(lockPath);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return false;
    throw error;
  }
  const current = await readLockOwner(lockPath);
  const age = Date.now() - stat.mtimeMs;
  let alive = current === undefined ? undefined : ownerAlive(current);
  // Without a start time (no /proc) a live pid may be a reused one: silent this long, it is not ours.
  if (alive === true && current?.start === undefined && age > timing.staleMs * UNVERIFIED_OWNER_FACTOR) alive = false;
  if (alive === true || (alive === undefined && age <= timing.staleMs)) return false;
  // One taker per judged owner: an exclusive marker named for what was judged dead.
  const judged = current?.nonce ?? `unowned-${Math.round(stat.mtimeMs)}-${stat.ino}`;
  const marker = path.join(lockPath, `taken-${judged}`);
  try {
    await fs.writeFile(marker, '', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if (isCode(error, 'EEXIST', 'ENOENT', 'ENOTDIR')) return false;
    throw error;
  }
  // The folder may have changed hands since its owner was read: the judged owner released it and
  // another process (or another lock of this one) made a new lock at the same path. Only the
  // judged owner's folder is taken over; the marker left in another's is taken back. Once the
  // marker is in the judged owner's folder, no one else can take it over (they would need the same
  // marker) and its dead owner no longer releases it: it stays the judged one until renamed below.
  if ((await readLockOwner(lockPath))?.nonce !== current?.nonce) {
    await fs.rm(marker, { force: true }).catch(() => undefined);
    return false;
  }
  const written = path.join(lockPath, `${OWNER_FILE}.${owner.nonce}`);
  await fs.writeFile(written, JSON.stringify(owner), { mode: 0o600 });
  await fs.rename(written, path.join(lockPath, OWNER_FILE));
  const now = new Date();
  await fs.utimes(lockPath, now, now).catch(() => undefined);
  return true;
}

/** Tries once to take the lock of `target`; `undefined` when another live process holds it. */
export async function tryLock(target: string, timing: LockTiming, onCompromised: (error: Error) => void): Promise<HeldLock | undefined> {
  const lockPath = `${target}.lock`;
  const owner = newOwner();
  // The nonce counts as alive in this process before the owner file names it.
  held.add(owner.nonce);
  let taken = false;
  try {
    taken = (await create(lockPath, owner)) || (await takeOver(lockPath, owner, timing)) || (await create(lockPath, owner));
  } catch (error) {
    // A write the disk refused (full, read-only) is named with the lock it was for.
    const fault = storageFaultOf(error, lockPath);
    throw fault === undefined ? error : new StorageWriteError(fault.code, fault.path, error);
  } finally {
    if (!taken) held.delete(owner.nonce);
  }
  if (!taken) return undefined;
  return new OwnedLock(lockPath, owner, timing, onCompromised);
}

/**
 * Takes the lock of `target`, retrying while a live process holds it, for at most `waitMs`.
 * Throws an error naming the lock when it stays held (a live process kept it that long).
 */
export async function lockWithin(target: string, timing: LockTiming, waitMs: number, onCompromised: (error: Error) => void = () => {}): Promise<HeldLock> {
  const deadline = Date.now() + waitMs;
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    const lock = await tryLock(target, timing, onCompromised);
    if (lock !== undefined) return lock;
    if (Date.now() >= deadline) {
      const owner = await readLockOwner(`${target}.lock`);
      throw Object.assign(
        new Error(
          `The lock ${target}.lock is held by a live process${owner === undefined ? '' : ` (pid ${owner.pid})`} for more than ${waitMs} ms; nothing was written. It is retried later; if that process hangs, end it.`,
        ),
        { code: 'ELOCKED' },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

class OwnedLock implements HeldLock {
  #compromised = false;
  #released = false;
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly lockPath: string,
    private readonly owner: LockOwner,
    timing: LockTiming,
    private readonly onCompromised: (error: Error) => void,
  ) {
    this.#timer = setInterval(() => void this.#refresh(), timing.updateMs);
    this.#timer.unref();
  }

  get compromised(): boolean {
    return this.#compromised;
  }

  async verify(): Promise<boolean> {
    if (this.#compromised || this.#released) return false;
    const current = await readLockOwner(this.lockPath);
    if (current?.nonce === this.owner.nonce) return true;
    this.#lose();
    return false;
  }

  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    clearInterval(this.#timer);
    try {
      if (this.#compromised || (await readLockOwner(this.lockPath))?.nonce !== this.owner.nonce) return;
      // Renamed away first: the lock disappears in one step, then its folder is removed.
      const gone = `${this.lockPath}.${this.owner.nonce}.released`;
      await fs.rename(this.lockPath, gone);
      // It holds the owner file alone unless a taker left a marker: two calls then, not the
      // recursive walk (its stat, read of the folder and retry) that fs.rm makes of any folder.
      await fs.unlink(path.join(gone, OWNER_FILE)).catch(() => undefined);
      await fs.rmdir(gone).catch(() => fs.rm(gone, { recursive: true, force: true }));
    } catch {
      // Left behind: its owner (this process) is gone soon, and then it is taken at once.
    } finally {
      held.delete(this.owner.nonce);
    }
  }

  async #refresh(): Promise<void> {
    if (!(await this.verify())) return;
    const now = new Date();
    // The mtime is what an earlier version, or a process on another host, judges the lock by.
    await fs.utimes(this.lockPath, now, now).catch(() => undefined);
  }

  #lose(): void {
    if (this.#compromised) return;
    this.#compromised = true;
    clearInterval(this.#timer);
    held.delete(this.owner.nonce);
    this.onCompromised(Object.assign(new Error(`The lock ${this.lockPath} was removed or taken over by another process.`), { code: 'ECOMPROMISED' }));
  }
}
