// A GraphitiApi that records every request carrying memory content (add-messages) or a query
// (search) in the audit log before sending it, so ingestion, promotion and recall are audited
// without knowing about it. Only metadata is recorded: never the content, never the query text.
import type {
  AddEntityNodeRequest,
  AddMemoryRequest,
  AddMessagesRequest,
  AddTripletRequest,
  EntityNode,
  FactResult,
  GraphitiCapabilities,
  Result,
  SearchQuery,
  SearchResults,
  TripletResponse,
} from '@graphiti-memory/graphiti-client';
import { digestWriterOf } from '../digest/digest-writer.js';
import { APP_NAME } from '../mapping/turn-mapping.js';
import type { GraphitiApi, GraphitiCallOptions, GraphitiConnection } from '../ports.js';
import type { AuditEntry, AuditFace, AuditLog, AuditTool } from './audit-log.js';

const REDACTION_MARKER = /\[REDACTED:[^\]\s]*\]/g;
const PROMOTION_PREFIX = `${APP_NAME}.promotion.`;
/** The mirror's episodes (`mirror.turn.<hash>`): on REST they are messages. */
const MIRROR_PREFIX = 'mirror.';
const encoder = new TextEncoder();

/** What each face calls the operation: the REST route, or the MCP server's tool. */
const OPERATIONS: Record<AuditFace, Record<'write' | 'search', string>> = {
  rest: { write: 'POST /messages', search: 'POST /search' },
  mcp: { write: 'add_memory', search: 'search_memory_facts' },
};

export interface AuditTarget {
  /** The endpoint as shown to the user; never with credentials. */
  readonly endpoint: string;
  /** The tool that sends (every composition names itself; only tests leave it out). */
  readonly tool?: AuditTool;
  readonly now?: () => number;
}

export class AuditedGraphitiApi implements GraphitiApi {
  constructor(
    private readonly inner: GraphitiApi,
    private readonly log: AuditLog,
    private readonly target: AuditTarget,
  ) {}

  healthcheck(options?: GraphitiCallOptions) {
    return this.inner.healthcheck(options);
  }

  async addMessages(request: AddMessagesRequest, options?: GraphitiCallOptions): Promise<Result> {
    // An `auto` client learns its face by probing, which its first call does anyway; a failed probe
    // fails the call the same way, and then nothing left the machine.
    const face = await this.#face(options);
    this.#record(() => auditEntryOf(request, { ...this.target, ...(face === undefined ? {} : { face }) }));
    return this.inner.addMessages(request, options);
  }

  async search(query: SearchQuery, options?: GraphitiCallOptions): Promise<SearchResults> {
    const face = await this.#face(options);
    this.#record(() => searchAuditEntryOf(query, { ...this.target, ...(face === undefined ? {} : { face }) }));
    return this.inner.search(query, options);
  }

  /** The inner client's; a client that cannot tell takes messages only. */
  capabilities(options?: GraphitiCallOptions): Promise<GraphitiCapabilities> {
    if (this.inner.capabilities === undefined) {
      return Promise.resolve({ face: 'rest', jsonEpisodes: false, extractionInstructions: false, triplets: false, entityNodes: false });
    }
    return this.inner.capabilities(options);
  }

  async addMemory(request: AddMemoryRequest, options?: GraphitiCallOptions): Promise<Result> {
    if (this.inner.addMemory === undefined) throw new Error('this Graphiti connection cannot add JSON episodes');
    this.#record(() => structureAuditEntryOf('add_memory', request.group_id, [request.name], request, this.target));
    return this.inner.addMemory(request, options);
  }

  async addTriplet(request: AddTripletRequest, options?: GraphitiCallOptions): Promise<TripletResponse> {
    if (this.inner.addTriplet === undefined) throw new Error('this Graphiti connection cannot add triplets');
    this.#record(() => structureAuditEntryOf('add_triplet', request.group_id, [], request, this.target));
    return this.inner.addTriplet(request, options);
  }

  async addEntityNode(request: AddEntityNodeRequest, options?: GraphitiCallOptions): Promise<EntityNode> {
    if (this.inner.addEntityNode === undefined) throw new Error('this Graphiti connection cannot add entity nodes');
    this.#record(() => structureAuditEntryOf('POST /entity-node', request.group_id, [], request, this.target));
    return this.inner.addEntityNode(request, options);
  }

  getEpisodes(...args: Parameters<GraphitiApi['getEpisodes']>) {
    return this.inner.getEpisodes(...args);
  }

  deleteEpisode(...args: Parameters<GraphitiApi['deleteEpisode']>) {
    return this.inner.deleteEpisode(...args);
  }

  deleteGroup(...args: Parameters<GraphitiApi['deleteGroup']>) {
    return this.inner.deleteGroup(...args);
  }

  getEntityEdge(uuid: string, options?: GraphitiCallOptions): Promise<FactResult> {
    if (this.inner.getEntityEdge === undefined) return Promise.reject(new Error('this Graphiti connection cannot read facts by uuid'));
    return this.inner.getEntityEdge(uuid, options);
  }

  deleteEntityEdge(uuid: string, options?: GraphitiCallOptions): Promise<Result> {
    if (this.inner.deleteEntityEdge === undefined) return Promise.reject(new Error('this Graphiti connection cannot delete facts'));
    return this.inner.deleteEntityEdge(uuid, options);
  }

  /** The face the inner client speaks, passed through (forgetting a source works differently on each). */
  serverFace(options?: GraphitiCallOptions): Promise<{ readonly kind: 'rest' | 'mcp' }> {
    return this.inner.serverFace === undefined ? Promise.resolve({ kind: 'rest' }) : this.inner.serverFace(options);
  }

  async #face(options: GraphitiCallOptions | undefined): Promise<{ readonly kind: AuditFace } | undefined> {
    return this.inner.serverFace === undefined ? undefined : this.inner.serverFace(options);
  }

  #record(entry: () => AuditEntry): void {
    try {
      this.log.record(entry());
    } catch {
      // The audit log must never stop delivery or recall; its implementations do not throw anyway.
    }
  }
}

interface EntryTarget extends AuditTarget {
  readonly face?: { readonly kind: AuditFace };
}

function common(target: EntryTarget, kind: 'write' | 'search') {
  const face = target.face?.kind;
  return {
    at: new Date(target.now?.() ?? Date.now()).toISOString(),
    ...(target.tool === undefined ? {} : { tool: target.tool }),
    endpoint: target.endpoint,
    ...(face === undefined ? {} : { face }),
    operation: OPERATIONS[face ?? 'rest'][kind],
  };
}

/** The audit record of one add-messages request: sizes and names, never content. */
export function auditEntryOf(request: AddMessagesRequest, target: EntryTarget): AuditEntry {
  const names = request.messages.map((message) => message.name ?? '');
  let redactions = 0;
  for (const message of request.messages) redactions += countRedactions(message.content);
  return {
    ...common(target, 'write'),
    groupIds: [request.group_id],
    episodeNames: names,
    bytes: encoder.encode(JSON.stringify(request)).length,
    redactions,
    kind:
      names.length > 0 && names.every((name) => name.startsWith(PROMOTION_PREFIX))
        ? 'promotion'
        : names.length > 0 && names.every((name) => name.startsWith(MIRROR_PREFIX))
          ? 'mirror'
          : 'messages',
    ...digestWritersOf(request),
  };
}

/** The audit record of one structured mirror write: its operation, group and size, never content. */
function structureAuditEntryOf(operation: string, groupId: string, names: readonly string[], request: object, target: AuditTarget): AuditEntry {
  const body = JSON.stringify(request);
  return {
    at: new Date(target.now?.() ?? Date.now()).toISOString(),
    ...(target.tool === undefined ? {} : { tool: target.tool }),
    endpoint: target.endpoint,
    face: operation.startsWith('POST') ? 'rest' : 'mcp',
    operation,
    groupIds: [groupId],
    episodeNames: names,
    bytes: encoder.encode(body).length,
    redactions: countRedactions(body),
    kind: 'mirror',
  };
}

/** `{ digestWriters }` naming who wrote each digest of the request; `{}` when it carries none. */
function digestWritersOf(request: AddMessagesRequest): Pick<AuditEntry, 'digestWriters'> {
  const writers: Record<string, 'filtered' | 'chatModel'> = {};
  for (const message of request.messages) {
    const writer = digestWriterOf(message);
    if (writer !== undefined && message.name) writers[message.name] = writer;
  }
  return Object.keys(writers).length === 0 ? {} : { digestWriters: writers };
}

/** The audit record of one search: the groups, the query's size and redactions, never the query. */
export function searchAuditEntryOf(query: SearchQuery, target: EntryTarget): AuditEntry {
  return {
    ...common(target, 'search'),
    groupIds: query.group_ids ?? [],
    episodeNames: [],
    bytes: encoder.encode(query.query).length,
    redactions: countRedactions(query.query),
    kind: 'search',
  };
}

function countRedactions(text: string): number {
  return text.match(REDACTION_MARKER)?.length ?? 0;
}

/** `connection` with every API it hands out audited; the same wrapper while the API is the same. */
export function auditedConnection(connection: GraphitiConnection, log: AuditLog, target: AuditTarget): GraphitiConnection {
  let last: { inner: GraphitiApi; audited: GraphitiApi } | undefined;
  return {
    current() {
      const inner = connection.current();
      if (inner === undefined) return undefined;
      if (last?.inner !== inner) last = { inner, audited: new AuditedGraphitiApi(inner, log, target) };
      return last.audited;
    },
  };
}
