// Say it once across processes: each hook event is its own process (or a turn of the hook
// server), so what a session was given lives in the state folder, one small file per session and
// endpoint, written under a lock with mode 0600. It holds hashes and ids only. Records of sessions
// not touched for `maxAgeMs` are removed, and at most `maxSessions` are kept: losing one costs a
// repeated fact, never a missing one.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { NOTHING_SAID, parseSaidInSession, withSaid, type SaidInSession, type SaidMemory, type SaidOnceRecordOptions, type SaidOnceStore } from '@graphiti-memory/memory-core';
import { saidOnceDirectory, saidOnceFile } from '../state/state-layout.js';
import { LockedJsonFile } from './locked-json-file.js';

export interface FileSaidOnceStoreOptions {
  readonly stateDirectory: string;
  /** The normalised endpoint: a session's record belongs to the Graphiti it was recalled from. */
  readonly endpoint: string;
  /** Records untouched this long are removed by `expire` (default 3 days). */
  readonly maxAgeMs?: number;
  /** At most this many session records are kept (default 300). */
  readonly maxSessions?: number;
}

const RECORD_FILE_NAME = /^[0-9a-f]{24}\.json$/;
const DEFAULT_MAX_AGE_MS = 3 * 24 * 60 * 60_000;
const DEFAULT_MAX_SESSIONS = 300;

export class FileSaidOnceStore implements SaidOnceStore {
  constructor(private readonly options: FileSaidOnceStoreOptions) {}

  async said(sessionId: string): Promise<SaidInSession> {
    return this.file(sessionId)
      .read()
      .catch(() => NOTHING_SAID);
  }

  async record(sessionId: string, what: SaidMemory, options: SaidOnceRecordOptions = {}): Promise<void> {
    // Hashing is async: done before the lock, applied under it.
    const added = await withSaid(NOTHING_SAID, what);
    await this.file(sessionId).update((current) => {
      const base = options.fresh === true ? NOTHING_SAID : current;
      return { next: merged(base, added), result: undefined };
    });
  }

  /** Removes records older than `maxAgeMs`, then the oldest beyond `maxSessions`; returns how many went. */
  async expire(now: Date = new Date()): Promise<number> {
    const directory = saidOnceDirectory(this.options.stateDirectory);
    const names = (await fs.readdir(directory).catch(() => [] as string[])).filter((name) => RECORD_FILE_NAME.test(name));
    const records = (
      await Promise.all(
        names.map(async (name) => {
          const file = path.join(directory, name);
          const stat = await fs.stat(file).catch(() => undefined);
          return stat === undefined ? undefined : { file, modified: stat.mtimeMs };
        }),
      )
    ).filter((record): record is { file: string; modified: number } => record !== undefined);
    records.sort((left, right) => right.modified - left.modified);
    const maxAge = this.options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
    const maxSessions = this.options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    const gone = records.filter((record, index) => index >= maxSessions || now.getTime() - record.modified > maxAge);
    await Promise.all(gone.map((record) => fs.rm(record.file, { force: true })));
    return gone.length;
  }

  private file(sessionId: string): LockedJsonFile<SaidInSession> {
    // A lost record costs a repeated fact, never a missing one: no hook waits for the disk's flush.
    return new LockedJsonFile(saidOnceFile(this.options.stateDirectory, this.options.endpoint, sessionId), (raw) => (raw === undefined ? NOTHING_SAID : parseSaidInSession(raw)), undefined, { fsync: false });
  }
}

/** `base` with the hashed additions (the additions count as newest). */
function merged(base: SaidInSession, added: SaidInSession): SaidInSession {
  const facts = new Map(Object.entries(base.facts));
  for (const [uuid, hash] of Object.entries(added.facts)) {
    facts.delete(uuid);
    facts.set(uuid, hash);
  }
  return parseSaidInSession({
    facts: Object.fromEntries(facts),
    texts: [...base.texts.filter((text) => !added.texts.includes(text)), ...added.texts],
    episodes: [...base.episodes.filter((episode) => !added.episodes.includes(episode)), ...added.episodes],
  });
}
