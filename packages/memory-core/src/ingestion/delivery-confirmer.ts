// Confirming: sent records are looked for by name in their group's `/episodes`; found ones leave
// the outbox, and ones the tracker deems lost are sent again — or, after `maxAttempts` sends,
// become dead letters.
import type { Clock, GraphitiApi, Logger, Outbox, OutboxRecord, TelemetrySink } from '../ports.js';
import type { MemoryConfiguration } from '../settings/index.js';
import { classifyFailure } from './delivery-failure.js';
import type { DeliveryBounds } from './delivery-bounds.js';
import { groupByGroupId, type DeliveryState } from './delivery-state.js';
import type { DeliveryTracker } from './delivery-tracker.js';
import type { IngestionOptions } from './ingestion-options.js';
import { MAX_EPISODES_PER_POLL, type SenderHost } from './message-sender.js';

/** Smallest `last_n` per poll: other writers to the same group may have added episodes meanwhile. */
const MIN_EPISODES_PER_POLL = 50;

export class DeliveryConfirmer {
  constructor(
    private readonly outbox: Outbox,
    private readonly state: DeliveryState,
    private readonly tracker: DeliveryTracker,
    private readonly bounds: DeliveryBounds,
    private readonly configuration: MemoryConfiguration,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly logger: Logger,
    private readonly telemetry: TelemetrySink,
    private readonly options: Pick<IngestionOptions, 'maxPollIntervalMs'>,
    /** When the service started: records sent earlier were recovered from a previous run. */
    private readonly createdAt: number,
    private readonly host: Pick<SenderHost, 'disposed' | 'signal'>,
  ) {}

  async confirmInFlight(api: GraphitiApi): Promise<void> {
    const inFlight = this.bounds.expire(await this.outbox.inFlight());
    const byGroup = groupByGroupId(inFlight);
    this.state.inFlightCount = inFlight.length;
    this.state.inFlightByGroup = new Map([...byGroup].map(([groupId, records]) => [groupId, records.length]));
    this.tracker.retainGroups(new Set(byGroup.keys()));
    if (inFlight.length === 0) {
      this.state.pollFailures = 0;
      return;
    }
    const timeoutMs = this.configuration.current().timeoutMs;
    for (const [groupId, records] of byGroup) {
      if (this.host.disposed) return;
      if (!this.tracker.isPollDue(groupId, this.clock.now())) continue;
      await this.#pollGroup(api, groupId, records, timeoutMs);
    }
  }

  /**
   * How many of the group's newest episodes one poll reads. Fresh sends are near the top, so a small
   * window finds them; a record sent before this service started (recovered after a crash), sent
   * more than once, or waiting longer than a few polls may have been pushed down by later episodes
   * (of this or another process), so those are looked for in the widest window.
   */
  #episodesWindow(records: readonly OutboxRecord[]): number {
    const now = this.clock.now();
    const patience = this.options.maxPollIntervalMs * 2;
    const mayBeBuried = records.some(
      (record) => record.attempts > 1 || record.sentAt === undefined || record.sentAt < this.createdAt || now - record.sentAt > patience,
    );
    if (mayBeBuried) return MAX_EPISODES_PER_POLL;
    return Math.min(Math.max(2 * records.length, MIN_EPISODES_PER_POLL), MAX_EPISODES_PER_POLL);
  }

  async #pollGroup(api: GraphitiApi, groupId: string, records: readonly OutboxRecord[], timeoutMs: number): Promise<void> {
    const lastN = this.#episodesWindow(records);
    let names: Set<string>;
    try {
      const episodes = await api.getEpisodes(groupId, { lastN }, { timeoutMs, maxRetries: 0, signal: this.host.signal });
      names = new Set(episodes.map((episode) => episode.name));
      this.state.pollFailures = 0;
    } catch (error) {
      if (this.host.disposed) return;
      const failure = classifyFailure(error);
      this.state.pollFailures++;
      this.state.recordError(failure, this.clock.now());
      this.tracker.polled(groupId, this.clock.now(), false);
      this.logger.warn('ingestion: looking for sent messages failed', {
        errorClass: failure.errorClass,
        reason: failure.reason,
      });
      return;
    }
    const now = this.clock.now();
    const found = records.filter((record) => record.message.name !== undefined && names.has(record.message.name));
    if (found.length > 0) this.#confirm(groupId, found, now);
    const foundIds = new Set(found.map((record) => record.id));
    const due = records.filter((record) => !foundIds.has(record.id) && this.tracker.resendDue(record, now));
    if (due.length > 0) this.#resend(groupId, due, now);
    this.tracker.polled(groupId, now, found.length > 0);
  }

  #confirm(groupId: string, records: readonly OutboxRecord[], now: number): void {
    this.outbox.markConfirmed(records.map((record) => record.id));
    this.state.changeInFlight(groupId, -records.length);
    this.state.counters.confirmed += records.length;
    this.tracker.confirmed(records, now);
    this.state.lastConfirmedAt = now;
    this.state.stalled = false;
    const totalLatency = records.reduce((sum, record) => sum + (now - (record.sentAt ?? record.enqueuedAt)), 0);
    this.telemetry.emit({
      type: 'confirmed',
      messages: records.length,
      latencyMs: Math.round(totalLatency / records.length),
    });
  }

  #resend(groupId: string, due: readonly OutboxRecord[], now: number): void {
    const { maxAttempts } = this.bounds.limits();
    const exhausted = due.filter((record) => record.attempts >= maxAttempts);
    if (exhausted.length > 0) {
      this.state.changeInFlight(groupId, -exhausted.length);
      this.bounds.deadLetter(exhausted, { disposition: 'dead-letter', errorClass: 'Unconfirmed', reason: `sent ${maxAttempts} times, never stored` });
    }
    const records = due.filter((record) => record.attempts < maxAttempts);
    if (records.length === 0) return;
    const noProgress = this.tracker.noProgress(now);
    this.outbox.markPending(records.map((record) => record.id));
    this.state.changeInFlight(groupId, -records.length);
    this.state.counters.resent += records.length;
    // 202s and still nothing for a whole window: upstream's silent worker death, or a restart.
    if (noProgress && this.state.lastSendAccepted) this.state.stalled = true;
    this.telemetry.emit({ type: 'resent', messages: records.length });
    this.logger.warn('ingestion: sent messages never appeared; sending them again', {
      messages: records.length,
      serverShowsProgress: !noProgress,
    });
  }
}
