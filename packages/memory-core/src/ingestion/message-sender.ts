// Sending: pending records in batches per group, each marked sent before its request (a crash
// then recovers into confirmation, not a resend). Retryable failures back off; a message that
// failed `maxAttempts` times, or that the server refuses for good, becomes a dead letter.
import type { Clock, GraphitiApi, Logger, Outbox, OutboxRecord, TelemetrySink } from '../ports.js';
import type { MemoryConfiguration } from '../settings/index.js';
import { classifyFailure, type DeliveryFailure } from './delivery-failure.js';
import type { DeliveryBounds } from './delivery-bounds.js';
import { groupByGroupId, type DeliveryState } from './delivery-state.js';
import type { DeliveryTracker } from './delivery-tracker.js';
import { retryDelay, type IngestionOptions } from './ingestion-options.js';

type ChunkOutcome = 'continue' | 'stop';

/** Upper bound of `/episodes?last_n` per poll. */
export const MAX_EPISODES_PER_POLL = 1000;
/** Messages of one group sent and unconfirmed at once, so one poll can still see all of them. */
const MAX_IN_FLIGHT_PER_GROUP = MAX_EPISODES_PER_POLL / 2;
/** Pending records read per pass. */
const PENDING_PER_PASS = 1000;

/** What the sender needs from the service that runs it. */
export interface SenderHost {
  readonly disposed: boolean;
  readonly signal: AbortSignal;
  /** Nothing can be sent now, and why (shown in the stats). */
  block(reason: string): void;
}

export class MessageSender {
  /** Ids handed out by `pending` and sent in this pass; the rest are given back at its end. */
  #attempted = new Set<string>();

  constructor(
    private readonly outbox: Outbox,
    private readonly state: DeliveryState,
    private readonly tracker: DeliveryTracker,
    private readonly bounds: DeliveryBounds,
    private readonly configuration: MemoryConfiguration,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly logger: Logger,
    private readonly telemetry: TelemetrySink,
    private readonly options: Pick<IngestionOptions, 'retryDelayMs' | 'maxRetryDelayMs' | 'random'>,
    private readonly host: SenderHost,
  ) {}

  async sendPending(api: GraphitiApi): Promise<void> {
    const settings = this.configuration.current();
    const batchSize = Math.max(1, Math.floor(settings.maxBatchSize));
    const offered = await this.outbox.pending(Math.max(PENDING_PER_PASS, batchSize));
    const records = this.bounds.expire(offered);
    this.#attempted = new Set();
    try {
      for (const [groupId, group] of groupByGroupId(records)) {
        let room = MAX_IN_FLIGHT_PER_GROUP - (this.state.inFlightByGroup.get(groupId) ?? 0);
        for (let start = 0; start < group.length && room > 0; start += batchSize) {
          if (this.host.disposed) return;
          if (!(await this.outbox.holdsDrain())) {
            this.host.block('this process lost its outbox lock; another process sends these messages');
            return;
          }
          const chunk = group.slice(start, start + Math.min(batchSize, room));
          room -= chunk.length;
          if ((await this.#sendChunk(api, groupId, chunk, settings.timeoutMs)) === 'stop') return;
        }
      }
    } finally {
      // Offered is not sent: what no request carried goes back to plain pending, so a later run
      // sends it at once instead of waiting a resend window for a message that never left.
      const unsent = records.filter((record) => !this.#attempted.has(record.id)).map((record) => record.id);
      if (unsent.length > 0) this.outbox.markPending(unsent);
    }
  }

  async #sendChunk(api: GraphitiApi, groupId: string, chunk: readonly OutboxRecord[], timeoutMs: number): Promise<ChunkOutcome> {
    const ids = chunk.map((record) => record.id);
    for (const id of ids) this.#attempted.add(id);
    const sentAt = this.clock.now();
    // Marked before the request: a crash from here on recovers into confirmation, not a resend.
    this.outbox.markSent(ids, sentAt);
    this.state.changeInFlight(groupId, chunk.length);
    try {
      this.state.sendingCount += chunk.length;
      try {
        await api.addMessages(
          { group_id: groupId, messages: chunk.map((record) => record.message) },
          { timeoutMs, maxRetries: 0, signal: this.host.signal },
        );
      } finally {
        this.state.sendingCount -= chunk.length;
      }
      this.#accepted(groupId, chunk.length, sentAt);
      return 'continue';
    } catch (error) {
      const failure = classifyFailure(error);
      switch (failure.disposition) {
        case 'accepted':
          this.#accepted(groupId, chunk.length, sentAt);
          return 'continue';
        case 'unknown-outcome':
          // It may have reached the server: leave it `sent`; confirmation finds it or re-sends it.
          this.tracker.sentTo(groupId, this.clock.now());
          if (!this.host.disposed) this.#failed(failure);
          return 'stop';
        case 'retry': {
          this.outbox.markPending(ids);
          this.state.changeInFlight(groupId, -chunk.length);
          this.#failed(failure);
          // This send was attempt `attempts + 1`; at `maxAttempts` the message stops being retried.
          const { maxAttempts } = this.bounds.limits();
          const exhausted = chunk.filter((record) => record.attempts + 1 >= maxAttempts);
          if (exhausted.length > 0) {
            this.bounds.deadLetter(exhausted, { ...failure, reason: `failed ${maxAttempts} times, last: ${failure.reason}` });
          }
          return 'stop';
        }
        case 'dead-letter':
          this.outbox.markPending(ids);
          this.state.changeInFlight(groupId, -chunk.length);
          if (failure.status === 422 && chunk.length > 1) return this.#isolateInvalid(api, groupId, chunk, timeoutMs);
          this.bounds.deadLetter(chunk, failure);
          return 'continue';
      }
    }
  }

  /** One invalid message must not take its whole batch down: send them one by one. */
  async #isolateInvalid(api: GraphitiApi, groupId: string, chunk: readonly OutboxRecord[], timeoutMs: number): Promise<ChunkOutcome> {
    for (const record of chunk) {
      if (this.host.disposed) return 'stop';
      if ((await this.#sendChunk(api, groupId, [record], timeoutMs)) === 'stop') return 'stop';
    }
    return 'continue';
  }

  #accepted(groupId: string, messages: number, sentAt: number): void {
    const now = this.clock.now();
    this.state.counters.sent += messages;
    this.state.sendFailures = 0;
    this.state.lastSendAccepted = true;
    this.state.lastPassSent = true;
    this.tracker.sentTo(groupId, now);
    this.telemetry.emit({ type: 'sent', messages, groupCount: 1, latencyMs: now - sentAt });
  }

  #failed(failure: DeliveryFailure): void {
    const state = this.state;
    state.sendFailures++;
    state.counters.retried++;
    state.recordError(failure, this.clock.now());
    const delay = retryDelay(state.sendFailures, this.options, failure.retryAfterMs);
    state.backoffUntil = this.clock.now() + delay;
    this.telemetry.emit({ type: 'retried', attempt: state.sendFailures, errorClass: failure.errorClass });
    this.logger.warn('ingestion: sending failed, will retry', {
      errorClass: failure.errorClass,
      reason: failure.reason,
      attempt: state.sendFailures,
      delayMs: delay,
    });
  }
}
