// The public shapes of the emulator. Wire records keep Graphiti's snake_case field names, so what
// `state` hands a test is exactly what the routes would answer.

/** One name per route of Graphiti's REST service; fault plans and the request log use them. */
export type RouteName =
  | 'healthcheck'
  | 'messages'
  | 'entity-node'
  | 'search'
  | 'get-memory'
  | 'episodes'
  | 'get-entity-edge'
  | 'delete-entity-edge'
  | 'delete-group'
  | 'delete-episode'
  | 'clear'
  // The MCP face: `GET /health`, MCP requests that are not a tool call, and one name per tool.
  | 'health'
  | 'mcp'
  | 'add_memory'
  | 'search_nodes'
  | 'search_memory_facts'
  | 'delete_entity_edge'
  | 'delete_episode'
  | 'get_entity_edge'
  | 'get_episodes'
  | 'clear_graph'
  | 'get_status'
  | 'add_triplet';

/** Which of Graphiti's two servers the emulator plays. */
export type EmulatorFace = 'rest' | 'mcp';

/**
 * Which release of upstream's MCP server the MCP face plays. `main` (default): upstream's main since
 * commit 29a7565 (2026-06-07, #1553): `add_memory` takes `reference_time` and
 * `custom_extraction_instructions`, and `add_triplet` exists. `v1.0.2`: the tag `mcp-v1.0.2` (the
 * released image): neither, and `add_memory` ignores arguments it does not declare (FastMCP's
 * argument model drops unknown keys).
 */
export type McpRelease = 'main' | 'v1.0.2';

/**
 * Faults for one route. The rates are probabilities of mutually exclusive outcomes drawn once per
 * request (reset, then hang, then error), so their sum should stay at or below 1.
 */
export interface FaultSettings {
  /** Added before the route answers (and before any other fault). */
  readonly latencyMs?: number;
  /** Share of requests answered with `errorStatus` instead of being handled. */
  readonly errorRate?: number;
  /** Status of injected errors; default 500 (plain text `Internal Server Error`, as upstream). */
  readonly errorStatus?: number;
  /** Sent as `Retry-After` on injected errors when set. */
  readonly retryAfterSeconds?: number;
  /** Share of requests that never get an answer (until `close()` or `restartServer()`). */
  readonly hangRate?: number;
  /** Share of requests whose connection is destroyed without an answer. */
  readonly resetRate?: number;
}

/** Per route, or `'*'` for every route; a route's own settings override `'*'` field by field. */
export type FaultPlan = Partial<Record<RouteName | '*', FaultSettings>>;

/** The fault a request met, if any. Latency alone is not recorded as a fault. */
export type InjectedFault = 'error' | 'hang' | 'reset';

export interface RecordedRequest {
  readonly method: string;
  /** The path without the query string, as sent (percent-encoding kept). */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** The parsed JSON body; the raw text when it is not JSON; `null` when there is none. */
  readonly body: unknown;
  /** Lowercased header names, sorted. Values are never recorded (they may hold API keys). */
  readonly headerNames: readonly string[];
  /** The status answered; 0 when no answer was sent (hang or connection reset). */
  readonly status: number;
  /** ISO 8601 time the request arrived. */
  readonly at: string;
  /** The matched route, or `null` for unknown paths. */
  readonly route: RouteName | null;
  readonly fault: InjectedFault | null;
}

export interface EpisodeRecord {
  uuid: string;
  name: string;
  group_id: string;
  labels: string[];
  created_at: string;
  /** `message` for REST `/messages`; what `add_memory` was given (`message`, `text`, `json`) over MCP. */
  source: string;
  source_description: string;
  content: string;
  valid_at: string;
  entity_edges: string[];
}

export interface FactRecord {
  uuid: string;
  name: string;
  fact: string;
  valid_at: string | null;
  invalid_at: string | null;
  created_at: string;
  expired_at: string | null;
  source_node_uuid: string;
  target_node_uuid: string;
  episodes: string[];
}

export interface EntityNodeRecord {
  uuid: string;
  name: string;
  group_id: string;
  labels: string[];
  created_at: string;
  name_embedding: number[];
  summary: string;
  attributes: Record<string, unknown>;
}

export interface EmulatorOptions {
  /**
   * `rest` (default): the REST graph_service. `mcp`: the MCP server (`GET /health`, Streamable HTTP
   * at `/mcp/`, per-group queues), over the same kind of in-memory graph.
   */
  readonly face?: EmulatorFace;
  /**
   * REST face only: reproduce upstream's closed-client defect. `/messages` answers 202 as always,
   * the first message is stored, then the worker dies on the closed client and nothing later is
   * stored (until `restartServer()`, after which the same happens again).
   */
  readonly closedClientDefect?: boolean;
  /** MCP face only: which upstream release to play (see `McpRelease`). Default `main`. */
  readonly mcpRelease?: McpRelease;
  /** MCP face only: upstream's `config.graphiti.group_id`, used when a tool gets no group. Default `main`. */
  readonly defaultGroupId?: string;
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Time the single worker spends on each message; default 5 ms. */
  readonly processingDelayMs?: number;
  readonly faults?: FaultPlan;
  /** Seed of the fault dice, for repeatable runs; default random. */
  readonly seed?: number;
  /** Default true. When false, one line per request (method, path, status; never bodies) on stderr. */
  readonly quiet?: boolean;
}

export interface EmulatorState {
  /** Processed episodes, in `/episodes` order (oldest first), of one group or all. */
  episodes(groupId?: string): EpisodeRecord[];
  /** Facts in creation order, of one group or all. */
  facts(groupId?: string): FactRecord[];
  /** Entity nodes in creation order, of one group or all (`/entity-node`, `add_triplet`, extraction). */
  nodes(groupId?: string): EntityNodeRecord[];
  /** Jobs not yet done: waiting plus the one being processed. */
  queueLength(): number;
  workerAlive(): boolean;
  /** Why the worker died (for test diagnostics), or `null` while it lives. */
  workerError(): string | null;
}

export interface RunningEmulator {
  /** `http://127.0.0.1:<port>` without a trailing slash (the MCP endpoint is `${url}/mcp/`). */
  readonly url: string;
  readonly face: EmulatorFace;
  readonly port: number;
  /** The requests so far, oldest first (a live view), the last 10 000 at most. */
  readonly requests: readonly RecordedRequest[];
  clearRequests(): void;
  setFaults(plan: FaultPlan): void;
  /**
   * Kills the worker as an exception would upstream: queued and later jobs are never processed.
   * On the MCP face every group's worker stops (its queues log failures and go on otherwise).
   */
  killWorker(): void;
  /** Like restarting the upstream process: open connections dropped, queue lost, data kept. */
  restartServer(): Promise<void>;
  /** Resolves once the worker has nothing more it will do: the queue is empty or the worker is dead. */
  idle(): Promise<void>;
  readonly state: EmulatorState;
  /** Stops listening, ends hung requests and every socket, stops the worker. */
  close(): Promise<void>;
}
