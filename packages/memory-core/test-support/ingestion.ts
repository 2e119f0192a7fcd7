// Test doubles for ingestion's own tests and benchmarks: a Graphiti that keeps its episodes in
// memory with levers for faults and worker death, a planner that maps turns to two scopes, and
// settings/gate stand-ins. Real, small behaviour — not call recorders.
import type {
  AddMessagesRequest,
  Episode,
  Healthcheck,
  Message,
  Result,
  SearchResults,
} from '@graphiti-memory/graphiti-client';
import type { GateDecision, MemoryGate } from '../src/gate/index.js';
import type { TurnPlanner } from '../src/planning/index.js';
import type {
  ChatTurn,
  DeliveryLedger,
  GraphitiApi,
  GraphitiCallOptions,
  IngestionStorage,
  IngestionStore,
  OutboxEntry,
} from '../src/ports.js';
import { DEFAULT_SETTINGS, type MemoryConfiguration, type MemorySettings } from '../src/settings/index.js';
import { FakeClock, FixedGraphitiConnection, RecordingLogger, RecordingTelemetry } from './fakes.js';

import { InMemoryDeliveryLedger } from '../src/ingestion/in-memory-delivery-ledger.js';
import { openedIngestionStorage } from '../src/ingestion/in-memory-ingestion-storage.js';
import { InMemoryOutbox } from '../src/ingestion/in-memory-outbox.js';
import type { IngestionOptions } from '../src/ingestion/ingestion-options.js';
import { IngestionService } from '../src/ingestion/ingestion-service.js';

/** An error shaped like graphiti-client's (read structurally by ingestion). */
export function fakeGraphitiError(
  kind: string,
  fields: { status?: number; retryable?: boolean; retryAfterMs?: number; code?: string } = {},
): Error {
  const names: Record<string, string> = {
    server: 'GraphitiServerError',
    'rate-limit': 'GraphitiRateLimitError',
    validation: 'GraphitiValidationError',
    'not-found': 'GraphitiNotFoundError',
    api: 'GraphitiApiError',
    usage: 'GraphitiUsageError',
    timeout: 'GraphitiTimeoutError',
    connection: 'GraphitiConnectionError',
    abort: 'GraphitiAbortError',
  };
  const error = new Error(`fake ${kind} failure`) as Error & Record<string, unknown>;
  error.name = names[kind] ?? 'GraphitiError';
  error['kind'] = kind;
  error['retryable'] = fields.retryable ?? (kind !== 'usage' && kind !== 'validation' && kind !== 'abort');
  if (fields.status !== undefined) error['status'] = fields.status;
  if (fields.retryAfterMs !== undefined) error['retryAfterMs'] = fields.retryAfterMs;
  if (fields.code !== undefined) error['code'] = fields.code; // as the client's GraphitiConnectionError carries it
  return error;
}

interface QueuedJob {
  readonly groupId: string;
  readonly message: Message;
}

/**
 * Graphiti's contract in memory: `/messages` queues jobs for one worker; `process()` runs them
 * (or each accept processes immediately with `autoProcess`). A dead worker keeps accepting.
 */
export class FakeGraphiti implements GraphitiApi {
  readonly addMessagesCalls: AddMessagesRequest[] = [];
  readonly episodeQueries: { groupId: string; lastN: number }[] = [];
  autoProcess = true;
  workerAlive = true;
  /** Thrown by the next `addMessages` calls, in order (`undefined`: answer normally). */
  addMessagesFailures: (unknown | undefined)[] = [];
  /** Thrown by the next `getEpisodes` calls, in order. */
  getEpisodesFailures: (unknown | undefined)[] = [];
  /** Messages matching this are answered with a 422 (and the whole request with them). */
  invalidMessage: ((message: Message) => boolean) | undefined;
  /** Accept, then fail the request anyway (a timeout after the server took it). */
  acceptThenFail: unknown | undefined;
  private readonly stored: Episode[] = [];
  private readonly queue: QueuedJob[] = [];
  private sequence = 0;

  async healthcheck(): Promise<Healthcheck> {
    return { status: 'healthy' };
  }

  async addMessages(request: AddMessagesRequest, _options?: GraphitiCallOptions): Promise<Result> {
    this.addMessagesCalls.push(structuredClone(request));
    const failure = this.addMessagesFailures.shift();
    if (failure !== undefined) throw failure;
    if (this.invalidMessage && request.messages.some(this.invalidMessage)) {
      throw fakeGraphitiError('validation', { status: 422, retryable: false });
    }
    for (const message of request.messages) this.queue.push({ groupId: request.group_id, message });
    if (this.autoProcess) this.process();
    if (this.acceptThenFail !== undefined) {
      const error = this.acceptThenFail;
      this.acceptThenFail = undefined;
      throw error;
    }
    return { message: 'Messages added to processing queue', success: true };
  }

  async search(): Promise<SearchResults> {
    return { facts: [] };
  }

  async getEpisodes(groupId: string, query: { lastN: number }): Promise<Episode[]> {
    this.episodeQueries.push({ groupId, lastN: query.lastN });
    const failure = this.getEpisodesFailures.shift();
    if (failure !== undefined) throw failure;
    return this.stored.filter((episode) => episode.group_id === groupId).slice(-query.lastN);
  }

  async deleteEpisode(): Promise<Result> {
    return { message: 'deleted', success: true };
  }

  async deleteGroup(): Promise<Result> {
    return { message: 'deleted', success: true };
  }

  /** Runs queued jobs while the worker lives; returns how many were stored. */
  process(limit = Number.POSITIVE_INFINITY): number {
    let done = 0;
    while (this.workerAlive && this.queue.length > 0 && done < limit) {
      const job = this.queue.shift();
      if (job === undefined) break;
      this.store(job.groupId, job.message);
      done++;
    }
    return done;
  }

  /** Stores an episode directly (as if processed earlier, e.g. before a crash). */
  store(groupId: string, message: Message): void {
    const at = new Date(Date.UTC(2026, 0, 1) + this.sequence++).toISOString();
    this.stored.push({
      uuid: `episode-${this.sequence}`,
      name: message.name ?? '',
      group_id: groupId,
      labels: [],
      created_at: at,
      source: 'message',
      source_description: message.source_description ?? '',
      content: `${message.role ?? ''}(${message.role_type}): ${message.content}`,
      valid_at: at,
      entity_edges: [],
    });
  }

  /** Upstream's silent death: later jobs are accepted and never processed. */
  killWorker(): void {
    this.workerAlive = false;
  }

  /** A process restart: the queue is lost, a fresh worker runs. */
  restart(): void {
    this.queue.length = 0;
    this.workerAlive = true;
  }

  queueLength(): number {
    return this.queue.length;
  }

  episodeNames(groupId?: string): string[] {
    return this.stored.filter((episode) => groupId === undefined || episode.group_id === groupId).map((episode) => episode.name);
  }

  get messagesCallCount(): number {
    return this.addMessagesCalls.length;
  }
}

/** A planner standing in for core-A's: user + assistant message per turn for each scope's group. */
export class FakeTurnPlanner implements TurnPlanner {
  planned = 0;
  scopes: readonly ('session' | 'workspace')[] = ['session'];
  workspaceGroupId = 'workspace-test';

  async plan(turn: ChatTurn): Promise<readonly OutboxEntry[]> {
    this.planned++;
    const messages = turnMessages(turn);
    const entries: OutboxEntry[] = [];
    for (const scope of this.scopes) {
      const groupId = scope === 'session' ? `session-${turn.sessionId}` : this.workspaceGroupId;
      for (const message of messages) entries.push({ groupId, message });
    }
    return entries;
  }
}

export function turnMessages(turn: ChatTurn): Message[] {
  const messages: Message[] = [
    {
      content: turn.user.text,
      role_type: 'user',
      role: null,
      name: `test.turn.${turn.id}.user`,
      timestamp: turn.user.timestamp,
    },
  ];
  if (turn.assistant) {
    messages.push({
      content: turn.assistant.text,
      role_type: 'assistant',
      role: turn.participant ?? null,
      name: `test.turn.${turn.id}.assistant`,
      timestamp: turn.assistant.timestamp,
    });
  }
  return messages;
}

/** A finalized turn with distinct texts. */
export function makeTurn(index: number, sessionId = 's1'): ChatTurn {
  const at = new Date(Date.UTC(2025, 11, 1) + index * 1000).toISOString();
  return {
    id: `t${index}`,
    sessionId,
    user: { text: `question number ${index} about the build`, timestamp: at },
    assistant: { text: `answer number ${index}: run the build script first`, timestamp: at },
    participant: 'copilot',
  };
}

/** Settings tests can change between calls (`settings.maxBatchSize = 5`). */
export class MutableMemoryConfiguration implements MemoryConfiguration {
  settings: MemorySettings;

  constructor(overrides: Partial<MemorySettings> = {}) {
    // Delivery mechanics are tested per message; session digests have their own tests.
    this.settings = { ...DEFAULT_SETTINGS, enabled: true, capture: { ...DEFAULT_SETTINGS.capture, granularity: 'turn' }, ...overrides };
  }

  current(): MemorySettings {
    return this.settings;
  }

  problems(): readonly string[] {
    return [];
  }

  onDidChange(): { dispose(): void } {
    return { dispose: () => undefined };
  }
}

/** A gate tests open and close directly. */
export class SwitchableGate implements MemoryGate {
  decision: GateDecision = { open: true, endpoint: 'http://127.0.0.1:8000' };

  evaluate(): GateDecision {
    return this.decision;
  }

  close(): void {
    this.decision = { open: false, reason: 'no-consent' };
  }
}

export interface IngestionFixtureOptions {
  readonly settings?: Partial<MemorySettings>;
  readonly options?: Partial<IngestionOptions>;
  readonly api?: GraphitiApi;
  readonly outbox?: InMemoryOutbox;
  readonly ledger?: DeliveryLedger;
  readonly clock?: FakeClock;
  /** Opens `outbox` and `ledger` only when the service asks and the test says so. */
  readonly deferOpen?: boolean;
}

/** Storage whose `open` waits until the test calls `finishOpening()`; counts opens and closes. */
export class DeferredStorage implements IngestionStorage {
  opens = 0;
  closes = 0;
  #open = false;
  #finish: (() => void) | undefined;
  readonly #opened: Promise<void>;

  constructor(private readonly store: IngestionStore) {
    this.#opened = new Promise<void>((resolve) => {
      this.#finish = resolve;
    });
  }

  async open(): Promise<IngestionStore> {
    this.opens++;
    await this.#opened;
    this.#open = true;
    return this.store;
  }

  current(): IngestionStore | undefined {
    return this.#open ? this.store : undefined;
  }

  async close(): Promise<void> {
    this.closes++;
  }

  finishOpening(): void {
    this.#finish?.();
  }
}

/** An `IngestionService` wired to fakes, with every lever in reach. */
export function createIngestionFixture(fixture: IngestionFixtureOptions = {}) {
  const clock = fixture.clock ?? new FakeClock();
  const configuration = new MutableMemoryConfiguration(fixture.settings);
  const graphiti = new FakeGraphiti();
  const connection = new FixedGraphitiConnection(fixture.api ?? graphiti);
  const outbox = fixture.outbox ?? new InMemoryOutbox(configuration, clock);
  const ledger = fixture.ledger ?? new InMemoryDeliveryLedger();
  const planner = new FakeTurnPlanner();
  const gate = new SwitchableGate();
  const telemetry = new RecordingTelemetry();
  const logger = new RecordingLogger();
  const storage = fixture.deferOpen === true ? new DeferredStorage({ outbox, ledger }) : openedIngestionStorage(outbox, ledger);
  const service = new IngestionService(
    planner,
    storage,
    connection,
    gate,
    configuration,
    clock,
    logger,
    telemetry,
    { random: () => 0.5, ...fixture.options },
  );
  return { service, clock, configuration, graphiti, connection, outbox, ledger, storage, planner, gate, telemetry, logger };
}

/** Polls `condition` every 5 ms until it holds; throws with `what` after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
