import { inject, injectable, optional } from 'inversify';
import { MemoryGate } from '../gate/index.js';
import { TurnPlanner } from '../planning/index.js';
import { GroupRecorder } from '../registry/group-recorder.js';
import {
  Clock,
  DeliveryLedger,
  GraphitiConnection,
  Logger,
  Outbox,
  TelemetrySink,
  type ChatTurn,
  type GraphitiApi,
  type OutboxEntry,
  type OutboxRecord,
} from '../ports.js';
import { MemoryConfiguration } from '../settings/index.js';
import { classifyFailure, type DeliveryFailure } from './delivery-failure.js';
import { DeliveryTracker } from './delivery-tracker.js';
import { deliveryKey } from './in-memory-delivery-ledger.js';
import { IngestionOptions, resolveIngestionOptions, retryDelay } from './ingestion-options.js';
import {
  emptyCounters,
  type ConfirmationResult,
  type IngestionState,
  type IngestionStats,
} from './ingestion-stats.js';

type StagedItem = { readonly turn: ChatTurn } | { readonly entries: readonly OutboxEntry[] };
type ChunkOutcome = 'continue' | 'stop';

/** Upper bound of `/episodes?last_n` per poll. */
const MAX_EPISODES_PER_POLL = 1000;
/** Smallest `last_n` per poll: other writers to the same group may have added episodes meanwhile. */
const MIN_EPISODES_PER_POLL = 50;
/** Messages of one group sent and unconfirmed at once, so one poll can still see all of them. */
const MAX_IN_FLIGHT_PER_GROUP = MAX_EPISODES_PER_POLL / 2;
/** Pending records read per pass. */
const PENDING_PER_PASS = 1000;

/**
 * Turns → Graphiti, exactly once where the outbox allows it. `enqueue` only stages the turn (the
 * chat path pays for an array push); a background step plans it (mapping, secret guard, scopes),
 * de-duplicates through the ledger and appends to the outbox. The drain loop sends pending
 * records in batches per group, and confirms sent ones by finding their names in `/episodes`,
 * re-sending what never appeared. See the package README for the delivery rules.
 */
@injectable()
export class IngestionService {
  private readonly options: IngestionOptions;
  /** When this service started: records sent earlier were recovered from a previous run. */
  private readonly createdAt: number;
  private readonly counters = emptyCounters();
  private readonly tracker: DeliveryTracker;
  private readonly lifetime = new AbortController();
  private readonly listeners = new Set<(stats: IngestionStats) => void>();

  private staged: StagedItem[] = [];
  private stagingRun: Promise<void> | undefined;
  private passRun: Promise<void> | undefined;
  private loopRun: Promise<void> | undefined;
  private wakeController: AbortController | undefined;
  private wakeRequested = false;
  private started = false;
  private disposed = false;

  private inFlightByGroup = new Map<string, number>();
  private inFlightCount = 0;
  private backoffUntil = 0;
  private sendFailures = 0;
  private pollFailures = 0;
  private lastSendAccepted = false;
  private stalled = false;
  private lastPassSent = false;
  private lastErrorClass: string | undefined;
  private lastErrorAt: number | undefined;
  private lastConfirmedAt: number | undefined;
  private blockedReason: string | undefined;

  constructor(
    @inject(TurnPlanner) private readonly planner: TurnPlanner,
    @inject(Outbox) private readonly outbox: Outbox,
    @inject(DeliveryLedger) private readonly ledger: DeliveryLedger,
    @inject(GraphitiConnection) private readonly connection: GraphitiConnection,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(Clock) private readonly clock: Clock,
    @inject(Logger) private readonly logger: Logger,
    @inject(TelemetrySink) private readonly telemetry: TelemetrySink,
    @inject(IngestionOptions) @optional() options?: Partial<IngestionOptions>,
    @inject(GroupRecorder) @optional() private readonly recorder?: GroupRecorder,
  ) {
    this.options = resolveIngestionOptions(options);
    this.createdAt = clock.now();
    this.tracker = new DeliveryTracker(this.options, clock.now());
  }

  // -------------------------------------------------------------------------------------------
  // Feeding

  /** Stages a finalized turn and returns: no planning, hashing or I/O on the caller's path. */
  enqueue(turn: ChatTurn): void {
    if (this.disposed) {
      this.logger.warn('ingestion: turn enqueued after dispose was ignored');
      return;
    }
    this.counters.turns++;
    this.staged.push({ turn });
    if (this.stagingRun === undefined) this.scheduleStaging();
  }

  /**
   * Stages ready messages (promotions, imports): no planning, still ledger de-duplicated. Each
   * message needs a unique `name`: it is how delivery is confirmed.
   */
  enqueueEntries(entries: readonly OutboxEntry[]): void {
    const nameless = entries.findIndex((entry) => !entry.message.name);
    if (nameless >= 0) {
      throw new Error(
        `enqueueEntries: the message at index ${nameless} has no name; give every message a unique name (it identifies the episode for de-duplication and delivery confirmation)`,
      );
    }
    if (this.disposed || entries.length === 0) return;
    this.staged.push({ entries });
    if (this.stagingRun === undefined) this.scheduleStaging();
  }

  /**
   * Enqueues the newest `limit` of `turns` (given oldest first), e.g. a conversation's history when
   * memory is first enabled. Turns already delivered are skipped by the ledger. Returns how many
   * turns were staged.
   */
  backfill(turns: readonly ChatTurn[], options: { readonly limit: number }): number {
    const limit = Math.max(0, Math.floor(options.limit));
    if (limit === 0 || this.disposed) return 0;
    const selected = turns.slice(-limit);
    for (const turn of selected) this.enqueue(turn);
    return selected.length;
  }

  // -------------------------------------------------------------------------------------------
  // Lifecycle

  /**
   * Starts the drain loop. Records an outbox already holds as `sent` (a durable outbox after a
   * crash) are looked for first; their resend window counts from now.
   */
  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    this.tracker.restartObservation(this.clock.now());
    this.loopRun = this.runLoop();
  }

  /**
   * Stops the loops. Staged turns are appended first and the outbox flushed, so nothing accepted
   * is lost; a request cut short stays `sent` and is confirmed (or re-sent) by the next run.
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    while (this.stagingRun !== undefined) await this.stagingRun;
    this.disposed = true;
    this.lifetime.abort();
    this.wake();
    await this.loopRun;
    await this.passRun;
    await this.outbox.flush();
    this.notify();
    this.listeners.clear();
  }

  /** One pass: confirm what is due, then send what is pending (unless backing off). */
  drain(): Promise<void> {
    this.passRun ??= this.runPass().finally(() => {
      this.passRun = undefined;
    });
    return this.passRun;
  }

  /** Resolves when staged turns are in the outbox (for tests and shutdown paths). */
  async settled(): Promise<void> {
    while (this.stagingRun !== undefined) await this.stagingRun;
  }

  /**
   * Waits until everything staged or in the outbox is confirmed or dropped, or `timeoutMs`
   * passed, or `signal` aborted. Never rejects.
   */
  async waitForConfirmation(options: {
    readonly timeoutMs: number;
    readonly signal?: AbortSignal;
  }): Promise<ConfirmationResult> {
    const confirmedBefore = this.counters.confirmed;
    const done = (): boolean =>
      this.staged.length === 0 && this.stagingRun === undefined && this.outbox.size() === 0;
    const result = (): ConfirmationResult => ({
      confirmed: this.counters.confirmed - confirmedBefore,
      pending: this.outbox.size() + this.stagedMessageEstimate(),
    });
    if (done() || options.signal?.aborted) return result();
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    this.lifetime.signal.addEventListener('abort', onAbort, { once: true });
    const subscription = this.onDidChangeStats(() => {
      if (done()) stop.abort();
    });
    this.wake();
    try {
      await this.clock.sleep(Math.max(0, options.timeoutMs), stop.signal);
    } finally {
      subscription.dispose();
      options.signal?.removeEventListener('abort', onAbort);
      this.lifetime.signal.removeEventListener('abort', onAbort);
    }
    return result();
  }

  // -------------------------------------------------------------------------------------------
  // Status

  stats(): IngestionStats {
    const queueDepth = this.outbox.size();
    const state = this.state(queueDepth);
    return {
      state,
      queueDepth,
      inFlight: Math.min(this.inFlightCount, queueDepth),
      staged: this.staged.length,
      waiting: state === 'accepting-not-processing' ? queueDepth : 0,
      counters: { ...this.counters },
      ...(this.lastErrorClass === undefined ? {} : { lastErrorClass: this.lastErrorClass }),
      ...(this.lastErrorAt === undefined ? {} : { lastErrorAt: this.lastErrorAt }),
      ...(this.lastConfirmedAt === undefined ? {} : { lastConfirmedAt: this.lastConfirmedAt }),
      ...(this.blockedReason === undefined ? {} : { blockedReason: this.blockedReason }),
    };
  }

  onDidChangeStats(listener: (stats: IngestionStats) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private state(queueDepth: number): IngestionState {
    if (this.stalled && queueDepth > 0) return 'accepting-not-processing';
    if (queueDepth > 0 && (this.sendFailures > 0 || this.pollFailures > 0)) return 'failing';
    if (queueDepth > 0 || this.staged.length > 0 || this.stagingRun !== undefined) return 'sending';
    return 'idle';
  }

  private notify(): void {
    if (this.listeners.size === 0) return;
    const snapshot = this.stats();
    for (const listener of [...this.listeners]) {
      try {
        listener(snapshot);
      } catch (error) {
        this.logger.warn('ingestion: a stats listener threw', { errorClass: errorName(error) });
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Staging: planning and admission, off the chat path

  private scheduleStaging(): void {
    // A macrotask, not a microtask: the chat path that enqueued gets to run on first.
    this.stagingRun = new Promise<void>((resolve) => setTimeout(resolve, 0))
      .then(() => this.processStaged())
      .catch((error: unknown) => {
        this.logger.error('ingestion: staging failed', { errorClass: errorName(error) });
      })
      .finally(() => {
        this.stagingRun = undefined;
        if (this.staged.length > 0) this.scheduleStaging();
        this.notify();
      });
  }

  private async processStaged(): Promise<void> {
    while (this.staged.length > 0) {
      const batch = this.staged;
      this.staged = [];
      const entries: OutboxEntry[] = [];
      const turnOf = new Map<OutboxEntry, ChatTurn>();
      let turns = 0;
      for (const item of batch) {
        if ('turn' in item) {
          turns++;
          try {
            const planned = await this.planner.plan(item.turn);
            for (const entry of planned) turnOf.set(entry, item.turn);
            entries.push(...planned);
          } catch (error) {
            this.logger.error('ingestion: planning a turn failed; the turn is skipped', {
              errorClass: errorName(error),
            });
          }
        } else {
          entries.push(...item.entries);
        }
      }
      const fresh = this.admit(entries, turns);
      // The local registry of written groups (what forget covers) learns of every accepted message.
      await this.recorder?.accepted(fresh.map((entry) => ({ entry, turn: turnOf.get(entry) })));
    }
  }

  /** Appends what the ledger has not seen; returns those entries. */
  private admit(entries: readonly OutboxEntry[], turns: number): OutboxEntry[] {
    if (turns > 0) this.telemetry.emit({ type: 'enqueued', turns });
    const fresh: OutboxEntry[] = [];
    for (const entry of entries) {
      const name = entry.message.name;
      if (!name) {
        this.logger.error('ingestion: a planned message has no name and was skipped');
        continue;
      }
      const key = deliveryKey(entry.groupId, name);
      if (this.ledger.has(key)) {
        this.counters.duplicates++;
        continue;
      }
      this.ledger.add(key);
      fresh.push(entry);
    }
    if (fresh.length === 0) return fresh;
    const result = this.outbox.append(fresh);
    this.counters.enqueued += result.accepted;
    if (result.dropped > 0) {
      this.counters.dropped += result.dropped;
      this.telemetry.emit({ type: 'dropped', messages: result.dropped, reason: 'overflow' });
      this.logger.warn('ingestion: queue full, oldest pending messages dropped', {
        messages: result.dropped,
      });
    }
    this.wake();
    return fresh;
  }

  private stagedMessageEstimate(): number {
    let count = 0;
    for (const item of this.staged) count += 'turn' in item ? 1 : item.entries.length;
    return count;
  }

  // -------------------------------------------------------------------------------------------
  // The drain loop

  private async runLoop(): Promise<void> {
    while (!this.disposed) {
      try {
        await this.drain();
      } catch (error) {
        // An outbox that fails to read: log and try again later rather than end the loop.
        this.logger.error('ingestion: drain pass failed', { errorClass: errorName(error) });
        this.backoffUntil = this.clock.now() + this.options.idleRecheckMs;
      }
      if (this.disposed) break;
      await this.sleepUntilWoken(this.nextDelay());
    }
  }

  private nextDelay(): number | undefined {
    const now = this.clock.now();
    if (this.blockedReason !== undefined) return this.options.idleRecheckMs;
    const pending = this.outbox.size() - this.inFlightCount;
    const candidates: number[] = [];
    if (this.backoffUntil > now) candidates.push(this.backoffUntil - now);
    else if (pending > 0) {
      if (this.lastPassSent) return 0;
      // Pending but nothing sendable (groups at their in-flight bound): the next poll frees room.
      candidates.push(this.options.idleRecheckMs);
    }
    const poll = this.tracker.nextPollIn(now);
    if (poll !== undefined) candidates.push(poll);
    return candidates.length === 0 ? undefined : Math.min(...candidates);
  }

  private wake(): void {
    this.wakeRequested = true;
    this.wakeController?.abort();
  }

  private async sleepUntilWoken(delay: number | undefined): Promise<void> {
    if (this.wakeRequested || this.disposed) {
      this.wakeRequested = false;
      return;
    }
    if (delay === 0) return;
    const controller = new AbortController();
    this.wakeController = controller;
    try {
      if (delay === undefined) {
        await new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), { once: true }));
      } else {
        await this.clock.sleep(delay, controller.signal);
      }
    } finally {
      this.wakeController = undefined;
      this.wakeRequested = false;
    }
  }

  private async runPass(): Promise<void> {
    while (this.stagingRun !== undefined) await this.stagingRun;
    this.lastPassSent = false;
    const api = this.connection.current();
    const decision = this.gate.evaluate();
    if (api === undefined || !decision.open) {
      this.setBlocked(api === undefined ? 'no connection' : `gate closed (${decision.reason})`);
      return;
    }
    if (!(await this.outbox.acquireDrain())) {
      this.setBlocked('another process drains the outbox');
      return;
    }
    this.blockedReason = undefined;
    await this.confirmInFlight(api);
    if (!this.disposed && this.clock.now() >= this.backoffUntil) await this.sendPending(api);
    this.notify();
  }

  private setBlocked(reason: string): void {
    if (this.blockedReason !== reason) this.logger.info('ingestion: not sending', { reason });
    this.blockedReason = reason;
    this.notify();
  }

  // -------------------------------------------------------------------------------------------
  // Sending

  private async sendPending(api: GraphitiApi): Promise<void> {
    const settings = this.configuration.current();
    const batchSize = Math.max(1, Math.floor(settings.maxBatchSize));
    const records = await this.outbox.pending(Math.max(PENDING_PER_PASS, batchSize));
    for (const [groupId, group] of groupByGroupId(records)) {
      let room = MAX_IN_FLIGHT_PER_GROUP - (this.inFlightByGroup.get(groupId) ?? 0);
      for (let start = 0; start < group.length && room > 0; start += batchSize) {
        if (this.disposed) return;
        const chunk = group.slice(start, start + Math.min(batchSize, room));
        room -= chunk.length;
        if ((await this.sendChunk(api, groupId, chunk, settings.timeoutMs)) === 'stop') return;
      }
    }
  }

  private async sendChunk(
    api: GraphitiApi,
    groupId: string,
    chunk: readonly OutboxRecord[],
    timeoutMs: number,
  ): Promise<ChunkOutcome> {
    const ids = chunk.map((record) => record.id);
    const sentAt = this.clock.now();
    // Marked before the request: a crash from here on recovers into confirmation, not a resend.
    this.outbox.markSent(ids, sentAt);
    this.changeInFlight(groupId, chunk.length);
    try {
      await api.addMessages(
        { group_id: groupId, messages: chunk.map((record) => record.message) },
        { timeoutMs, maxRetries: 0, signal: this.lifetime.signal },
      );
      this.accepted(groupId, chunk.length, sentAt);
      return 'continue';
    } catch (error) {
      const failure = classifyFailure(error);
      switch (failure.disposition) {
        case 'accepted':
          this.accepted(groupId, chunk.length, sentAt);
          return 'continue';
        case 'unknown-outcome':
          // It may have reached the server: leave it `sent`; confirmation finds it or re-sends it.
          this.tracker.sentTo(groupId, this.clock.now());
          if (!this.disposed) this.failed(failure);
          return 'stop';
        case 'retry':
          this.outbox.markPending(ids);
          this.changeInFlight(groupId, -chunk.length);
          this.failed(failure);
          return 'stop';
        case 'dead-letter':
          this.outbox.markPending(ids);
          this.changeInFlight(groupId, -chunk.length);
          if (failure.status === 422 && chunk.length > 1) return this.isolateInvalid(api, groupId, chunk, timeoutMs);
          this.deadLetter(chunk, failure);
          return 'continue';
      }
    }
  }

  /** One invalid message must not take its whole batch down: send them one by one. */
  private async isolateInvalid(
    api: GraphitiApi,
    groupId: string,
    chunk: readonly OutboxRecord[],
    timeoutMs: number,
  ): Promise<ChunkOutcome> {
    for (const record of chunk) {
      if (this.disposed) return 'stop';
      if ((await this.sendChunk(api, groupId, [record], timeoutMs)) === 'stop') return 'stop';
    }
    return 'continue';
  }

  private accepted(groupId: string, messages: number, sentAt: number): void {
    const now = this.clock.now();
    this.counters.sent += messages;
    this.sendFailures = 0;
    this.lastSendAccepted = true;
    this.lastPassSent = true;
    this.tracker.sentTo(groupId, now);
    this.telemetry.emit({ type: 'sent', messages, groupCount: 1, latencyMs: now - sentAt });
  }

  private failed(failure: DeliveryFailure): void {
    this.sendFailures++;
    this.counters.retried++;
    this.recordError(failure);
    const delay = retryDelay(this.sendFailures, this.options, failure.retryAfterMs);
    this.backoffUntil = this.clock.now() + delay;
    this.telemetry.emit({ type: 'retried', attempt: this.sendFailures, errorClass: failure.errorClass });
    this.logger.warn('ingestion: sending failed, will retry', {
      errorClass: failure.errorClass,
      reason: failure.reason,
      attempt: this.sendFailures,
      delayMs: delay,
    });
  }

  private deadLetter(records: readonly OutboxRecord[], failure: DeliveryFailure): void {
    this.outbox.markDropped(
      records.map((record) => record.id),
      'dead-letter',
      failure.reason,
    );
    this.counters.deadLettered += records.length;
    this.recordError(failure);
    this.telemetry.emit({
      type: 'dead-lettered',
      messages: records.length,
      errorClass: failure.errorClass,
      reason: failure.reason,
    });
    this.logger.error('ingestion: messages refused for good (dead-lettered)', {
      messages: records.length,
      errorClass: failure.errorClass,
      reason: failure.reason,
    });
  }

  private recordError(failure: DeliveryFailure): void {
    this.lastErrorClass = failure.errorClass;
    this.lastErrorAt = this.clock.now();
  }

  private changeInFlight(groupId: string, delta: number): void {
    this.inFlightCount = Math.max(0, this.inFlightCount + delta);
    this.inFlightByGroup.set(groupId, Math.max(0, (this.inFlightByGroup.get(groupId) ?? 0) + delta));
  }

  // -------------------------------------------------------------------------------------------
  // Confirming

  private async confirmInFlight(api: GraphitiApi): Promise<void> {
    const inFlight = await this.outbox.inFlight();
    const byGroup = groupByGroupId(inFlight);
    this.inFlightCount = inFlight.length;
    this.inFlightByGroup = new Map([...byGroup].map(([groupId, records]) => [groupId, records.length]));
    this.tracker.retainGroups(new Set(byGroup.keys()));
    if (inFlight.length === 0) {
      this.pollFailures = 0;
      return;
    }
    const timeoutMs = this.configuration.current().timeoutMs;
    for (const [groupId, records] of byGroup) {
      if (this.disposed) return;
      if (!this.tracker.isPollDue(groupId, this.clock.now())) continue;
      await this.pollGroup(api, groupId, records, timeoutMs);
    }
  }

  /**
   * How many of the group's newest episodes one poll reads. Fresh sends are near the top, so a small
   * window finds them; a record sent before this service started (recovered after a crash), sent
   * more than once, or waiting longer than a few polls may have been pushed down by later episodes
   * (of this or another process), so those are looked for in the widest window.
   */
  private episodesWindow(records: readonly OutboxRecord[]): number {
    const now = this.clock.now();
    const patience = this.options.maxPollIntervalMs * 2;
    const mayBeBuried = records.some(
      (record) =>
        record.attempts > 1 ||
        record.sentAt === undefined ||
        record.sentAt < this.createdAt ||
        now - record.sentAt > patience,
    );
    if (mayBeBuried) return MAX_EPISODES_PER_POLL;
    return Math.min(Math.max(2 * records.length, MIN_EPISODES_PER_POLL), MAX_EPISODES_PER_POLL);
  }

  private async pollGroup(
    api: GraphitiApi,
    groupId: string,
    records: readonly OutboxRecord[],
    timeoutMs: number,
  ): Promise<void> {
    const lastN = this.episodesWindow(records);
    let names: Set<string>;
    try {
      const episodes = await api.getEpisodes(
        groupId,
        { lastN },
        { timeoutMs, maxRetries: 0, signal: this.lifetime.signal },
      );
      names = new Set(episodes.map((episode) => episode.name));
      this.pollFailures = 0;
    } catch (error) {
      if (this.disposed) return;
      const failure = classifyFailure(error);
      this.pollFailures++;
      this.recordError(failure);
      this.tracker.polled(groupId, this.clock.now(), false);
      this.logger.warn('ingestion: looking for sent messages failed', {
        errorClass: failure.errorClass,
        reason: failure.reason,
      });
      return;
    }
    const now = this.clock.now();
    const found = records.filter((record) => record.message.name !== undefined && names.has(record.message.name));
    if (found.length > 0) this.confirm(groupId, found, now);
    const foundIds = new Set(found.map((record) => record.id));
    const due = records.filter((record) => !foundIds.has(record.id) && this.tracker.resendDue(record, now));
    if (due.length > 0) this.resend(groupId, due, now);
    this.tracker.polled(groupId, now, found.length > 0);
  }

  private confirm(groupId: string, records: readonly OutboxRecord[], now: number): void {
    this.outbox.markConfirmed(records.map((record) => record.id));
    this.changeInFlight(groupId, -records.length);
    this.counters.confirmed += records.length;
    this.tracker.confirmed(records, now);
    this.lastConfirmedAt = now;
    this.stalled = false;
    const totalLatency = records.reduce((sum, record) => sum + (now - (record.sentAt ?? record.enqueuedAt)), 0);
    this.telemetry.emit({
      type: 'confirmed',
      messages: records.length,
      latencyMs: Math.round(totalLatency / records.length),
    });
  }

  private resend(groupId: string, records: readonly OutboxRecord[], now: number): void {
    const noProgress = this.tracker.noProgress(now);
    this.outbox.markPending(records.map((record) => record.id));
    this.changeInFlight(groupId, -records.length);
    this.counters.resent += records.length;
    // 202s and still nothing for a whole window: upstream's silent worker death, or a restart.
    if (noProgress && this.lastSendAccepted) this.stalled = true;
    this.telemetry.emit({ type: 'resent', messages: records.length });
    this.logger.warn('ingestion: sent messages never appeared; sending them again', {
      messages: records.length,
      serverShowsProgress: !noProgress,
    });
  }
}

function groupByGroupId(records: readonly OutboxRecord[]): Map<string, OutboxRecord[]> {
  const groups = new Map<string, OutboxRecord[]>();
  for (const record of records) {
    const group = groups.get(record.groupId);
    if (group) group.push(record);
    else groups.set(record.groupId, [record]);
  }
  return groups;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
