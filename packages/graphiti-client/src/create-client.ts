// createGraphitiClient: one entry point for either face. `rest` and `mcp` build that client;
// `auto` (the default) builds a client that probes the server once, on its first call, and then
// speaks whichever face answered: `/healthcheck` → REST; `/health` plus an MCP `initialize` on
// `/mcp/` → MCP; a URL ending in `/mcp` → MCP without probing. A failed probe is not remembered,
// so a server that comes up later is found on the next call.
import { GraphitiClient } from './client.js';
import { GraphitiAbortError, GraphitiUsageError, isGraphitiError } from './errors.js';
import { GRAPHITI_SERVER_CHOICES, type GraphitiApi, type GraphitiServerChoice, type ServerFace } from './graphiti-api.js';
import { GraphitiMcpClient } from './mcp/mcp-client.js';
import type { GraphitiClientOptions, RequestOptions } from './options.js';
import type { AddMessagesRequest, Episode, FactResult, Healthcheck, Result, SearchQuery, SearchResults } from './schemas.js';
import { untilAborted } from './until-aborted.js';

export interface CreateGraphitiClientOptions extends GraphitiClientOptions {
  /** Which face to speak; default `auto`. */
  readonly kind?: GraphitiServerChoice | undefined;
}

/** Whether the URL names an MCP endpoint (`…/mcp` or `…/mcp/`). */
export function isMcpEndpointUrl(baseUrl: string): boolean {
  return /\/mcp\/?$/.test(baseUrl);
}

export function createGraphitiClient(options: CreateGraphitiClientOptions): GraphitiApi {
  const { kind = 'auto', ...clientOptions } = options;
  if (!GRAPHITI_SERVER_CHOICES.includes(kind)) {
    throw new GraphitiUsageError(`createGraphitiClient was given kind "${String(kind)}"; use "auto", "rest" or "mcp".`);
  }
  if (kind === 'rest') return new GraphitiClient(clientOptions);
  if (kind === 'mcp') return new GraphitiMcpClient(clientOptions);
  return new AutoGraphitiClient(clientOptions);
}

interface Chosen {
  readonly client: GraphitiApi;
  readonly face: ServerFace;
}

/**
 * Probes `baseUrl` and answers a client of the face that answered (the caller closes it). REST is
 * preferred when both answer. Throws when neither does.
 */
export async function probeGraphitiServer(options: GraphitiClientOptions, request?: RequestOptions): Promise<Chosen> {
  const probe: RequestOptions = { ...request, maxRetries: 0 };
  if (isMcpEndpointUrl(options.baseUrl)) {
    return { client: new GraphitiMcpClient(options), face: { kind: 'mcp', reason: 'auto: the URL ends in /mcp' } };
  }
  const rest = new GraphitiClient(options);
  const mcp = new GraphitiMcpClient(options);
  const [restAnswer, mcpAnswer] = await Promise.allSettled([rest.healthcheck(probe), mcp.healthcheck(probe)]);
  if (restAnswer.status === 'fulfilled') {
    await mcp.close();
    return { client: rest, face: { kind: 'rest', reason: 'auto: GET /healthcheck answered (REST graph_service)' } };
  }
  await rest.close();
  if (mcpAnswer.status === 'fulfilled') {
    return { client: mcp, face: { kind: 'mcp', reason: 'auto: GET /health and an MCP session on /mcp/ answered (MCP server)' } };
  }
  await mcp.close();
  const restError: unknown = restAnswer.reason;
  const mcpError: unknown = mcpAnswer.reason;
  // No /healthcheck, but something MCP-like answered and then failed: report the MCP failure.
  if (isGraphitiError(restError) && 'status' in restError && restError.status === 404 && isGraphitiError(mcpError)) {
    const mcpMissing = mcpError.kind === 'connection' || ('status' in mcpError && mcpError.status === 404);
    if (!mcpMissing) throw mcpError;
  }
  // Otherwise REST's error says it best (nothing listens, a hang, an abort, neither face there).
  throw restError;
}

/** A client that finds out which face the server has on its first call. */
export class AutoGraphitiClient implements GraphitiApi {
  private readonly options: GraphitiClientOptions;
  private chosen: Promise<Chosen> | undefined;
  private closed = false;

  constructor(options: GraphitiClientOptions) {
    // Validates the options now, like the other clients, without sending anything.
    void new GraphitiClient(options).close();
    this.options = options;
  }

  get baseUrl(): string {
    return this.options.baseUrl.replace(/\/+$/, '');
  }

  async serverFace(options?: RequestOptions): Promise<ServerFace> {
    return (await this.choose(options)).face;
  }

  async healthcheck(options?: RequestOptions): Promise<Healthcheck> {
    return (await this.choose(options)).client.healthcheck(options);
  }

  async addMessages(request: AddMessagesRequest, options?: RequestOptions): Promise<Result> {
    return (await this.choose(options)).client.addMessages(request, options);
  }

  async search(query: SearchQuery, options?: RequestOptions): Promise<SearchResults> {
    return (await this.choose(options)).client.search(query, options);
  }

  async getEpisodes(groupId: string, query: { readonly lastN: number }, options?: RequestOptions): Promise<Episode[]> {
    return (await this.choose(options)).client.getEpisodes(groupId, query, options);
  }

  async getEntityEdge(uuid: string, options?: RequestOptions): Promise<FactResult> {
    return (await this.choose(options)).client.getEntityEdge(uuid, options);
  }

  async deleteEntityEdge(uuid: string, options?: RequestOptions): Promise<Result> {
    return (await this.choose(options)).client.deleteEntityEdge(uuid, options);
  }

  async deleteEpisode(uuid: string, options?: RequestOptions): Promise<Result> {
    return (await this.choose(options)).client.deleteEpisode(uuid, options);
  }

  async deleteGroup(groupId: string, options?: RequestOptions): Promise<Result> {
    return (await this.choose(options)).client.deleteGroup(groupId, options);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const chosen = this.chosen;
    this.chosen = undefined;
    await chosen?.then((value) => value.client.close()).catch(() => undefined);
  }

  /**
   * The probe runs on the client's own timeout, not the caller's signal: a short recall deadline
   * must not cut every probe short. The caller still stops waiting when its signal fires.
   */
  private choose(options: RequestOptions | undefined): Promise<Chosen> {
    if (this.closed) {
      return Promise.reject(new GraphitiUsageError('A Graphiti client was used after close(). Create a new one.'));
    }
    if (this.chosen === undefined) {
      const probing = probeGraphitiServer(this.options);
      this.chosen = probing;
      probing.catch(() => {
        if (this.chosen === probing) this.chosen = undefined;
      });
    }
    return untilAborted(
      this.chosen,
      options?.signal,
      () =>
        new GraphitiAbortError('Finding out which Graphiti server answers was aborted by the caller.', {
          method: 'GET',
          path: '/healthcheck, /health',
        }),
    );
  }
}
