// Which turns of one transcript the agent hooks already took, per endpoint (a file of the state
// folder, at `transcriptLedgerFile`). A turn counts as taken for the endpoint whose outbox took it,
// not for every endpoint: a session captured while the hooks pointed at a wrong endpoint is still
// untaken for the right one (and `moveQueuedRecords` carries what that outbox queued, with its
// taken ids, to the new endpoint). Ids recorded by earlier versions (one list for every endpoint)
// still count as taken everywhere, so an upgrade sends nothing twice. A transcript without an entry
// for the endpoint was never seen by it. Additions are merged under a cross-process lock and written
// atomically, so events captured at once never lose one another's turns.
import type { Logger } from '@graphiti-memory/memory-core';
import { isRecord, LockedJsonFile } from '../stores/locked-json-file.js';

export interface FileTranscriptLedgerOptions {
  readonly filePath: string;
  /** The endpoint (normalised URL) whose outbox takes the turns. */
  readonly endpoint: string;
  /** Ids kept per endpoint, newest last; default 20,000. */
  readonly maxIds?: number;
  readonly logger?: Logger;
}

interface LedgerFile {
  /** Ids an earlier version took, for every endpoint. */
  readonly ids: readonly string[];
  /** Ids taken per endpoint. */
  readonly endpoints: Readonly<Record<string, readonly string[]>>;
}

const DEFAULT_MAX_IDS = 20_000;

export class FileTranscriptLedger {
  readonly #file: LockedJsonFile<LedgerFile | undefined>;
  readonly #maxIds: number;
  readonly #endpoint: string;

  constructor(options: FileTranscriptLedgerOptions) {
    this.#file = new LockedJsonFile(options.filePath, parseLedgerFile, options.logger);
    this.#maxIds = options.maxIds ?? DEFAULT_MAX_IDS;
    this.#endpoint = options.endpoint;
  }

  /**
   * The ids taken so far for this endpoint (and by earlier versions); `undefined` when the hooks
   * never took anything from this transcript for it (a damaged ledger counts as that too: the
   * delivery ledger still refuses what was sent).
   */
  async taken(): Promise<ReadonlySet<string> | undefined> {
    const file = await this.#file.read();
    const own = file?.endpoints[this.#endpoint];
    if (file === undefined || (own === undefined && file.ids.length === 0)) return undefined;
    return new Set([...file.ids, ...(own ?? [])]);
  }

  /** Adds `ids` for this endpoint after those already recorded (by this process or another). */
  add(ids: readonly string[]): Promise<void> {
    return addTaken(this.#file, this.#endpoint, ids, this.#maxIds);
  }
}

/**
 * Counts what `from` took of the transcript at `filePath` as taken for `to` too (its queued records
 * moved there). Returns whether anything was added.
 */
export function copyTakenIds(filePath: string, from: string, to: string, logger?: Logger): Promise<boolean> {
  const file = new LockedJsonFile(filePath, parseLedgerFile, logger);
  return file.update((current) => {
    const moved = current?.endpoints[from];
    if (current === undefined || moved === undefined || moved.length === 0) return { result: false };
    const known = new Set(current.endpoints[to]);
    const added = moved.filter((id) => !known.has(id));
    if (added.length === 0) return { result: false };
    return { next: { ...current, endpoints: { ...current.endpoints, [to]: [...(current.endpoints[to] ?? []), ...added].slice(-DEFAULT_MAX_IDS) } }, result: true };
  });
}

function addTaken(file: LockedJsonFile<LedgerFile | undefined>, endpoint: string, ids: readonly string[], maxIds: number): Promise<void> {
  return file.update((current) => {
    const own = current?.endpoints[endpoint];
    const known = new Set([...(current?.ids ?? []), ...(own ?? [])]);
    const added = [...new Set(ids)].filter((id) => !known.has(id));
    if (own !== undefined && added.length === 0) return { result: undefined };
    const endpoints = { ...current?.endpoints, [endpoint]: [...(own ?? []), ...added].slice(-maxIds) };
    return { next: { ids: current?.ids ?? [], endpoints }, result: undefined };
  });
}

function parseLedgerFile(raw: unknown): LedgerFile | undefined {
  if (!isRecord(raw)) return undefined;
  const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []);
  const endpoints: Record<string, string[]> = {};
  if (isRecord(raw['endpoints'])) for (const [endpoint, ids] of Object.entries(raw['endpoints'])) endpoints[endpoint] = strings(ids);
  if (!Array.isArray(raw['ids']) && Object.keys(endpoints).length === 0) return undefined;
  return { ids: strings(raw['ids']), endpoints };
}
