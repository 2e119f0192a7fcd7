// The one interface both faces of Graphiti are spoken through: `GraphitiClient` (REST
// graph_service) and `GraphitiMcpClient` (the MCP server) satisfy it, and memory-core's
// `GraphitiApi` port is the part of it memory needs. Code that holds a `GraphitiApi` does not
// care which face answers.
import type { AddMessagesOptions, RequestOptions } from './options.js';
import type { AddEntityNodeRequest, AddMessagesRequest, EntityNode, Episode, FactResult, Healthcheck, Result, SearchQuery, SearchResults } from './schemas.js';
import type { AddMemoryRequest, AddTripletRequest, GraphitiCapabilities, TripletResponse } from './structure.js';

/** Graphiti's two server faces. */
export type GraphitiServerKind = 'rest' | 'mcp';

/** What a client was told to speak: one face, or `auto` to probe the server once. */
export type GraphitiServerChoice = 'auto' | GraphitiServerKind;

export const GRAPHITI_SERVER_CHOICES: readonly GraphitiServerChoice[] = ['auto', 'rest', 'mcp'];

/** Which face a client speaks, and why (configured, or what the probe saw). */
export interface ServerFace {
  readonly kind: GraphitiServerKind;
  readonly reason: string;
}

export interface GraphitiApi {
  /** The normalised base URL (no trailing slash). */
  readonly baseUrl: string;
  /** Which face answers. A client created with `auto` probes on its first call and remembers. */
  serverFace(options?: RequestOptions): Promise<ServerFace>;
  healthcheck(options?: RequestOptions): Promise<Healthcheck>;
  /**
   * Queues the messages; accepted is not stored: confirm through `getEpisodes` by `name`.
   * `options.extractionInstructions` reaches a server that takes them (MCP on main); elsewhere it is dropped.
   */
  addMessages(request: AddMessagesRequest, options?: AddMessagesOptions): Promise<Result>;
  /** Which structured writes the server takes (MCP: read from its tool list once per session). */
  capabilities(options?: RequestOptions): Promise<GraphitiCapabilities>;
  /** MCP `add_memory` (`source: "json"` for structure). REST: a GraphitiUsageError (use `addMessages`). */
  addMemory(request: AddMemoryRequest, options?: RequestOptions): Promise<Result>;
  /** MCP `add_triplet`, when `capabilities().triplets`; otherwise a GraphitiUsageError. */
  addTriplet(request: AddTripletRequest, options?: RequestOptions): Promise<TripletResponse>;
  /** REST `POST /entity-node`, when `capabilities().entityNodes`; otherwise a GraphitiUsageError. */
  addEntityNode(request: AddEntityNodeRequest, options?: RequestOptions): Promise<EntityNode>;
  search(query: SearchQuery, options?: RequestOptions): Promise<SearchResults>;
  /** The newest `lastN` episodes of the group, oldest first. */
  getEpisodes(groupId: string, query: { readonly lastN: number }, options?: RequestOptions): Promise<Episode[]>;
  getEntityEdge(uuid: string, options?: RequestOptions): Promise<FactResult>;
  deleteEntityEdge(uuid: string, options?: RequestOptions): Promise<Result>;
  deleteEpisode(uuid: string, options?: RequestOptions): Promise<Result>;
  deleteGroup(groupId: string, options?: RequestOptions): Promise<Result>;
  close(): Promise<void>;
}
