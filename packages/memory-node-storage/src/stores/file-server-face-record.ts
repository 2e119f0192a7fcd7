// Which face (REST or MCP) an endpoint answered with, remembered across processes: with the
// `auto` server setting every hook event (and every harness command) builds a new client, and a
// client that must find the face first probes the server (GET /healthcheck, and in parallel the
// MCP face's GET /health + an MCP initialize, which loads the MCP SDK). The face seen last is kept
// per endpoint (`server-face.json`, mode 0600, no content: the face and when it was seen), used
// without probing, and forgotten when a call says it is wrong, so the next run probes again.
import { promises as fs } from 'node:fs';
import { endpointStateFiles } from '../state/state-layout.js';
import { isRecord, LockedJsonFile } from './locked-json-file.js';

/** The faces a record may hold (graphiti-client's `GraphitiServerKind`). */
export type RememberedServerFace = 'rest' | 'mcp';

interface ServerFaceRecord {
  readonly kind: RememberedServerFace;
  /** When a probe saw it (ISO 8601): for a person reading the file. */
  readonly seenAt: string;
}

export class FileServerFaceRecord {
  readonly #file: LockedJsonFile<ServerFaceRecord | undefined>;

  constructor(readonly filePath: string) {
    // A lost record costs one probe, never an answer: no run waits for the disk's flush.
    this.#file = new LockedJsonFile(filePath, parseRecord, undefined, { fsync: false });
  }

  /** The record of `endpoint` (normalised) in the state folder. */
  static of(stateDirectory: string, endpoint: string): FileServerFaceRecord {
    return new FileServerFaceRecord(endpointStateFiles(stateDirectory, endpoint).serverFace);
  }

  /** The face remembered; `undefined` when none is, or the record cannot be read (then: probe). */
  async read(): Promise<RememberedServerFace | undefined> {
    return (await this.#file.read().catch(() => undefined))?.kind;
  }

  /** Records `kind` (nothing is written when it is already the face on record). */
  async remember(kind: RememberedServerFace, now: Date = new Date()): Promise<void> {
    await this.#file.update((current) => (current?.kind === kind ? { result: undefined } : { next: { kind, seenAt: now.toISOString() }, result: undefined }));
  }

  /** Forgets the face: the next client probes. */
  async forget(): Promise<void> {
    await fs.rm(this.filePath, { force: true });
  }
}

function parseRecord(raw: unknown): ServerFaceRecord | undefined {
  if (!isRecord(raw) || (raw['kind'] !== 'rest' && raw['kind'] !== 'mcp')) return undefined;
  return { kind: raw['kind'], seenAt: typeof raw['seenAt'] === 'string' ? raw['seenAt'] : '' };
}
