// Sending: pending records in batches per group, each marked sent before its request (a crash
// then recovers into confirmation, not a resend). An outage (no connection, a timeout, a 5xx, 408,
// 429) is not a failure of the message: it backs off and never counts as an attempt, so only the
// outbox's age bound (`maxAgeHours`) ends its wait. A write the server refuses as invalid (4xx)
// becomes a dead letter.
import type { GraphitiApi, OutboxRecord } from '../ports.js';
import type { DeliveryContext } from './delivery-context.js';
import { classifyFailure, type DeliveryFailure } from './delivery-failure.js';
import { groupByGroupId } from './delivery-state.js';
import { retryDelay } from './ingestion-options.js';
import { writeMirrorEntry } from '../mirror/mirror-writer.js';
import { CODING_ONTOLOGY_INSTRUCTIONS } from '../mirror/coding-ontology.js';

type ChunkOutcome = 'continue' | 'stop';

/** Upper bound of `/episodes?last_n` per poll. */
export const MAX_EPISODES_PER_POLL = 1000;
/** Messages of one group sent and unconfirmed at once, so one poll can still see all of them. */
const MAX_IN_FLIGHT_PER_GROUP = MAX_EPISODES_PER_POLL / 2;
/** Pending records read per pass. */
const PENDING_PER_PASS = 1000;

/** What a forget holds back from a pass (`IngestionService` reads it before each pass). */
export interface SendHold {
  /** Forgotten: dropped, never sent. */
  forgotten(record: OutboxRecord): boolean;
  /** The group's delete is still owed: its records wait. */
  held(groupId: string): boolean;
}

const NO_HOLD: SendHold = { forgotten: () => false, held: () => false };

/** When the oldest of `records` was queued. */
export function oldestOf(records: readonly OutboxRecord[]): number | undefined {
  let oldest: number | undefined;
  for (const record of records) oldest = Math.min(oldest ?? record.enqueuedAt, record.enqueuedAt);
  return oldest;
}

export class MessageSender {
  /** Ids handed out by `pending` and sent in this pass; the rest are given back at its end. */
  #attempted = new Set<string>();

  constructor(private readonly context: DeliveryContext) {}

  async sendPending(api: GraphitiApi, hold: SendHold = NO_HOLD): Promise<void> {
    const { configuration, outbox, bounds, state, host, logger } = this.context;
    const settings = configuration.current();
    const batchSize = Math.max(1, Math.floor(settings.maxBatchSize));
    const offered = await outbox.pending(Math.max(PENDING_PER_PASS, batchSize));
    const forgotten = offered.filter((record) => hold.forgotten(record));
    if (forgotten.length > 0) {
      outbox.markDropped(
        forgotten.map((record) => record.id),
        'forgotten',
      );
      logger.info('ingestion: queued messages of forgotten groups dropped before sending', { messages: forgotten.length });
    }
    const records = bounds.expire(offered.filter((record) => !forgotten.includes(record)));
    state.oldestPendingAt = oldestOf(records);
    this.#attempted = new Set();
    try {
      for (const [groupId, group] of groupByGroupId(records)) {
        if (hold.held(groupId)) continue;
        let room = MAX_IN_FLIGHT_PER_GROUP - (state.inFlightByGroup.get(groupId) ?? 0);
        for (let start = 0; start < group.length && room > 0; ) {
          if (host.disposed) return;
          if (!(await outbox.holdsDrain())) {
            host.block('this process lost its outbox lock; another process sends these messages');
            return;
          }
          // A mirror record is sent alone (its structure, then its episode); others in batches.
          const end = Math.min(start + Math.min(batchSize, room), group.length);
          const mirrorAt = group.slice(start, end).findIndex((record) => record.mirror !== undefined);
          const chunk = group.slice(start, mirrorAt < 0 ? end : start + Math.max(1, mirrorAt));
          start += chunk.length;
          room -= chunk.length;
          if ((await this.#sendChunk(api, groupId, chunk, settings.timeoutMs)) === 'stop') return;
        }
      }
    } finally {
      // Offered is not sent: what no request carried goes back to plain pending, so a later run
      // sends it at once instead of waiting a resend window for a message that never left.
      const unsent = records.filter((record) => !this.#attempted.has(record.id)).map((record) => record.id);
      if (unsent.length > 0) outbox.markPending(unsent);
    }
  }

  async #sendChunk(api: GraphitiApi, groupId: string, chunk: readonly OutboxRecord[], timeoutMs: number): Promise<ChunkOutcome> {
    const { outbox, state, tracker, bounds, clock, host } = this.context;
    const ids = chunk.map((record) => record.id);
    for (const id of ids) this.#attempted.add(id);
    const sentAt = clock.now();
    // Marked before the request: a crash from here on recovers into confirmation, not a resend.
    outbox.markSent(ids, sentAt);
    for (const id of ids) state.outageSends.delete(id);
    state.changeInFlight(groupId, chunk.length);
    try {
      state.sendingCount += chunk.length;
      try {
        const call = { timeoutMs, maxRetries: 0, signal: host.signal };
        const [first] = chunk;
        if (first?.mirror !== undefined && chunk.length === 1) {
          await writeMirrorEntry(api, { ...first, mirror: first.mirror }, call);
        } else {
          // Seed 000's vocabulary as extraction guidance, where the server takes it (MCP main).
          await api.addMessages(
            { group_id: groupId, messages: chunk.map((record) => record.message) },
            { ...call, extractionInstructions: CODING_ONTOLOGY_INSTRUCTIONS },
          );
        }
      } finally {
        state.sendingCount -= chunk.length;
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
          // It may have reached the server: leave it `sent`; confirmation finds it or re-sends it
          // (then this send, an outage, is not counted).
          for (const id of ids) state.outageSends.add(id);
          tracker.sentTo(groupId, clock.now());
          if (!host.disposed) this.#failed(failure);
          return 'stop';
        case 'retry':
          // An outage, not an attempt: the message waits (with backoff) as long as `maxAgeHours` allows.
          outbox.markPending(ids, { outage: true });
          state.changeInFlight(groupId, -chunk.length);
          this.#failed(failure);
          return 'stop';
        case 'dead-letter':
          outbox.markPending(ids);
          state.changeInFlight(groupId, -chunk.length);
          if (failure.status === 422 && chunk.length > 1) return this.#isolateInvalid(api, groupId, chunk, timeoutMs);
          bounds.deadLetter(chunk, failure);
          return 'continue';
      }
    }
  }

  /** One invalid message must not take its whole batch down: send them one by one. */
  async #isolateInvalid(api: GraphitiApi, groupId: string, chunk: readonly OutboxRecord[], timeoutMs: number): Promise<ChunkOutcome> {
    for (const record of chunk) {
      if (this.context.host.disposed) return 'stop';
      if ((await this.#sendChunk(api, groupId, [record], timeoutMs)) === 'stop') return 'stop';
    }
    return 'continue';
  }

  #accepted(groupId: string, messages: number, sentAt: number): void {
    const { state, tracker, clock, telemetry } = this.context;
    const now = clock.now();
    state.counters.sent += messages;
    state.sendFailures = 0;
    state.lastSendAccepted = true;
    state.lastPassSent = true;
    tracker.sentTo(groupId, now);
    telemetry.emit({ type: 'sent', messages, groupCount: 1, latencyMs: now - sentAt });
  }

  #failed(failure: DeliveryFailure): void {
    const { state, clock, telemetry, logger, options } = this.context;
    state.sendFailures++;
    state.counters.retried++;
    state.recordError(failure, clock.now());
    const delay = retryDelay(state.sendFailures, options, failure.retryAfterMs);
    state.backoffUntil = clock.now() + delay;
    telemetry.emit({ type: 'retried', attempt: state.sendFailures, errorClass: failure.errorClass });
    logger.warn('ingestion: sending failed, will retry', {
      errorClass: failure.errorClass,
      reason: failure.reason,
      attempt: state.sendFailures,
      delayMs: delay,
    });
  }
}
