// GraphitiMcpClient: the same interface as GraphitiClient, spoken to Graphiti's MCP server
// (mcp_server/, Streamable HTTP at `/mcp/`) through the official MCP SDK, which is loaded when the
// first session opens (load-mcp-sdk.ts), never by constructing a client. One session is opened on
// the first call, reused by every later one, and opened again when the server has forgotten it (a
// restart). Each tool call has the REST client's timeout, abort and retry policy.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Agent, type Dispatcher } from 'undici';
import { z } from 'zod';
import { GraphitiAbortError, GraphitiResponseValidationError, GraphitiUsageError, type RequestDescription } from '../errors.js';
import type { GraphitiApi, ServerFace } from '../graphiti-api.js';
import {
  resolveClientOptions,
  resolveRequestOptions,
  type AddMessagesOptions,
  type GraphitiClientOptions,
  type RequestOptions,
  type ResolvedClientOptions,
  type ResolvedRequestOptions,
} from '../options.js';
import { withRetries } from '../retry.js';
import {
  addMemoryRequestSchema,
  addTripletRequestSchema,
  capabilitiesOfTools,
  toolListSchema,
  tripletResponseSchema,
  type AddMemoryRequest,
  type AddTripletRequest,
  type GraphitiCapabilities,
  type ToolList,
  type TripletResponse,
} from '../structure.js';
import {
  factResultSchema,
  groupIdSchema,
  type AddEntityNodeRequest,
  type EntityNode,
  searchQuerySchema,
  type AddMessagesRequest,
  type Episode,
  type FactResult,
  type Healthcheck,
  type Result,
  type SearchQuery,
  type SearchResults,
} from '../schemas.js';
import { sendOnce, type TransportSettings } from '../transport/request.js';
import { checkResponse, newMessagesRequestSchema, parseRequest } from '../validation.js';
import { isSessionLost, toolError, transportError } from './mcp-errors.js';
import { callSignal } from './call-signal.js';
import { createMcpFetch } from './mcp-fetch.js';
import { McpSession, type Session } from './mcp-session.js';
import {
  episodeSearchResponseSchema,
  factSearchResponseSchema,
  healthResponseSchema,
  statusResponseSchema,
  successResponseSchema,
  toolResultSchema,
  type McpEpisode,
  type ToolResult,
} from './mcp-schemas.js';

const uuidArgumentSchema = z.string().min(1, 'uuid must be a non-empty string');
const lastNSchema = z
  .number({ error: 'lastN is required' })
  .int('lastN must be a whole number')
  .positive('lastN must be 1 or more');

/** `get_episodes` pages: grown until a page is not full, i.e. it covers the whole group. */
const FIRST_EPISODE_PAGE = 500;
const EPISODE_PAGE_GROWTH = 8;
const MAX_EPISODE_PAGE = 256_000;

/** The MCP endpoint's path under the server root, as upstream serves it. */
const MCP_PATH = '/mcp/';

/** A base URL may name the server root or its `/mcp` endpoint; both mean the same server. */
export function mcpServerRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/mcp$/, '');
}

function toEpisode(episode: McpEpisode): Episode {
  // MCP's episodes carry no valid_at, labels or entity_edges: created_at stands in for valid_at.
  const createdAt = episode.created_at ?? new Date(0).toISOString();
  return {
    ...episode,
    created_at: createdAt,
    valid_at: createdAt,
    labels: [],
    entity_edges: [],
  };
}

export class GraphitiMcpClient implements GraphitiApi {
  private readonly options: ResolvedClientOptions;
  private readonly root: string;
  private readonly endpoint: URL;
  private readonly http: TransportSettings;
  private readonly fetch: FetchLike;
  /** The Agent this client created, which `close()` closes; a caller's dispatcher is never closed. */
  private readonly ownAgent: Agent | undefined;
  private readonly session: McpSession;
  /** What each session's tool list showed (a restarted server may be a newer build: read it again). */
  private readonly capabilitiesBySession = new WeakMap<Session, Promise<GraphitiCapabilities>>();
  private closed = false;

  constructor(options: GraphitiClientOptions) {
    this.options = resolveClientOptions(options);
    this.root = mcpServerRoot(this.options.baseUrl);
    this.endpoint = new URL(`${this.root}${MCP_PATH}`);
    this.ownAgent =
      options.dispatcher === undefined
        ? new Agent({ headersTimeout: this.options.timeoutMs, bodyTimeout: this.options.timeoutMs, connect: { timeout: this.options.timeoutMs } })
        : undefined;
    const dispatcher: Dispatcher = options.dispatcher ?? (this.ownAgent as Dispatcher);
    const root = new URL(this.root);
    this.http = {
      origin: root.origin,
      basePath: root.pathname.replace(/\/+$/, ''),
      headers: this.options.headers,
      jsonHeaders: { ...this.options.headers, 'content-type': 'application/json' },
      dispatcher,
    };
    // The SDK bounds each request by its own timer; undici's timers are only a backstop for a
    // request the SDK gave up on, so a per-call timeout above the client's is never cut short.
    // The client's headers (user agent, API key) on every request; `accept` is the SDK's to set.
    const { accept: _accept, ...headers } = this.options.headers;
    this.fetch = createMcpFetch(dispatcher, Math.max(this.options.timeoutMs * 4, 60_000), headers, this.options.maxResponseBytes);
    this.session = new McpSession(this.endpoint, this.fetch);
  }

  /** The server root (a trailing `/mcp` is dropped): `GET /health` and `/mcp/` live under it. */
  get baseUrl(): string {
    return this.root;
  }

  serverFace(): Promise<ServerFace> {
    return Promise.resolve({ kind: 'mcp', reason: `MCP client (Streamable HTTP at ${this.endpoint.pathname})` });
  }

  /** `GET /health`, then the `get_status` tool: the server runs and reaches its database. */
  async healthcheck(options?: RequestOptions): Promise<Healthcheck> {
    this.assertOpen('healthcheck');
    const settings = resolveRequestOptions('healthcheck', this.options, options);
    const call = { method: 'GET', path: '/health', responseSchema: healthResponseSchema } as const;
    const health = await withRetries(call, settings, () => sendOnce(this.http, call, settings));
    const status = await this.callTool('get_status', {}, statusResponseSchema, settings);
    if (status.status !== 'ok') {
      throw toolError(this.describe('get_status'), `Graphiti service not initialized: ${status.message}`);
    }
    return { ...health, status: health.status };
  }

  /**
   * One `add_memory` per message, in order (upstream processes a group's episodes in the order
   * they are queued). Each is retried on its own, so a retry never re-sends an earlier message.
   */
  async addMessages(request: AddMessagesRequest, options?: AddMessagesOptions): Promise<Result> {
    this.assertOpen('addMessages');
    const body = parseRequest('addMessages', newMessagesRequestSchema, request);
    const settings = resolveRequestOptions('addMessages', this.options, options);
    const guidance = options?.extractionInstructions;
    // Guidance only where this server's add_memory declares it (main since 29a7565); dropped elsewhere.
    const instructions =
      guidance !== undefined && guidance !== '' && (await this.capabilities(options)).extractionInstructions ? { custom_extraction_instructions: guidance } : {};
    for (const message of body.messages) {
      await this.callTool(
        'add_memory',
        {
          name: message.name ?? '',
          // What the REST server writes as the episode body.
          episode_body: `${message.role ?? ''}(${message.role_type}): ${message.content}`,
          group_id: body.group_id,
          source: 'message',
          source_description: message.source_description ?? '',
          ...(message.timestamp === undefined ? {} : { reference_time: message.timestamp }),
          ...instructions,
        },
        successResponseSchema,
        settings,
      );
    }
    return { message: 'Messages added to processing queue', success: true };
  }

  /**
   * Which structured writes this server takes, from its tool list (`tools/list`, once per session):
   * `add_triplet` present, `add_memory` declaring `custom_extraction_instructions`.
   */
  async capabilities(options?: RequestOptions): Promise<GraphitiCapabilities> {
    this.assertOpen('capabilities');
    const settings = resolveRequestOptions('capabilities', this.options, options);
    const request = this.describe('tools/list');
    let session: Session;
    try {
      session = await this.connected(settings, request);
    } catch (error) {
      throw transportError(error, request, settings);
    }
    let known = this.capabilitiesBySession.get(session);
    if (known === undefined) {
      known = this.readCapabilities(session, settings, request);
      this.capabilitiesBySession.set(session, known);
      // A failed read is not remembered: the next call asks again.
      known.catch(() => this.capabilitiesBySession.delete(session));
    }
    return known;
  }

  private async readCapabilities(session: Session, settings: ResolvedRequestOptions, request: RequestDescription): Promise<GraphitiCapabilities> {
    return withRetries(request, settings, async () => {
      const tools: ToolList['tools'] = [];
      let cursor: string | undefined;
      // FastMCP answers in one page; a cursor is followed a few times, never forever.
      for (let page = 0; page < 10; page++) {
        const call = callSignal(settings.signal);
        let list: ToolList;
        try {
          list = await session.client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, toolListSchema, {
            timeout: settings.timeoutMs,
            ...call.options,
          });
        } catch (error) {
          if (isSessionLost(error)) this.session.forget(session);
          throw transportError(error, request, settings);
        } finally {
          call.dispose();
        }
        tools.push(...list.tools);
        cursor = list.nextCursor;
        if (cursor === undefined) break;
      }
      return capabilitiesOfTools(tools);
    });
  }

  /**
   * `add_memory` as given: `source: "json"` writes structure (`episode_body` a JSON string, checked
   * here); `custom_extraction_instructions` only to a server whose `add_memory` declares it (else a
   * GraphitiUsageError: an older image would drop it silently). Queued: confirm by name.
   */
  async addMemory(request: AddMemoryRequest, options?: RequestOptions): Promise<Result> {
    this.assertOpen('addMemory');
    const body = parseRequest('addMemory', addMemoryRequestSchema, request);
    if (body.custom_extraction_instructions !== undefined && !(await this.capabilities(options)).extractionInstructions) {
      throw new GraphitiUsageError(
        "addMemory: this server's add_memory does not take custom_extraction_instructions (released MCP images before upstream main 29a7565 drop it). Leave it out, or check capabilities() first.",
      );
    }
    return this.simple('addMemory', 'add_memory', { ...body }, options);
  }

  /** `add_triplet` (main since 29a7565): one edge between named nodes, written directly. */
  async addTriplet(request: AddTripletRequest, options?: RequestOptions): Promise<TripletResponse> {
    this.assertOpen('addTriplet');
    const body = parseRequest('addTriplet', addTripletRequestSchema, request);
    if (!(await this.capabilities(options)).triplets) {
      throw new GraphitiUsageError(
        'addTriplet: this MCP server has no add_triplet tool (it came with upstream main 29a7565; released images before it lack it). Check capabilities() first.',
      );
    }
    const settings = resolveRequestOptions('addTriplet', this.options, options);
    return this.callTool('add_triplet', { ...body }, tripletResponseSchema, settings);
  }

  /** REST only: the MCP server has no tool that writes a node by itself (use addTriplet). */
  addEntityNode(_request: AddEntityNodeRequest): Promise<EntityNode> {
    return Promise.reject(
      new GraphitiUsageError('addEntityNode is the REST route POST /entity-node: the MCP server has no such tool. Use addTriplet (nodes come with their edge) or a REST client.'),
    );
  }

  /** `search_memory_facts` over the named groups. */
  async search(query: SearchQuery, options?: RequestOptions): Promise<SearchResults> {
    this.assertOpen('search');
    const parsed = parseRequest('search', searchQuerySchema, query);
    if (parsed.group_ids === null) {
      throw new GraphitiUsageError(
        'search with group_ids: null (every group) is not possible over MCP: the MCP server searches its default group instead. Name the groups to search.',
      );
    }
    const settings = resolveRequestOptions('search', this.options, options);
    const answer = await this.callTool(
      'search_memory_facts',
      { query: parsed.query, group_ids: parsed.group_ids, ...(parsed.max_facts === undefined ? {} : { max_facts: parsed.max_facts }) },
      factSearchResponseSchema,
      settings,
    );
    return { facts: answer.facts };
  }

  /**
   * The newest `lastN` episodes, oldest first, like the REST route. `get_episodes` answers by uuid
   * (descending) cut at `max_episodes`, so "the last N" there is a random N: this reads the whole
   * group (pages grow until one is not full) and orders by `created_at` itself.
   */
  async getEpisodes(groupId: string, query: { readonly lastN: number }, options?: RequestOptions): Promise<Episode[]> {
    this.assertOpen('getEpisodes');
    const group = parseRequest('getEpisodes', groupIdSchema, groupId);
    const lastN = parseRequest('getEpisodes', lastNSchema, (query as { lastN?: unknown } | undefined)?.lastN);
    const settings = resolveRequestOptions('getEpisodes', this.options, options);
    let page = FIRST_EPISODE_PAGE;
    let episodes: McpEpisode[];
    for (;;) {
      const answer = await this.callTool(
        'get_episodes',
        { group_ids: [group], max_episodes: page },
        episodeSearchResponseSchema,
        settings,
      );
      episodes = answer.episodes;
      if (episodes.length < page || page >= MAX_EPISODE_PAGE) break;
      page = Math.min(page * EPISODE_PAGE_GROWTH, MAX_EPISODE_PAGE);
    }
    const sorted = episodes
      .map((episode, index) => ({ episode, index, at: Date.parse(episode.created_at ?? '') || 0 }))
      .sort((left, right) => left.at - right.at || left.index - right.index)
      .map(({ episode }) => toEpisode(episode));
    return sorted.slice(-lastN);
  }

  /** `get_entity_edge`: one fact; GraphitiNotFoundError when unknown. */
  async getEntityEdge(uuid: string, options?: RequestOptions): Promise<FactResult> {
    this.assertOpen('getEntityEdge');
    const id = parseRequest('getEntityEdge', uuidArgumentSchema, uuid);
    const settings = resolveRequestOptions('getEntityEdge', this.options, options);
    return this.callTool('get_entity_edge', { uuid: id }, factResultSchema, settings);
  }

  /** `delete_entity_edge`; GraphitiNotFoundError when unknown. */
  async deleteEntityEdge(uuid: string, options?: RequestOptions): Promise<Result> {
    return this.simple('deleteEntityEdge', 'delete_entity_edge', { uuid: parseRequest('deleteEntityEdge', uuidArgumentSchema, uuid) }, options);
  }

  /** `delete_episode`: the episode and the facts only it supports (REST keeps those facts). */
  async deleteEpisode(uuid: string, options?: RequestOptions): Promise<Result> {
    return this.simple('deleteEpisode', 'delete_episode', { uuid: parseRequest('deleteEpisode', uuidArgumentSchema, uuid) }, options);
  }

  /** `clear_graph` for this one group (never without a group: that would clear the default one). */
  async deleteGroup(groupId: string, options?: RequestOptions): Promise<Result> {
    return this.simple('deleteGroup', 'clear_graph', { group_ids: [parseRequest('deleteGroup', groupIdSchema, groupId)] }, options);
  }

  /**
   * Ends the session (a DELETE, so the server can free it; best effort, bounded by timeoutMs) and
   * closes the Agent this client created. Later calls fail.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const ended = await this.session.end(this.options.timeoutMs);
    // A DELETE the server never answered would hold a graceful close: cut it instead.
    if (ended) await this.ownAgent?.close();
    else await this.ownAgent?.destroy();
  }

  private async simple(
    operation: string,
    tool: string,
    args: Record<string, unknown>,
    options: RequestOptions | undefined,
  ): Promise<Result> {
    this.assertOpen(operation);
    const settings = resolveRequestOptions(operation, this.options, options);
    const answer = await this.callTool(tool, args, successResponseSchema, settings);
    return { ...answer, success: true };
  }

  private assertOpen(operation: string): void {
    if (this.closed) {
      throw new GraphitiUsageError(`${operation} was called after close(). Create a new GraphitiMcpClient.`);
    }
  }

  private describe(tool: string): RequestDescription {
    return { method: 'MCP', path: `${this.endpoint.pathname} ${tool}` };
  }

  /** Opens the MCP session now (an `initialize` on `/mcp/`) instead of on the first call. */
  async openSession(options?: RequestOptions): Promise<void> {
    this.assertOpen('openSession');
    const settings = resolveRequestOptions('openSession', this.options, options);
    const request = this.describe('initialize');
    try {
      await this.connected(settings, request);
    } catch (error) {
      throw transportError(error, request, settings);
    }
  }

  /** The open session, opening one when there is none (see McpSession). */
  private connected(settings: ResolvedRequestOptions, request: RequestDescription): Promise<Session> {
    return this.session.connected(
      settings.timeoutMs,
      settings.signal,
      () => new GraphitiAbortError(`${request.method} ${request.path} was aborted by the caller.`, request),
    );
  }

  /** One tool call with retries; a lost session is opened again once, without counting a retry. */
  private async callTool<Schema extends z.ZodType>(
    tool: string,
    args: Record<string, unknown>,
    schema: Schema,
    settings: ResolvedRequestOptions,
  ): Promise<z.output<Schema>> {
    const request = this.describe(tool);
    return withRetries(request, settings, async () => {
      if (settings.signal?.aborted) {
        throw new GraphitiAbortError(`${request.method} ${request.path} was aborted by the caller before it was sent.`, request);
      }
      let result: ToolResult;
      try {
        result = await this.attempt(tool, args, settings, request);
      } catch (error) {
        if (!isSessionLost(error) || this.closed) throw transportError(error, request, settings);
        try {
          result = await this.attempt(tool, args, settings, request);
        } catch (again) {
          throw transportError(again, request, settings);
        }
      }
      return this.decode(result, schema, request);
    });
  }

  private async attempt(
    tool: string,
    args: Record<string, unknown>,
    settings: ResolvedRequestOptions,
    request: RequestDescription,
  ): Promise<ToolResult> {
    const session = await this.connected(settings, request);
    const call = callSignal(settings.signal);
    try {
      // `request` rather than `callTool`: the same `tools/call`, checked against toolResultSchema.
      // callTool's extras (tool output schemas, task tools) need a tools/list this client never sends.
      return await session.client.request({ method: 'tools/call', params: { name: tool, arguments: args } }, toolResultSchema, {
        timeout: settings.timeoutMs,
        ...call.options,
      });
    } catch (error) {
      if (isSessionLost(error)) this.session.forget(session);
      throw error;
    } finally {
      call.dispose();
    }
  }

  private decode<Schema extends z.ZodType>(result: ToolResult, schema: Schema, request: RequestDescription): z.output<Schema> {
    const text = result.content.find((part) => part.type === 'text')?.text ?? '';
    if (result.isError === true) throw toolError(request, text === '' ? 'the tool failed without a message' : text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch (error) {
      throw new GraphitiResponseValidationError(
        `${request.method} ${request.path} answered text that is not JSON. The server is not Graphiti's MCP server, or a newer one changed its answers.`,
        { ...request, status: 200, rawBody: text, issues: [] },
        { cause: error },
      );
    }
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { error?: unknown }).error === 'string') {
      throw toolError(request, (parsed as { error: string }).error);
    }
    return checkResponse(schema, parsed, text, { ...request, status: 200 });
  }
}
