// createGraphitiClient: one entry point for either face. `rest` and `mcp` build that client;
// `auto` (the default) builds a client that probes the server once, on its first call, and then
// speaks whichever face answered: `/healthcheck` → REST; `/health` plus an MCP `initialize` on
// `/mcp/` → MCP; a URL ending in `/mcp` → MCP without probing. A failed probe is not remembered,
// so a server that comes up later is found on the next call.
import { GraphitiClient } from './client.js';
import { GraphitiAbortError, GraphitiUsageError, isGraphitiError, type GraphitiNotFoundError } from './errors.js';
import { GRAPHITI_SERVER_CHOICES, type GraphitiApi, type GraphitiServerChoice, type GraphitiServerKind, type ServerFace } from './graphiti-api.js';
import { GraphitiMcpClient } from './mcp/mcp-client.js';
import type { AddMessagesOptions, GraphitiClientOptions, RequestOptions } from './options.js';
import type { AddEntityNodeRequest, AddMessagesRequest, EntityNode, Episode, FactResult, Healthcheck, Result, SearchQuery, SearchResults } from './schemas.js';
import type { AddMemoryRequest, AddTripletRequest, GraphitiCapabilities, TripletResponse } from './structure.js';
import { untilAborted } from './until-aborted.js';

/** How an `auto` client starts and whom it tells what it chose (both optional). */
export interface AutoFaceOptions {
  /**
   * A face this endpoint answered with before (remembered by the caller, e.g. in a file): the first
   * call speaks it without probing. Ignored unless the kind is `auto`.
   */
  readonly knownFace?: GraphitiServerKind | undefined;
  /**
   * Told the face the client settled on after a probe, and `undefined` when a call failed in a way
   * that says the face is wrong (a 404 from a route that always exists, nothing answering MCP at
   * `/mcp/`, a refused connection): that call fails as it would have, and the next one probes.
   * Called synchronously; it must not throw.
   */
  readonly onFace?: ((face: ServerFace | undefined) => void) | undefined;
}

export interface CreateGraphitiClientOptions extends GraphitiClientOptions, AutoFaceOptions {
  /** Which face to speak; default `auto`. */
  readonly kind?: GraphitiServerChoice | undefined;
}

/** Whether the URL names an MCP endpoint (`…/mcp` or `…/mcp/`). */
export function isMcpEndpointUrl(baseUrl: string): boolean {
  return /\/mcp\/?$/.test(baseUrl);
}

export function createGraphitiClient(options: CreateGraphitiClientOptions): GraphitiApi {
  const { kind = 'auto', knownFace, onFace, ...clientOptions } = options;
  if (!GRAPHITI_SERVER_CHOICES.includes(kind)) {
    throw new GraphitiUsageError(`createGraphitiClient was given kind "${String(kind)}"; use "auto", "rest" or "mcp".`);
  }
  if (kind === 'rest') return new GraphitiClient(clientOptions);
  if (kind === 'mcp') return new GraphitiMcpClient(clientOptions);
  return new AutoGraphitiClient(clientOptions, { knownFace, onFace });
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
  private readonly onFace: AutoFaceOptions['onFace'];
  private chosen: Promise<Chosen> | undefined;
  /** Calls under way per client: a dropped client is closed when its last call ends. */
  private readonly inFlight = new Map<Chosen, number>();
  /** Clients of a face that proved wrong, with calls still under way on them. */
  private readonly dropped = new Set<Chosen>();
  private closed = false;

  constructor(options: GraphitiClientOptions, face: AutoFaceOptions = {}) {
    // Validates the options now, like the other clients, without sending anything.
    void new GraphitiClient(options).close();
    this.options = options;
    this.onFace = face.onFace;
    // A URL ending in /mcp needs no probe anyway; there the URL decides.
    if (face.knownFace !== undefined && !isMcpEndpointUrl(options.baseUrl)) this.chosen = Promise.resolve(knownChoice(options, face.knownFace));
  }

  get baseUrl(): string {
    return this.options.baseUrl.replace(/\/+$/, '');
  }

  async serverFace(options?: RequestOptions): Promise<ServerFace> {
    return (await this.waitFor(this.pending(), options)).face;
  }

  async healthcheck(options?: RequestOptions): Promise<Healthcheck> {
    return this.call(options, (client) => client.healthcheck(options));
  }

  async addMessages(request: AddMessagesRequest, options?: AddMessagesOptions): Promise<Result> {
    return this.call(options, (client) => client.addMessages(request, options));
  }

  async capabilities(options?: RequestOptions): Promise<GraphitiCapabilities> {
    return this.call(options, (client) => client.capabilities(options));
  }

  async addMemory(request: AddMemoryRequest, options?: RequestOptions): Promise<Result> {
    return this.call(options, (client) => client.addMemory(request, options));
  }

  async addTriplet(request: AddTripletRequest, options?: RequestOptions): Promise<TripletResponse> {
    return this.call(options, (client) => client.addTriplet(request, options));
  }

  async addEntityNode(request: AddEntityNodeRequest, options?: RequestOptions): Promise<EntityNode> {
    return this.call(options, (client) => client.addEntityNode(request, options));
  }

  async search(query: SearchQuery, options?: RequestOptions): Promise<SearchResults> {
    return this.call(options, (client) => client.search(query, options));
  }

  async getEpisodes(groupId: string, query: { readonly lastN: number }, options?: RequestOptions): Promise<Episode[]> {
    return this.call(options, (client) => client.getEpisodes(groupId, query, options));
  }

  async getEntityEdge(uuid: string, options?: RequestOptions): Promise<FactResult> {
    return this.call(options, (client) => client.getEntityEdge(uuid, options));
  }

  async deleteEntityEdge(uuid: string, options?: RequestOptions): Promise<Result> {
    return this.call(options, (client) => client.deleteEntityEdge(uuid, options));
  }

  async deleteEpisode(uuid: string, options?: RequestOptions): Promise<Result> {
    return this.call(options, (client) => client.deleteEpisode(uuid, options));
  }

  async deleteGroup(groupId: string, options?: RequestOptions): Promise<Result> {
    return this.call(options, (client) => client.deleteGroup(groupId, options));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const chosen = this.chosen;
    this.chosen = undefined;
    const dropped = [...this.dropped];
    this.dropped.clear();
    await Promise.all([chosen?.then((value) => value.client.close()).catch(() => undefined), ...dropped.map((value) => value.client.close().catch(() => undefined))]);
  }

  /**
   * Runs `work` on the chosen face's client. A failure that says the face is wrong drops the
   * choice (once, however many calls fail with it) so the next call probes, and tells `onFace`.
   */
  private async call<T>(options: RequestOptions | undefined, work: (client: GraphitiApi) => Promise<T>): Promise<T> {
    const pending = this.pending();
    const value = await this.waitFor(pending, options);
    this.inFlight.set(value, (this.inFlight.get(value) ?? 0) + 1);
    try {
      return await work(value.client);
    } catch (error) {
      // Only the choice this call used, and only once when concurrent calls fail alike.
      if (this.chosen === pending && isWrongFaceError(error)) {
        this.chosen = undefined;
        this.dropped.add(value);
        this.tell(undefined);
      }
      throw error;
    } finally {
      const left = (this.inFlight.get(value) ?? 1) - 1;
      if (left > 0) this.inFlight.set(value, left);
      else this.inFlight.delete(value);
      // A long-lived client whose server flaps must not keep every dropped client open.
      if (left <= 0 && this.dropped.delete(value)) void value.client.close().catch(() => undefined);
    }
  }

  private tell(face: ServerFace | undefined): void {
    try {
      this.onFace?.(face);
    } catch {
      // A listener's failure is its own: the call's answer does not depend on it.
    }
  }

  /** The face chosen, or being probed for (a probe starts when there is neither). */
  private pending(): Promise<Chosen> {
    if (this.closed) {
      return Promise.reject(new GraphitiUsageError('A Graphiti client was used after close(). Create a new one.'));
    }
    if (this.chosen === undefined) {
      const probing = probeGraphitiServer(this.options);
      this.chosen = probing;
      probing.then(
        (value) => {
          if (this.chosen === probing) this.tell(value.face);
        },
        () => {
          if (this.chosen === probing) this.chosen = undefined;
        },
      );
    }
    return this.chosen;
  }

  /**
   * The probe runs on the client's own timeout, not the caller's signal: a short recall deadline
   * must not cut every probe short. The caller still stops waiting when its signal fires.
   */
  private waitFor(pending: Promise<Chosen>, options: RequestOptions | undefined): Promise<Chosen> {
    return untilAborted(
      pending,
      options?.signal,
      () =>
        new GraphitiAbortError('Finding out which Graphiti server answers was aborted by the caller.', {
          method: 'GET',
          path: '/healthcheck, /health',
        }),
    );
  }
}

/** The client of a face the caller remembered, without probing. */
function knownChoice(options: GraphitiClientOptions, kind: GraphitiServerKind): Chosen {
  const reason = 'auto: remembered from an earlier probe of this endpoint';
  return kind === 'rest' ? { client: new GraphitiClient(options), face: { kind, reason } } : { client: new GraphitiMcpClient(options), face: { kind, reason } };
}

/**
 * Whether a call's failure says the face is wrong rather than the request: nothing listens (the
 * server moved or is down: probe when it is back), or a 404/405 that is not an id the server does
 * not know — a route this face does not have (FastAPI's and Starlette's `Not Found`), or nothing
 * answering MCP at `/mcp/`. A missing edge or episode names itself in its `detail` and is not one.
 */
export function isWrongFaceError(error: unknown): boolean {
  if (!isGraphitiError(error)) return false;
  if (error.kind === 'connection') return true;
  if (!('status' in error) || (error.status !== 404 && error.status !== 405)) return false;
  if (error.kind === 'not-found') {
    const { detail } = error as GraphitiNotFoundError;
    return detail === undefined || detail === 'Not Found';
  }
  return true;
}
