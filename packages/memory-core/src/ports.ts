// Every outside thing memory-core talks to, as an interface with an inversify token of the same
// name next to it. Apps (the VS Code extension, the dev harness) bind implementations; tests bind
// fakes. Nothing here may import Node, VS Code or undici.
import type { DigestSegmentStore } from './digest/digest-segment-store.js';
import type {
  AddEntityNodeRequest,
  AddMemoryRequest,
  AddMessagesRequest,
  AddTripletRequest,
  EntityNode,
  Episode,
  GraphitiCapabilities,
  TripletResponse,
  FactResult,
  Healthcheck,
  Message,
  Result,
  SearchQuery,
  SearchResults,
} from '@graphiti-memory/graphiti-client';
import type { ConsentCategory } from './gate/consent-categories.js';

// ---------------------------------------------------------------------------------------------
// Shared value types

export type MemoryScope = 'session' | 'workspace' | 'user' | 'team' | 'mirror';
/** Fixed merge order of recall and the order scopes are listed in everywhere. */
export const SCOPE_ORDER: readonly MemoryScope[] = ['session', 'workspace', 'team', 'user'];

/** One finalized chat turn, as any capture path (participant, VS Code chat log, transcript) yields it. */
export interface ChatTurn {
  /** Stable identity of the turn within its session (VS Code's requestId, a transcript uuid). */
  readonly id: string;
  /** The chat session the turn belongs to: the `session` scope. */
  readonly sessionId: string;
  readonly user: { readonly text: string; readonly timestamp: string };
  /** Missing for a turn whose answer was never finalized; such a turn sends only the user text. */
  readonly assistant?: { readonly text: string; readonly timestamp: string };
  /** Who answered (`@memory`, `copilot`, `claude-code`); metadata only. */
  readonly participant?: string;
  /** System or context prompt text: sent only when `includeSystemMessages` is on. */
  readonly system?: string;
  /**
   * What the structured mirror reads besides the text (tool calls, references, replay), where the
   * transcript holds it. Only the mirror reads it; ingestion drops it before staging a turn.
   */
  readonly structure?: TurnStructure;
}

/** A turn's structure as a transcript reader finds it (the mirror decides what of it is sent). */
export interface TurnStructure {
  /** The conversation's title, when the tool names one (VS Code's custom title). */
  readonly title?: string;
  /** Tool calls in order, each with a one-line summary of its arguments and its result, if any. */
  readonly toolCalls?: readonly TurnToolCall[];
  /** Files and other resources referenced or attached, by URI. */
  readonly references?: readonly TurnReference[];
  /** The id of the turn this one was replayed from (a rewind or an edited prompt), when known. */
  readonly replayParent?: string;
}

export interface TurnToolCall {
  readonly name: string;
  /** `Read(src/a.ts)`: never the whole input. */
  readonly summary: string;
  /** The result as the transcript holds it: hashed and measured, its text sent only when tool output is captured in full. */
  readonly result?: { readonly text: string; readonly isError: boolean };
}

export interface TurnReference {
  /** `attachment`: given with the prompt; `reference`: cited in the answer. */
  readonly kind: 'attachment' | 'reference';
  readonly uri: string;
  /** Content the transcript itself holds (an attached selection or image): hashed, never sent. */
  readonly content?: string;
}

/** A fact returned by recall: the wire fact plus where it came from and how it ranks. */
export type RecalledFact = FactResult & {
  readonly scope: MemoryScope;
  /** 0 is the most relevant; the merged order of recall. */
  readonly rank: number;
  /** Team facts: the display name the author of its episode chose, when known. */
  readonly author?: string;
  /**
   * Team facts: no known install of this team wrote it (none of its episodes is this user's own
   * promotion), so its author cannot be verified: Graphiti has no authentication. Shown as
   * `[team · Alice (unverified)]`.
   */
  readonly unverified?: boolean;
  /** The fact's `invalid_at` or `expired_at` has passed (present only when such facts are kept). */
  readonly superseded?: boolean;
  /**
   * Where the fact came from: its `episodes` this machine delivered (the local record of delivered
   * episodes), oldest first. Absent or empty when none is known here (another machine wrote them).
   */
  readonly sources?: readonly FactSource[];
  /** Workspace paths the fact names that no longer exist (`recall.stale: mark`). */
  readonly stale?: readonly string[];
};

/** One source of a recalled fact, as `recall --json` prints it. */
export interface FactSource {
  /** The tool that captured it: `Claude Code`, `Copilot`, `VS Code chat`, `graphiti-harness`, … */
  readonly tool: string;
  /** The chat session's id, when the episode came from one. */
  readonly session: string | null;
  /** The session's title or first prompt line: short and secret-guarded. */
  readonly title: string | null;
  /** When the episode happened (ISO 8601). */
  readonly at: string;
  /** The episode's uuid on the server. */
  readonly episode: string;
}

/**
 * Where a message came from, carried on its outbox record from enqueue to delivery confirmation,
 * which records it under the episode's uuid. Metadata only: no content but a short, guarded title.
 */
export interface MessageSource {
  readonly tool: string;
  readonly session?: string;
  readonly title?: string;
  /** `forgottenContentKey` of each turn the message carries (hashes only): a forget records them. */
  readonly contents?: readonly string[];
}

/** Per-call options of every Graphiti operation (the client's `RequestOptions`). */
export interface GraphitiCallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
  /** `addMessages` only: extraction guidance, sent where the server declares it (MCP main), dropped elsewhere. */
  readonly extractionInstructions?: string;
}

// ---------------------------------------------------------------------------------------------
// Graphiti

/**
 * The part of `GraphitiClient` memory-core uses. `GraphitiClient` satisfies it structurally.
 * Errors it throws carry `retryable: boolean` and, for HTTP errors, `status: number`.
 */
export interface GraphitiApi {
  /** Which face answers (both of graphiti-client's clients tell; the audit log records it). */
  serverFace?(options?: GraphitiCallOptions): Promise<{ readonly kind: 'rest' | 'mcp' }>;
  healthcheck(options?: GraphitiCallOptions): Promise<Healthcheck>;
  addMessages(request: AddMessagesRequest, options?: GraphitiCallOptions): Promise<Result>;
  search(query: SearchQuery, options?: GraphitiCallOptions): Promise<SearchResults>;
  getEpisodes(groupId: string, query: { lastN: number }, options?: GraphitiCallOptions): Promise<Episode[]>;
  deleteEpisode(uuid: string, options?: GraphitiCallOptions): Promise<Result>;
  deleteGroup(groupId: string, options?: GraphitiCallOptions): Promise<Result>;
  /** One fact by uuid (forgetting one source on REST reads which episodes support each fact). */
  getEntityEdge?(uuid: string, options?: GraphitiCallOptions): Promise<FactResult>;
  /** Removes a fact (REST keeps the facts of a deleted episode; MCP removes them itself). */
  deleteEntityEdge?(uuid: string, options?: GraphitiCallOptions): Promise<Result>;
  /** Which structured writes the server takes (graphiti-client reads an MCP server's tool list). */
  capabilities?(options?: GraphitiCallOptions): Promise<GraphitiCapabilities>;
  /** MCP `add_memory` as given (the mirror's JSON episodes). */
  addMemory?(request: AddMemoryRequest, options?: GraphitiCallOptions): Promise<Result>;
  /** MCP `add_triplet` (main since 29a7565). */
  addTriplet?(request: AddTripletRequest, options?: GraphitiCallOptions): Promise<TripletResponse>;
  /** REST `POST /entity-node`. */
  addEntityNode?(request: AddEntityNodeRequest, options?: GraphitiCallOptions): Promise<EntityNode>;
}

/**
 * Gives the Graphiti connection for the current endpoint and key. Apps recreate the client when
 * the endpoint or key changes; `undefined` when no valid endpoint is configured.
 */
export interface GraphitiConnection {
  current(): GraphitiApi | undefined;
}
export const GraphitiConnection = Symbol.for('graphiti-memory.GraphitiConnection');

// ---------------------------------------------------------------------------------------------
// Host facts

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or early (without rejecting) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
export const Clock = Symbol.for('graphiti-memory.Clock');

export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;
/** Logs outcomes, counts and timings only: never message content, queries or keys. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}
export const Logger = Symbol.for('graphiti-memory.Logger');

export interface GitMetadata {
  readonly branch?: string;
  readonly commit?: string;
  readonly dirty?: boolean;
}

/** What the host knows about the open workspace and the user. */
export interface WorkspaceContext {
  isTrusted(): boolean;
  /** Workspace folder URIs (any order; scope ids do not depend on it). Empty: no workspace. */
  folderUris(): readonly string[];
  /** Normalised git remote URL of the workspace, when known: preferred for the workspace scope. */
  gitRemote(): string | undefined;
  /** Branch, commit and dirty flag, when known. Never a path. */
  gitMetadata(): GitMetadata | undefined;
  /**
   * The signed-in account id, when the host has one: preferred for the user scope. Only its hash
   * leaves the machine (the user group id hashes it under every `groupIdStrategy`).
   */
  accountId(): string | undefined;
}
export const WorkspaceContext = Symbol.for('graphiti-memory.WorkspaceContext');

/** The raw settings object (as the host stores it) and its changes; parsed by memory-core. */
export interface SettingsSource {
  read(): unknown;
  onDidChange(listener: () => void): { dispose(): void };
}
export const SettingsSource = Symbol.for('graphiti-memory.SettingsSource');

// ---------------------------------------------------------------------------------------------
// Storage

/** A small persistent key-value store (a VS Code Memento, a JSON file). Values are JSON. */
export interface KeyValueStore {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}
/** Per-machine, per-user state (the user-scope key). */
export const GlobalStore = Symbol.for('graphiti-memory.GlobalStore');
/** Per-workspace state (consent, backfill marks). */
export const WorkspaceStore = Symbol.for('graphiti-memory.WorkspaceStore');

export interface ConsentRecord {
  /** The endpoint consent was given for, normalised. Consent for another endpoint does not count. */
  readonly endpoint: string;
  readonly grantedAt: string;
  /**
   * The kinds of data agreed to. Absent in records of hosts that do not track categories (then every
   * category counts as agreed); the extension always writes them.
   */
  readonly categories?: readonly ConsentCategory[];
}
/** Consent of this workspace to send data to an endpoint. */
export interface ConsentStore {
  get(): ConsentRecord | undefined;
  /** Records consent for the endpoint; `categories` replaces the categories agreed to when given. */
  grant(endpoint: string, categories?: readonly ConsentCategory[]): Promise<void>;
  revoke(): Promise<void>;
}
export const ConsentStore = Symbol.for('graphiti-memory.ConsentStore');

/** One message waiting for delivery to one group. */
export interface OutboxEntry {
  readonly groupId: string;
  /** Mapped, redacted, with a unique `name`; never a `uuid`. */
  readonly message: Message;
  /** Who captured it (kept to cite the episode's facts later). */
  readonly source?: MessageSource;
  /**
   * A structured mirror record: `message.content` is its JSON, sent as a JSON episode where the
   * server takes one (MCP `add_memory`, `source: "json"`), else as the message; these nodes and
   * edges go with it as `add_triplet` (MCP main) or `/entity-node` (REST).
   */
  readonly mirror?: MirrorStructure;
}

/** A mirror record's graph: nodes with deterministic uuids, edges between them by stable id. */
export interface MirrorStructure {
  readonly nodes: readonly MirrorNode[];
  readonly edges: readonly MirrorEdge[];
}

export interface MirrorNode {
  /** `conv:<id>`, `turn:<id>`, `tool:<turn>:<n>`, …: also the node's name on the server. */
  readonly id: string;
  /** Derived from the group and `id`, so every writer names the same node the same way. */
  readonly uuid: string;
  /** One line, content-free beyond what the record says (a title, a tool summary, a URI). */
  readonly summary: string;
}

export interface MirrorEdge {
  readonly from: string;
  readonly to: string;
  /** `HAS_TURN`, `USES_TOOL`, `RETURNED`, `REFERENCES`, `ATTACHES`, `REPLAYS`. */
  readonly name: string;
  readonly fact: string;
}

export interface OutboxRecord extends OutboxEntry {
  /** Unique id of the record in this outbox. */
  readonly id: string;
  readonly enqueuedAt: number;
  /** `pending`: not sent yet (or to be sent again); `sent`: accepted, waiting for confirmation. */
  readonly state: 'pending' | 'sent';
  readonly attempts: number;
  readonly sentAt?: number;
}

export interface OutboxAppendResult {
  readonly accepted: number;
  /** Records dropped (oldest first) to stay within `maxQueueSize`. */
  readonly dropped: number;
}

/**
 * `overflow`: the queue was full; `dead-letter`: refused for good, failed `maxAttempts` times or
 * unconfirmed past `maxAgeHours` (kept as a dead letter where the outbox can); `forgotten`: the user
 * forgot its group (its ledger key stays, so it is never offered again).
 */
export type OutboxDropReason = 'overflow' | 'dead-letter' | 'forgotten';

export interface OutboxAdmitResult extends OutboxAppendResult {
  /** Entries skipped because the ledger knew their key (queued, delivered or forgotten before). */
  readonly duplicates: number;
}

/** A message that will not be sent again unless the user retries it. Content-free. */
export interface DeadLetter {
  readonly id: string;
  readonly groupId: string;
  /** The episode name (content-free: role and a hash or index). */
  readonly name: string | undefined;
  readonly enqueuedAt: number;
  readonly attempts: number;
  /** When it became a dead letter. */
  readonly deadAt: number;
  /** Content-free last error (`HTTP 500`, `unconfirmed after 72 h`). */
  readonly lastError: string;
}

/**
 * The queue of messages between `enqueue` and confirmed delivery. `append` and the `mark*`
 * methods never wait for I/O (a durable outbox journals them in the background); reads may.
 * A record leaves the outbox when confirmed or dropped.
 */
export interface MarkPendingOptions {
  readonly outage?: boolean;
}

export interface Outbox {
  append(entries: readonly OutboxEntry[]): OutboxAppendResult;
  /** Pending records, oldest first, at most `limit`. */
  pending(limit: number): Promise<readonly OutboxRecord[]>;
  /** Records sent and not yet confirmed. */
  inFlight(): Promise<readonly OutboxRecord[]>;
  markSent(ids: readonly string[], at: number): void;
  markConfirmed(ids: readonly string[]): void;
  /**
   * Back to pending: the send is to be repeated (unconfirmed after the resend window, or it failed).
   * `outage`: the send met an outage (no connection, a timeout, a 5xx), so it does not count as an
   * attempt (`attempts` goes back down by one): outages never lead to a dead letter.
   */
  markPending(ids: readonly string[], options?: MarkPendingOptions): void;
  markDropped(ids: readonly string[], reason: OutboxDropReason, detail?: string): void;
  /** Pending + in flight. */
  size(): number;
  /** Whether this process may send now; only one process drains a shared outbox at a time. */
  acquireDrain(): Promise<boolean>;
  /**
   * Checked before each request of a pass: `false` once this process lost the right to send (its
   * lock was removed or taken over while it ran), so it stops before sending anything twice.
   */
  holdsDrain(): Promise<boolean>;
  /** Resolves when everything appended or marked so far is durable. */
  flush(): Promise<void>;
  close(): Promise<void>;
  /**
   * Appends the entries whose delivery key `ledger` does not know and adds their keys, as one step
   * for every writer of this outbox (a shared durable outbox checks and appends under its lock,
   * so two processes never both accept one message). Durable when it resolves.
   */
  admit(entries: readonly OutboxEntry[], ledger: DeliveryLedger): Promise<OutboxAdmitResult>;
  /**
   * Removes every record still queued (pending, in flight or dead) for these groups. Their ledger
   * keys stay (recorded as forgotten), so capture, track and hooks never offer them again.
   * Returns how many records were removed.
   */
  forgetGroups(groupIds: readonly string[]): Promise<number>;
  /** Dead letters kept for the user to retry or drop, oldest first. */
  deadLetters(): readonly DeadLetter[];
  /** Moves dead letters (all when `ids` is omitted) back to pending with a fresh attempt count. Returns how many. */
  retryDeadLetters(ids?: readonly string[]): number;
  /** Deletes dead letters (all when `ids` is omitted) for good. Returns how many. */
  dropDeadLetters(ids?: readonly string[]): number;
}

/**
 * Which messages (by `groupId` + episode name) were already accepted for delivery, so a turn seen
 * again (rehydrated history, backfill, a re-read transcript) is not sent twice. Durable ledgers
 * survive restarts.
 */
export interface DeliveryLedger {
  has(key: string): boolean;
  add(key: string): void;
  /**
   * Every key known now (a shared ledger reads what the other writers accepted first): how a
   * forget learns which turns its groups held. Optional: without it a forget records no turns.
   */
  keys?(): Promise<readonly string[]>;
}

/** Ingestion's storage, open: the outbox and the delivery ledger admission checks. */
export interface IngestionStore {
  readonly outbox: Outbox;
  readonly ledger: DeliveryLedger;
  /** The open segments of session digests, kept beside the outbox; without it they live in memory. */
  readonly segments?: DigestSegmentStore;
}

/**
 * Opens ingestion's storage. The ingestion service awaits it itself on first need (messages to
 * admit, delivery started, a forget), never on the chat path, so binding it opens nothing: while
 * memory is off no storage is touched. `open` resolves to the same store every time; `current`
 * gives it once open (whoever opened it; never opens); `close` releases it (and does nothing when
 * it was never opened).
 */
export interface IngestionStorage {
  open(): Promise<IngestionStore>;
  current(): IngestionStore | undefined;
  close(): Promise<void>;
}
export const IngestionStorage = Symbol.for('graphiti-memory.IngestionStorage');

// ---------------------------------------------------------------------------------------------
// Telemetry

export type MemoryEvent =
  | { readonly type: 'enqueued'; readonly turns: number }
  | { readonly type: 'sent'; readonly messages: number; readonly groupCount: number; readonly latencyMs: number }
  | { readonly type: 'retried'; readonly attempt: number; readonly errorClass: string }
  | { readonly type: 'dropped'; readonly messages: number; readonly reason: 'overflow' | 'gate-closed' | 'secret' }
  | { readonly type: 'dead-lettered'; readonly messages: number; readonly errorClass: string; readonly reason: string }
  | { readonly type: 'confirmed'; readonly messages: number; readonly latencyMs: number }
  | { readonly type: 'resent'; readonly messages: number }
  | { readonly type: 'recall'; readonly outcome: 'hit' | 'miss' | 'timeout' | 'error' | 'skipped'; readonly facts: number; readonly latencyMs: number }
  | { readonly type: 'promoted'; readonly kind: string; readonly scope: MemoryScope }
  | { readonly type: 'redacted'; readonly findings: number };

/** Receives content-free events; apps forward them to logs or counters. */
export interface TelemetrySink {
  emit(event: MemoryEvent): void;
}
export const TelemetrySink = Symbol.for('graphiti-memory.TelemetrySink');
