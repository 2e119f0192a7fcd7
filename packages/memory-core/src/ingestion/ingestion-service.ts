import { inject, injectable, optional } from 'inversify';
import { DigestWriting } from '../digest/digest-writing.js';
import { LoopProposals } from '../loops/loop-proposals.js';
import { SessionDigests } from '../digest/session-digests.js';
import { errorClassOf } from '../errors/graphiti-failure.js';
import { ForgetLedger, recordForgotten } from '../forget/forget-ledger.js';
import { OwedDeletions } from '../forget/owed-deletions.js';
import { MemoryGate } from '../gate/index.js';
import { TurnPlanner } from '../planning/index.js';
import { GroupRecorder } from '../registry/group-recorder.js';
import { EpisodeSources } from '../sources/episode-sources.js';
import { MessageSourceStamp } from '../sources/message-source-stamp.js';
import {
  Clock,
  GraphitiConnection,
  IngestionStorage,
  Logger,
  TelemetrySink,
  type ChatTurn,
  type DeadLetter,
  type GraphitiApi,
  type IngestionStore,
  type OutboxEntry,
  type OutboxRecord,
} from '../ports.js';
import { MemoryConfiguration } from '../settings/index.js';
import { DeliveryBounds } from './delivery-bounds.js';
import { DeliveryConfirmer } from './delivery-confirmer.js';
import type { DeliveryContext, DeliveryHost } from './delivery-context.js';
import { DeliveryState } from './delivery-state.js';
import { DeliveryTracker } from './delivery-tracker.js';
import { DrainLoop } from './drain-loop.js';
import { IngestionOptions, resolveIngestionOptions } from './ingestion-options.js';
import type { ConfirmationResult, IngestionState, IngestionStats } from './ingestion-stats.js';
import type { Ingestion } from './ingestion.js';
import { MessageSender, type SendHold } from './message-sender.js';
import { StorageHandle } from './storage-handle.js';
import { TurnStaging } from './turn-staging.js';
import { LocalTier } from '../tier/local-tier.js';
import { TurnMirror } from '../mirror/turn-mirror.js';

/** Sending and confirming, built once the storage is open. */
interface Delivery {
  readonly sender: MessageSender;
  readonly confirmer: DeliveryConfirmer;
}

/**
 * Turns → Graphiti, exactly once where the outbox allows it. `enqueue` only stages the turn (the
 * chat path pays for an array push); staging plans it and admits it to the outbox (ledger
 * de-duplicated); the drain loop confirms what was sent (`DeliveryConfirmer`) and sends what is
 * pending (`MessageSender`), within the bounds of `DeliveryBounds`. The storage (`IngestionStorage`)
 * is opened here on first need, never on the caller's path. See the package README.
 */
@injectable()
export class IngestionService implements Ingestion {
  private readonly options: IngestionOptions;
  private readonly state = new DeliveryState();
  private readonly tracker: DeliveryTracker;
  private readonly staging: TurnStaging;
  private readonly digests: SessionDigests;
  private readonly storage: StorageHandle;
  private delivery: Delivery | undefined;
  private readonly lifetime = new AbortController();
  /** Aborted as dispose begins: a digest being written by a chat model falls back to the filtered one at once. */
  private readonly stopping = new AbortController();
  private readonly listeners = new Set<(stats: IngestionStats) => void>();

  private readonly loop: DrainLoop;
  private passRun: Promise<void> | undefined;
  private disposed = false;

  constructor(
    @inject(TurnPlanner) planner: TurnPlanner,
    @inject(IngestionStorage) storage: IngestionStorage,
    @inject(GraphitiConnection) private readonly connection: GraphitiConnection,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(Clock) private readonly clock: Clock,
    @inject(Logger) private readonly logger: Logger,
    @inject(TelemetrySink) telemetry: TelemetrySink,
    @inject(IngestionOptions) @optional() options?: Partial<IngestionOptions>,
    @inject(GroupRecorder) @optional() recorder?: GroupRecorder,
    @inject(MessageSourceStamp) @optional() sourceStamp?: MessageSourceStamp,
    @inject(EpisodeSources) @optional() episodeSources?: EpisodeSources,
    @inject(ForgetLedger) @optional() private readonly forgetLedger?: ForgetLedger,
    @inject(OwedDeletions) @optional() private readonly owedDeletions?: OwedDeletions,
    @inject(DigestWriting) @optional() digestWriting?: DigestWriting,
    @inject(LocalTier) @optional() tier?: LocalTier,
    @inject(TurnMirror) @optional() private readonly mirror?: TurnMirror,
    @inject(LoopProposals) @optional() loopProposals?: LoopProposals,
  ) {
    this.options = resolveIngestionOptions(options);
    const createdAt = clock.now();
    this.tracker = new DeliveryTracker(this.options, createdAt);
    const state = this.state;
    const isDisposed = (): boolean => this.disposed;
    const host: DeliveryHost = {
      get disposed() {
        return isDisposed();
      },
      signal: this.lifetime.signal,
      block: (reason) => this.setBlocked(reason),
    };
    this.storage = new StorageHandle(storage, ({ outbox }) => {
      const bounds = new DeliveryBounds(outbox, state, configuration, clock, logger, telemetry);
      const tracker = this.tracker;
      const context: DeliveryContext = {
        outbox,
        state,
        tracker,
        bounds,
        configuration,
        clock,
        logger,
        telemetry,
        options: this.options,
        host,
        ...(episodeSources === undefined ? {} : { episodeSources }),
        ...(tier === undefined ? {} : { tier }),
      };
      this.delivery = { sender: new MessageSender(context), confirmer: new DeliveryConfirmer(context, createdAt) };
    });
    this.loop = new DrainLoop(
      {
        pass: () => this.drain(),
        nextDelay: () => this.nextDelay(),
        failed: (error) => {
          // Storage that fails to open or read: log and try again later rather than end the loop.
          this.logger.error('ingestion: drain pass failed', { errorClass: errorClassOf(error) });
          this.state.backoffUntil = this.clock.now() + this.options.idleRecheckMs;
        },
      },
      clock,
    );
    this.digests = new SessionDigests(() => configuration.current(), digestWriting, this.stopping.signal, loopProposals);
    this.staging = new TurnStaging(
      planner,
      this.storage,
      state,
      clock,
      logger,
      telemetry,
      this.options,
      {
        admitted: () => this.wake(),
        changed: () => this.notify(),
        // The local registry of written groups (what forget covers) learns of every accepted message.
        ...(recorder === undefined ? {} : { accepted: (accepted) => recorder.accepted(accepted) }),
        // Each message carries its source to confirmation, which records it under the episode's uuid.
        ...(sourceStamp === undefined || episodeSources === undefined ? {} : { stamp: (entries, turn) => sourceStamp.stamp(entries, turn) }),
      },
      this.digests,
    );
  }

  /** The outbox once storage is open. */
  private get outbox(): IngestionStore['outbox'] | undefined {
    return this.storage.store?.outbox;
  }

  // -------------------------------------------------------------------------------------------
  // Feeding

  /** Stages a finalized turn and returns: no planning, hashing or I/O on the caller's path. */
  enqueue(turn: ChatTurn): void {
    if (this.disposed) {
      this.logger.warn('ingestion: turn enqueued after dispose was ignored');
      return;
    }
    this.state.counters.turns++;
    // The structure is the mirror's alone: it never reaches a digest or a turn's messages.
    const { structure: _structure, ...plain } = turn;
    this.staging.push({ turn: plain });
    this.mirror?.offer(turn, (entries) => this.enqueueEntries(entries));
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
    this.staging.push({ entries });
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

  /** The session's open digest segments close now (see `Ingestion.endSession`). */
  endSession(sessionId: string): void {
    if (this.disposed) return;
    this.staging.push({ close: { sessionId } });
  }

  /** Each session once (see `Ingestion.endSessions`). */
  endSessions(sessionIds: Iterable<string>): void {
    for (const sessionId of new Set(sessionIds)) this.endSession(sessionId);
  }

  // -------------------------------------------------------------------------------------------
  // Lifecycle

  /**
   * Starts the drain loop; its first pass opens the storage (when the gate is open). Records an
   * outbox already holds as `sent` (a durable outbox after a crash) are looked for first; their
   * resend window counts from now.
   */
  start(): void {
    if (this.loop.running || this.disposed) return;
    this.tracker.restartObservation(this.clock.now());
    this.loop.start();
  }

  /** Ends the drain loop after the pass under way (the gate closed). Staging goes on; `start` resumes. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * Stops the loops. Staged turns are appended first and the outbox flushed, so nothing accepted
   * is lost; a request cut short stays `sent` and is confirmed (or re-sent) by the next run. The
   * storage this service opened is closed.
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.stopping.abort();
    await this.settled();
    if (this.staging.length > 0) this.logger.error('ingestion: disposed while the outbox refused messages; they are not kept', { items: this.staging.length });
    this.disposed = true;
    this.lifetime.abort();
    await this.loop.stop();
    await this.passRun;
    try {
      await this.outbox?.flush();
    } finally {
      // Closed even when the flush failed (a full or read-only disk): storage left open would keep
      // its journal locked, and its records from every other process, while this one lives.
      await this.storage.close();
      this.notify();
      this.listeners.clear();
    }
  }

  /** One pass: confirm what is due, then send what is pending (unless backing off). */
  drain(): Promise<void> {
    this.passRun ??= this.runPass().finally(() => {
      this.passRun = undefined;
    });
    return this.passRun;
  }

  /** Resolves when staged turns are in the outbox (for tests and shutdown paths). */
  settled(): Promise<void> {
    return this.staging.settled();
  }

  /**
   * Waits until everything staged or in the outbox is confirmed or dropped, or `timeoutMs`
   * passed, or `signal` aborted. Never rejects.
   */
  async waitForConfirmation(options: { readonly timeoutMs: number; readonly signal?: AbortSignal }): Promise<ConfirmationResult> {
    const confirmedBefore = this.state.counters.confirmed;
    // What an earlier run left in the outbox counts too (opened when it is not yet).
    const outbox =
      this.outbox ??
      (await this.storage.open().then(
        (store) => store.outbox,
        () => undefined,
      ));
    const size = (): number => outbox?.size() ?? 0;
    const done = (): boolean => this.staging.length === 0 && !this.staging.busy && size() === 0;
    const result = (): ConfirmationResult => ({
      confirmed: this.state.counters.confirmed - confirmedBefore,
      pending: size() + this.staging.messageEstimate(),
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
  // Forgetting and dead letters

  /**
   * Removes everything still queued for these groups (turns still being planned included) and
   * keeps their ledger keys as forgotten, so no capture, track or hook run offers them again.
   * Returns how many queued messages were removed.
   */
  async forgetGroups(groupIds: readonly string[]): Promise<number> {
    if (groupIds.length === 0) return 0;
    await this.settled();
    // Storage is opened for it: an earlier run may have left messages of these groups queued.
    const store = await this.storage.open();
    // Open digest segments of these groups are dropped too: their turns never leave the machine.
    const removed = (await store.outbox.forgetGroups(groupIds)) + (await this.digests.forgetGroups(groupIds, store));
    if (removed > 0) this.logger.info('ingestion: queued messages of forgotten groups removed', { messages: removed, groups: groupIds.length });
    this.notify();
    return removed;
  }

  /** Messages that failed `maxAttempts` times or stayed unconfirmed past `maxAgeHours`. */
  deadLetters(): readonly DeadLetter[] {
    return this.outbox?.deadLetters() ?? [];
  }

  /** Sends dead letters (all when `ids` is omitted) again, with fresh attempts. Returns how many. */
  retryDeadLetters(ids?: readonly string[]): number {
    const moved = this.outbox?.retryDeadLetters(ids) ?? 0;
    if (moved > 0) {
      this.state.sendFailures = 0;
      this.state.backoffUntil = 0;
      this.wake();
    }
    this.notify();
    return moved;
  }

  /** Ends the backoff after failed sends (the server answered a probe) and wakes the loop. */
  retryNow(): void {
    if (this.state.backoffUntil === 0 && this.state.sendFailures === 0) return;
    this.state.sendFailures = 0;
    this.state.backoffUntil = 0;
    this.wake();
    this.notify();
  }

  /** Deletes dead letters (all when `ids` is omitted) for good. Returns how many. */
  dropDeadLetters(ids?: readonly string[]): number {
    const dropped = this.outbox?.dropDeadLetters(ids) ?? 0;
    this.notify();
    return dropped;
  }

  // -------------------------------------------------------------------------------------------
  // Status

  /** Before storage is open, staged items count as the queue (dead letters live in the outbox). */
  stats(): IngestionStats {
    const outbox = this.outbox;
    const queueDepth = outbox === undefined ? this.staging.length : outbox.size();
    const state = this.deliveryState(queueDepth);
    const { counters, inFlightCount, lastErrorClass, lastErrorAt, lastConfirmedAt, blockedReason, oldestPendingAt, oldestInFlightAt } = this.state;
    const oldest = [oldestPendingAt, oldestInFlightAt].filter((at) => at !== undefined);
    const oldestQueuedAt = queueDepth > 0 && oldest.length > 0 ? Math.min(...oldest) : undefined;
    return {
      state,
      queueDepth,
      inFlight: Math.min(inFlightCount, queueDepth),
      sending: this.state.sendingCount,
      staged: this.staging.length,
      deadLetters: outbox?.deadLetters().length ?? 0,
      waiting: state === 'accepting-not-processing' ? queueDepth : 0,
      counters: { ...counters },
      ...(lastErrorClass === undefined ? {} : { lastErrorClass }),
      ...(lastErrorAt === undefined ? {} : { lastErrorAt }),
      ...(lastConfirmedAt === undefined ? {} : { lastConfirmedAt }),
      ...(oldestQueuedAt === undefined ? {} : { oldestQueuedAt }),
      ...(blockedReason === undefined ? {} : { blockedReason }),
    };
  }

  onDidChangeStats(listener: (stats: IngestionStats) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private deliveryState(queueDepth: number): IngestionState {
    const { stalled, sendFailures, pollFailures } = this.state;
    if (stalled && queueDepth > 0) return 'accepting-not-processing';
    if (queueDepth > 0 && (sendFailures > 0 || pollFailures > 0)) return 'failing';
    if (queueDepth > 0 || this.staging.length > 0 || this.staging.busy) return 'sending';
    return 'idle';
  }

  private notify(): void {
    if (this.listeners.size === 0) return;
    const snapshot = this.stats();
    for (const listener of [...this.listeners]) {
      try {
        listener(snapshot);
      } catch (error) {
        this.logger.warn('ingestion: a stats listener threw', { errorClass: errorClassOf(error) });
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // The drain loop

  private nextDelay(): number | undefined {
    const now = this.clock.now();
    const { blockedReason, inFlightCount, backoffUntil, lastPassSent } = this.state;
    if (blockedReason !== undefined) return this.options.idleRecheckMs;
    const pending = (this.outbox?.size() ?? 0) - inFlightCount;
    const candidates: number[] = [];
    if (backoffUntil > now) candidates.push(backoffUntil - now);
    else if (pending > 0) {
      if (lastPassSent) return 0;
      // Pending but nothing sendable (groups at their in-flight bound): the next poll frees room.
      candidates.push(this.options.idleRecheckMs);
    }
    const poll = this.tracker.nextPollIn(now);
    if (poll !== undefined) candidates.push(poll);
    // An open digest segment falls idle: the pass closes it.
    const digest = this.digests.nextDueIn(now);
    if (digest !== undefined) candidates.push(digest);
    return candidates.length === 0 ? undefined : Math.min(...candidates);
  }

  private wake(): void {
    this.loop.wake();
  }

  private async runPass(): Promise<void> {
    await this.settled();
    this.state.lastPassSent = false;
    const api = this.connection.current();
    const decision = this.gate.evaluate();
    if (api === undefined || !decision.open) {
      this.setBlocked(api === undefined ? 'no connection' : `gate closed (${decision.reason})`);
      return;
    }
    // The gate is open: storage is needed now (also for what an earlier run left queued).
    const store = await this.storage.open();
    const { outbox } = store;
    // Digest segments that fell idle (also another process's, or a crashed session's) close into
    // the outbox first; the segments are read each pass, as other processes add to them.
    if (await this.digests.refresh(store, this.clock.now())) {
      this.staging.push({ close: {} });
      await this.settled();
    }
    const delivery = this.delivery;
    if (delivery === undefined) throw new Error('ingestion: storage opened without its delivery parts; this is a bug');
    if (!(await outbox.acquireDrain())) {
      this.setBlocked('another process drains the outbox');
      return;
    }
    const sending = this.clock.now() >= this.state.backoffUntil;
    const hold = await this.forgottenHold(api, outbox, sending);
    if (hold === undefined) return;
    this.state.blockedReason = undefined;
    await delivery.confirmer.confirmInFlight(api);
    if (!this.disposed && sending) await delivery.sender.sendPending(api, hold);
    this.notify();
  }

  /**
   * What forgets recorded (by any process, read afresh before each pass): records of forgotten
   * groups enqueued up to their forget are dropped, never sent — also those a forget could not
   * dequeue (a live process's journal). Deletes a forget still owes are carried out first (when
   * the pass may send); a group whose delete failed is held, so nothing new reaches it before
   * its delete (which would take the new messages with it). `undefined`: the record could not be
   * read, so nothing is sent in this pass.
   */
  private async forgottenHold(api: GraphitiApi, outbox: IngestionStore['outbox'], sending: boolean): Promise<SendHold | undefined> {
    if (this.forgetLedger === undefined) return { forgotten: () => false, held: () => false };
    let record;
    try {
      record = await this.forgetLedger.read();
    } catch (error) {
      this.logger.error('ingestion: the record of forgotten groups is unreadable; nothing is sent until it is', { errorClass: errorClassOf(error) });
      this.setBlocked('the record of forgotten groups is unreadable');
      return undefined;
    }
    const owed = new Set(record.groups.filter((group) => group.deletionOwed).map((group) => group.groupId));
    if (owed.size > 0 && sending && this.owedDeletions !== undefined && !this.disposed) {
      const result = await this.owedDeletions.carryOut(api, { timeoutMs: this.configuration.current().timeoutMs, maxRetries: 0, signal: this.lifetime.signal }, [...owed]);
      for (const groupId of result.deleted) owed.delete(groupId);
    }
    const forgotten = (candidate: OutboxRecord): boolean => recordForgotten(record, candidate.groupId, candidate.enqueuedAt);
    const inFlight = (await outbox.inFlight()).filter(forgotten);
    if (inFlight.length > 0) {
      outbox.markDropped(
        inFlight.map((candidate) => candidate.id),
        'forgotten',
      );
      this.logger.info('ingestion: sent messages of forgotten groups dropped', { messages: inFlight.length });
    }
    return { forgotten, held: (groupId) => owed.has(groupId) };
  }

  private setBlocked(reason: string): void {
    if (this.state.blockedReason !== reason) this.logger.info('ingestion: not sending', { reason });
    this.state.blockedReason = reason;
    this.notify();
  }
}
