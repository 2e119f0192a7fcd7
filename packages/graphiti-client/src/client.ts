// GraphitiClient: one method per route of graphiti-api.md, wire field names in and out. Each call
// validates its input, sends through the client's dispatcher with a bounded timeout, retries what
// is safe to retry, and validates what comes back.
import { Agent, type Dispatcher } from 'undici';
import { z } from 'zod';
import { GraphitiUsageError } from './errors.js';
import type { GraphitiApi, ServerFace } from './graphiti-api.js';
import {
  resolveClientOptions,
  resolveRequestOptions,
  type GraphitiClientOptions,
  type RequestOptions,
  type ResolvedClientOptions,
} from './options.js';
import { withRetries } from './retry.js';
import {
  addEntityNodeRequestSchema,
  entityNodeSchema,
  episodesSchema,
  factResultSchema,
  getMemoryRequestSchema,
  groupIdSchema,
  healthcheckSchema,
  resultSchema,
  searchQuerySchema,
  searchResultsSchema,
  type AddEntityNodeRequest,
  type AddMessagesRequest,
  type EntityNode,
  type Episode,
  type FactResult,
  type GetMemoryRequest,
  type Healthcheck,
  type Result,
  type SearchQuery,
  type SearchResults,
} from './schemas.js';
import { sendOnce, type HttpCall, type TransportSettings } from './transport/request.js';
import { newMessagesRequestSchema, parseRequest } from './validation.js';
import { REST_CAPABILITIES, type AddMemoryRequest, type AddTripletRequest, type GraphitiCapabilities, type TripletResponse } from './structure.js';

const uuidArgumentSchema = z.string().min(1, 'uuid must be a non-empty string');
const lastNSchema = z
  .number({ error: 'lastN is required: the server answers 422 without last_n' })
  .int('lastN must be a whole number')
  .positive('lastN must be 1 or more');

export class GraphitiClient implements GraphitiApi {
  private readonly options: ResolvedClientOptions;
  private readonly transport: TransportSettings;
  /** The Agent this client created, which `close()` closes; a caller's dispatcher is never closed. */
  private readonly ownAgent: Agent | undefined;
  private closed = false;

  constructor(options: GraphitiClientOptions) {
    this.options = resolveClientOptions(options);
    this.ownAgent =
      options.dispatcher === undefined
        ? new Agent({
            // One keep-alive pool per client; undici's own timers match the client's timeout so
            // they never cut a call short of it, and a per-call override is passed per request.
            headersTimeout: this.options.timeoutMs,
            bodyTimeout: this.options.timeoutMs,
            connect: { timeout: this.options.timeoutMs },
          })
        : undefined;
    const base = new URL(this.options.baseUrl);
    this.transport = {
      origin: base.origin,
      basePath: base.pathname.replace(/\/+$/, ''),
      headers: this.options.headers,
      jsonHeaders: { ...this.options.headers, 'content-type': 'application/json' },
      dispatcher: options.dispatcher ?? (this.ownAgent as Dispatcher),
    };
  }

  /** The normalised base URL (no trailing slash). */
  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** This client speaks the REST face, whatever the server is (see createGraphitiClient for `auto`). */
  serverFace(): Promise<ServerFace> {
    return Promise.resolve({ kind: 'rest', reason: 'REST client (graph_service routes)' });
  }

  /** GET /healthcheck → `{ status: "healthy" }`. */
  healthcheck(options?: RequestOptions): Promise<Healthcheck> {
    return this.send('healthcheck', { method: 'GET', path: '/healthcheck', responseSchema: healthcheckSchema }, options);
  }

  /**
   * POST /messages (202): queues the messages for processing. Accepted is not stored: confirm
   * through `getEpisodes` by message `name`. A message `uuid` is refused (upstream #1646).
   */
  async addMessages(request: AddMessagesRequest, options?: RequestOptions): Promise<Result> {
    const body = parseRequest('addMessages', newMessagesRequestSchema, request);
    return this.send('addMessages', { method: 'POST', path: '/messages', body, responseSchema: resultSchema }, options);
  }

  /** REST takes entity nodes (`/entity-node`), not JSON episodes, triplets or extraction guidance. */
  capabilities(): Promise<GraphitiCapabilities> {
    return Promise.resolve(REST_CAPABILITIES);
  }

  /** MCP only: the REST service has no `add_memory` (and no JSON episodes). */
  addMemory(_request: AddMemoryRequest): Promise<Result> {
    return Promise.reject(
      new GraphitiUsageError('addMemory is an MCP tool: the REST service has no JSON episodes. Send messages with addMessages, or point the client at an MCP server.'),
    );
  }

  /** MCP only (main since 29a7565): the REST service has no route for an edge between given nodes. */
  addTriplet(_request: AddTripletRequest): Promise<TripletResponse> {
    return Promise.reject(
      new GraphitiUsageError('addTriplet is an MCP tool (upstream main since 29a7565): the REST service cannot write an edge between given nodes. Use addEntityNode for nodes.'),
    );
  }

  /**
   * POST /entity-node (201): creates an entity node with the caller's uuid. Upstream saves it with
   * `MERGE (n:Entity {uuid})`, so posting the same uuid again updates that node (idempotent).
   */
  async addEntityNode(request: AddEntityNodeRequest, options?: RequestOptions): Promise<EntityNode> {
    const body = parseRequest('addEntityNode', addEntityNodeRequestSchema, request);
    return this.send(
      'addEntityNode',
      { method: 'POST', path: '/entity-node', body, responseSchema: entityNodeSchema },
      options,
    );
  }

  /** POST /search: facts of the given groups (`group_ids: null` searches every group). */
  async search(query: SearchQuery, options?: RequestOptions): Promise<SearchResults> {
    const body = parseRequest('search', searchQuerySchema, query);
    return this.send('search', { method: 'POST', path: '/search', body, responseSchema: searchResultsSchema }, options);
  }

  /** POST /get-memory: facts relevant to the messages, within one group. */
  async getMemory(request: GetMemoryRequest, options?: RequestOptions): Promise<SearchResults> {
    const body = parseRequest('getMemory', getMemoryRequestSchema, request);
    return this.send(
      'getMemory',
      { method: 'POST', path: '/get-memory', body, responseSchema: searchResultsSchema },
      options,
    );
  }

  /** GET /episodes/{group_id}?last_n=N: the newest `lastN` processed episodes, oldest first. */
  async getEpisodes(groupId: string, query: { readonly lastN: number }, options?: RequestOptions): Promise<Episode[]> {
    const group = parseRequest('getEpisodes', groupIdSchema, groupId);
    const lastN = parseRequest('getEpisodes', lastNSchema, (query as { lastN?: unknown } | undefined)?.lastN);
    return this.send(
      'getEpisodes',
      {
        method: 'GET',
        path: `/episodes/${encodeURIComponent(group)}`,
        query: { last_n: String(lastN) },
        responseSchema: episodesSchema,
      },
      options,
    );
  }

  /** GET /entity-edge/{uuid}: one fact; GraphitiNotFoundError when unknown. */
  async getEntityEdge(uuid: string, options?: RequestOptions): Promise<FactResult> {
    const id = parseRequest('getEntityEdge', uuidArgumentSchema, uuid);
    return this.send(
      'getEntityEdge',
      { method: 'GET', path: `/entity-edge/${encodeURIComponent(id)}`, responseSchema: factResultSchema },
      options,
    );
  }

  /** DELETE /entity-edge/{uuid}; GraphitiNotFoundError when unknown. */
  async deleteEntityEdge(uuid: string, options?: RequestOptions): Promise<Result> {
    const id = parseRequest('deleteEntityEdge', uuidArgumentSchema, uuid);
    return this.send(
      'deleteEntityEdge',
      { method: 'DELETE', path: `/entity-edge/${encodeURIComponent(id)}`, responseSchema: resultSchema },
      options,
    );
  }

  /** DELETE /episode/{uuid}: removes the episode node only (its facts stay); 404 when unknown. */
  async deleteEpisode(uuid: string, options?: RequestOptions): Promise<Result> {
    const id = parseRequest('deleteEpisode', uuidArgumentSchema, uuid);
    return this.send(
      'deleteEpisode',
      { method: 'DELETE', path: `/episode/${encodeURIComponent(id)}`, responseSchema: resultSchema },
      options,
    );
  }

  /** DELETE /group/{group_id}: removes every node and edge of the group; an unknown group is a 200. */
  async deleteGroup(groupId: string, options?: RequestOptions): Promise<Result> {
    const group = parseRequest('deleteGroup', groupIdSchema, groupId);
    return this.send(
      'deleteGroup',
      { method: 'DELETE', path: `/group/${encodeURIComponent(group)}`, responseSchema: resultSchema },
      options,
    );
  }

  /** POST /clear: **wipes the whole database, every group**. Meant for test servers only. */
  clear(options?: RequestOptions): Promise<Result> {
    return this.send('clear', { method: 'POST', path: '/clear', responseSchema: resultSchema }, options);
  }

  /** Closes the Agent this client created (a caller's dispatcher stays open). Later calls fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.ownAgent?.close();
  }

  private async send<Schema extends z.ZodType>(
    operation: string,
    call: HttpCall<Schema>,
    options: RequestOptions | undefined,
  ): Promise<z.output<Schema>> {
    if (this.closed) {
      throw new GraphitiUsageError(`${operation} was called after close(). Create a new GraphitiClient.`);
    }
    const settings = resolveRequestOptions(operation, this.options, options);
    return withRetries(call, settings, () => sendOnce(this.transport, call, settings));
  }
}
