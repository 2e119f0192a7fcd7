// The local record of every request that carried memory content or a query off the machine: which
// tool sent it, where, over which face and operation, to which groups and how much — never what.
// Users read it to see what was sent (`graphiti-harness audit`, "Show What Was Sent"); every tool
// writes the same log, so each of them shows what all of them sent.
import { normaliseEndpoint } from '../settings/endpoint.js';

/** The tools that send memory, as the audit log (and the group registry) name them. */
export type AuditTool = 'vscode-extension' | 'graphiti-harness' | 'agent-hooks';
export const AUDIT_TOOLS: readonly AuditTool[] = ['vscode-extension', 'graphiti-harness', 'agent-hooks'];

/** Graphiti's two server faces. */
export type AuditFace = 'rest' | 'mcp';

/** One request that carried memory content or a query. */
export interface AuditEntry {
  /** ISO-8601 time the request was made. */
  readonly at: string;
  /** The tool that sent it; absent only in entries written before tools were recorded. */
  readonly tool?: AuditTool;
  /** The endpoint (normalised, without credentials). */
  readonly endpoint: string;
  /** The face that carried it; absent when the client could not tell (and in older entries). */
  readonly face?: AuditFace;
  /** The REST route (`POST /messages`, `POST /search`) or the MCP tool (`add_memory`, `search_memory_facts`). */
  readonly operation: string;
  readonly groupIds: readonly string[];
  /** The episodes a write carried (none for a search). */
  readonly episodeNames: readonly string[];
  /** UTF-8 bytes of the request body of a write, of the query of a search. */
  readonly bytes: number;
  /** Redaction markers the secret guard left in the content or the query. */
  readonly redactions: number;
  /** `promotion` when every message is a curated memory, `messages` for other writes, `search` for a recall query. */
  /** `mirror`: a structured mirror write (`add_triplet`, `POST /entity-node`, a JSON `add_memory`). */
  readonly kind: 'messages' | 'promotion' | 'search' | 'mirror';  /** Who wrote each session digest the write carried, by episode name (`filtered` or `chatModel`); absent without digests. */
  readonly digestWriters?: Readonly<Record<string, 'filtered' | 'chatModel'>>;
}

export interface AuditQuery {
  /** Only entries at or after this time (milliseconds since the epoch). */
  readonly since?: number;
  /** Only entries of this endpoint (compared normalised: `HTTP://Host:80/` is `http://host`). */
  readonly endpoint?: string;
}

/** The audit log. `record` never waits for I/O and never throws. */
export interface AuditLog {
  record(entry: AuditEntry): void;
  /** Entries oldest first. */
  read(query?: AuditQuery): Promise<readonly AuditEntry[]>;
  flush(): Promise<void>;
}
export const AuditLog = Symbol.for('graphiti-memory.AuditLog');

/** Entries in memory, oldest first (tests, one-shot tools). */
export class InMemoryAuditLog implements AuditLog {
  readonly entries: AuditEntry[] = [];

  record(entry: AuditEntry): void {
    this.entries.push(entry);
  }

  async read(query: AuditQuery = {}): Promise<readonly AuditEntry[]> {
    return filterAuditEntries(this.entries, query);
  }

  async flush(): Promise<void> {}
}

/** The entries `query` selects, oldest first (stable for entries of the same time). */
export function filterAuditEntries(entries: readonly AuditEntry[], query: AuditQuery): AuditEntry[] {
  const { since } = query;
  const endpoint = query.endpoint === undefined ? undefined : auditEndpointKey(query.endpoint);
  return entries
    .map((entry, index) => ({ entry, index, at: Date.parse(entry.at) }))
    .filter(({ entry, at }) => (since === undefined || at >= since) && (endpoint === undefined || auditEndpointKey(entry.endpoint) === endpoint))
    .sort((left, right) => left.at - right.at || left.index - right.index)
    .map(({ entry }) => entry);
}

/**
 * How two endpoints compare: normalised, and without a label after the URL (the harness records
 * `http://127.0.0.1:41234 (in-process emulator)`).
 */
export function auditEndpointKey(endpoint: string): string {
  const url = endpoint.trim().split(/\s+/)[0] ?? '';
  return normaliseEndpoint(url) ?? url;
}

/**
 * An entry as stored by any version: older lines named the operation `route` and held one
 * `groupId`. `undefined` when the value is no audit entry.
 */
export function auditEntryFrom(value: unknown): AuditEntry | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  const operation = typeof raw['operation'] === 'string' ? raw['operation'] : raw['route'];
  const groupIds = Array.isArray(raw['groupIds']) ? raw['groupIds'] : typeof raw['groupId'] === 'string' ? [raw['groupId']] : undefined;
  const kind = raw['kind'];
  if (
    typeof raw['at'] !== 'string' ||
    typeof raw['endpoint'] !== 'string' ||
    typeof operation !== 'string' ||
    groupIds === undefined ||
    !groupIds.every((group) => typeof group === 'string') ||
    (kind !== 'messages' && kind !== 'promotion' && kind !== 'search' && kind !== 'mirror')
  ) {
    return undefined;
  }
  const names = Array.isArray(raw['episodeNames']) ? raw['episodeNames'].filter((name): name is string => typeof name === 'string') : [];
  const tool = AUDIT_TOOLS.find((known) => known === raw['tool']);
  const face = raw['face'] === 'rest' || raw['face'] === 'mcp' ? raw['face'] : undefined;
  const digestWriters = digestWritersFrom(raw['digestWriters']);
  return {
    at: raw['at'],
    ...(tool === undefined ? {} : { tool }),
    endpoint: raw['endpoint'],
    ...(face === undefined ? {} : { face }),
    operation,
    groupIds: groupIds as string[],
    episodeNames: names,
    bytes: typeof raw['bytes'] === 'number' ? raw['bytes'] : 0,
    redactions: typeof raw['redactions'] === 'number' ? raw['redactions'] : 0,
    kind,
    ...(digestWriters === undefined ? {} : { digestWriters }),
  };
}

/** Who wrote the digests of a write, for people: `2 digests: 1 by the chat model, 1 filtered`; `''` without digests. */
export function digestWritersText(entry: Pick<AuditEntry, 'digestWriters'>): string {
  const writers = Object.values(entry.digestWriters ?? {});
  if (writers.length === 0) return '';
  const byModel = writers.filter((writer) => writer === 'chatModel').length;
  const parts = [...(byModel > 0 ? [`${byModel} by the chat model`] : []), ...(writers.length > byModel ? [`${writers.length - byModel} filtered`] : [])];
  return `${writers.length} ${writers.length === 1 ? 'digest' : 'digests'}: ${parts.join(', ')}`;
}

/** A stored `digestWriters` (episode name → writer), its well-formed pairs only. */
function digestWritersFrom(value: unknown): Record<string, 'filtered' | 'chatModel'> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const pairs = Object.entries(value).filter((pair): pair is [string, 'filtered' | 'chatModel'] => pair[1] === 'filtered' || pair[1] === 'chatModel');
  return pairs.length === 0 ? undefined : Object.fromEntries(pairs);
}
