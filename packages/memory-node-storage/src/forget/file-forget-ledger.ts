// memory-core's ForgetLedger in one JSON file per endpoint (`endpoints/<hash>/forgotten.json`,
// 0600): the groups forgotten (when, and whether their delete is still owed) and the hashes of the
// turns they held. Written under a cross-process lock; read before every drain pass and every
// planned turn, so a read costs a stat unless another process changed the file.
import { MAX_FORGOTTEN_TURNS, withForgottenGroups, type ForgetLedger, type ForgetRecord, type ForgottenGroup, type Logger } from '@graphiti-memory/memory-core';
import { isRecord, LockedJsonFile } from '../stores/locked-json-file.js';

export interface FileForgetLedgerOptions {
  readonly filePath: string;
  readonly logger?: Logger;
  /** Forgotten turn keys kept (the oldest go first); default memory-core's `MAX_FORGOTTEN_TURNS`. */
  readonly maxTurns?: number;
}

interface ForgetFile {
  readonly version: 1;
  readonly groups: readonly ForgottenGroup[];
  readonly turns: readonly string[];
}

const EMPTY: ForgetFile = { version: 1, groups: [], turns: [] };

export class FileForgetLedger implements ForgetLedger {
  readonly #file: LockedJsonFile<ForgetFile>;
  readonly #maxTurns: number;
  /** The record of the file content last read: its turn set is built once per change of the file. */
  #record: { readonly file: ForgetFile; readonly record: ForgetRecord } | undefined;

  constructor(options: FileForgetLedgerOptions) {
    this.#file = new LockedJsonFile(options.filePath, parseForgetFile, options.logger);
    this.#maxTurns = Math.max(1, options.maxTurns ?? MAX_FORGOTTEN_TURNS);
  }

  get filePath(): string {
    return this.#file.filePath;
  }

  async read(): Promise<ForgetRecord> {
    // The locked file hands back the same content while the file is unchanged (a stat per read).
    const file = await this.#file.read();
    if (this.#record?.file !== file) this.#record = { file, record: { groups: file.groups, turns: new Set(file.turns) } };
    return this.#record.record;
  }

  async forgetGroups(groupIds: readonly string[], at: number): Promise<void> {
    if (groupIds.length === 0) return;
    await this.#file.update((current) => ({ next: { ...current, groups: withForgottenGroups(current.groups, groupIds, at) }, result: undefined }));
  }

  async forgetTurns(turnKeys: readonly string[]): Promise<void> {
    if (turnKeys.length === 0) return;
    await this.#file.update((current) => {
      const fresh = new Set(turnKeys);
      const turns = [...current.turns.filter((key) => !fresh.has(key)), ...fresh].slice(-this.#maxTurns);
      return { next: { ...current, turns }, result: undefined };
    });
  }

  async deleted(groupIds: readonly string[]): Promise<void> {
    if (groupIds.length === 0) return;
    const done = new Set(groupIds);
    await this.#file.update((current) => ({
      next: { ...current, groups: current.groups.map((group) => (done.has(group.groupId) ? { ...group, deletionOwed: false } : group)) },
      result: undefined,
    }));
  }

}

function parseForgetFile(raw: unknown): ForgetFile {
  if (!isRecord(raw)) return EMPTY;
  const groups = Array.isArray(raw['groups']) ? raw['groups'].flatMap((group) => parseGroup(group)) : [];
  const turns = Array.isArray(raw['turns']) ? raw['turns'].filter((key): key is string => typeof key === 'string' && /^[0-9a-f]{8,64}$/.test(key)) : [];
  return { version: 1, groups, turns };
}

function parseGroup(raw: unknown): ForgottenGroup[] {
  if (!isRecord(raw)) return [];
  const { groupId, forgottenAt, deletionOwed } = raw;
  if (typeof groupId !== 'string' || groupId === '' || typeof forgottenAt !== 'number' || !Number.isFinite(forgottenAt)) return [];
  return [{ groupId, forgottenAt, deletionOwed: deletionOwed !== false }];
}
