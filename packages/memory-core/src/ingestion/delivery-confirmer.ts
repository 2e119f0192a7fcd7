// Confirming: sent records are looked for by name in their group's `/episodes`; found ones leave
// the outbox, and ones the tracker deems lost are sent again — or, after Graphiti accepted them
// `maxAttempts` times and never stored them, become dead letters. A send that met an outage (a
// timeout, a connection lost mid-request) is not counted.
import type { Episode } from '@graphiti-memory/graphiti-client';
import type { GraphitiApi, OutboxRecord } from '../ports.js';
import type { EpisodeSource } from '../sources/episode-sources.js';
import type { DeliveryContext } from './delivery-context.js';
import { classifyFailure } from './delivery-failure.js';
import { groupByGroupId } from './delivery-state.js';
import { MAX_EPISODES_PER_POLL, oldestOf } from './message-sender.js';
import { isDigestMessageName } from '../digest/digest-format.js';

/** Smallest `last_n` per poll: other writers to the same group may have added episodes meanwhile. */
const MIN_EPISODES_PER_POLL = 50;

export class DeliveryConfirmer {
  constructor(
    private readonly context: DeliveryContext,
    /** When the service started: records sent earlier were recovered from a previous run. */
    private readonly createdAt: number,
  ) {}

  async confirmInFlight(api: GraphitiApi): Promise<void> {
    const { bounds, outbox, state, tracker, configuration, host, clock } = this.context;
    const inFlight = bounds.expire(await outbox.inFlight());
    state.oldestInFlightAt = oldestOf(inFlight);
    const byGroup = groupByGroupId(inFlight);
    state.inFlightCount = inFlight.length;
    state.inFlightByGroup = new Map([...byGroup].map(([groupId, records]) => [groupId, records.length]));
    tracker.retainGroups(new Set(byGroup.keys()));
    if (inFlight.length === 0) {
      state.pollFailures = 0;
      return;
    }
    const timeoutMs = configuration.current().timeoutMs;
    for (const [groupId, records] of byGroup) {
      if (host.disposed) return;
      if (!tracker.isPollDue(groupId, clock.now())) continue;
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
    const { clock, options } = this.context;
    const now = clock.now();
    const patience = options.maxPollIntervalMs * 2;
    const mayBeBuried = records.some(
      (record) => record.attempts > 1 || record.sentAt === undefined || record.sentAt < this.createdAt || now - record.sentAt > patience,
    );
    if (mayBeBuried) return MAX_EPISODES_PER_POLL;
    return Math.min(Math.max(2 * records.length, MIN_EPISODES_PER_POLL), MAX_EPISODES_PER_POLL);
  }

  async #pollGroup(api: GraphitiApi, groupId: string, records: readonly OutboxRecord[], timeoutMs: number): Promise<void> {
    const { state, tracker, clock, logger, host } = this.context;
    const lastN = this.#episodesWindow(records);
    let byName: Map<string, Episode>;
    try {
      const episodes = await api.getEpisodes(groupId, { lastN }, { timeoutMs, maxRetries: 0, signal: host.signal });
      byName = new Map(episodes.map((episode) => [episode.name, episode]));
      state.pollFailures = 0;
    } catch (error) {
      if (host.disposed) return;
      const failure = classifyFailure(error);
      state.pollFailures++;
      state.recordError(failure, clock.now());
      tracker.polled(groupId, clock.now(), false);
      logger.warn('ingestion: looking for sent messages failed', {
        errorClass: failure.errorClass,
        reason: failure.reason,
      });
      return;
    }
    const now = clock.now();
    const found = records.filter((record) => record.message.name !== undefined && byName.has(record.message.name));
    if (found.length > 0) {
      this.#confirm(groupId, found, now);
      this.#recordSources(found, byName);
    }
    const foundIds = new Set(found.map((record) => record.id));
    const due = records.filter((record) => !foundIds.has(record.id) && tracker.resendDue(record, now));
    if (due.length > 0) this.#resend(groupId, due, now);
    tracker.polled(groupId, now, found.length > 0);
  }

  #confirm(groupId: string, records: readonly OutboxRecord[], now: number): void {
    const { outbox, state, tracker, telemetry } = this.context;
    outbox.markConfirmed(records.map((record) => record.id));
    for (const record of records) state.outageSends.delete(record.id);
    state.changeInFlight(groupId, -records.length);
    state.counters.confirmed += records.length;
    tracker.confirmed(records, now);
    state.lastConfirmedAt = now;
    state.stalled = false;
    const totalLatency = records.reduce((sum, record) => sum + (now - (record.sentAt ?? record.enqueuedAt)), 0);
    telemetry.emit({
      type: 'confirmed',
      messages: records.length,
      latencyMs: Math.round(totalLatency / records.length),
    });
  }

  /** The episodes found, under their uuids, with the source their records carried (for citations). */
  #recordSources(records: readonly OutboxRecord[], byName: ReadonlyMap<string, Episode>): void {
    const { episodeSources } = this.context;
    if (episodeSources === undefined) return;
    const sources: EpisodeSource[] = [];
    const digestNames: string[] = [];
    for (const record of records) {
      const episode = record.message.name === undefined ? undefined : byName.get(record.message.name);
      if (episode === undefined || record.source === undefined) continue;
      // The time the message was sent with (REST's `valid_at`); MCP's episodes carry only the time they were processed.
      const at = record.message.timestamp ?? (episode.valid_at || episode.created_at);
      sources.push({ ...record.source, episode: episode.uuid, groupId: record.groupId, at });
      digestNames.push(record.message.name ?? '');
    }
    if (sources.length > 0) episodeSources.record(sources);
    // Session digests feed the tier's "where we left off" bridge (in the background: confirming never waits for it).
    const digests = sources.filter((_, index) => isDigestMessageName(digestNames[index] ?? ''));
    if (digests.length > 0) void this.context.tier?.recordDigests(digests);
  }

  #resend(groupId: string, due: readonly OutboxRecord[], now: number): void {
    const { outbox, state, tracker, bounds, telemetry, logger } = this.context;
    const { maxAttempts } = bounds.limits();
    const outage = (record: OutboxRecord): boolean => state.outageSends.has(record.id);
    const counted = (record: OutboxRecord): number => record.attempts - (outage(record) ? 1 : 0);
    const exhausted = due.filter((record) => counted(record) >= maxAttempts);
    if (exhausted.length > 0) {
      state.changeInFlight(groupId, -exhausted.length);
      for (const record of exhausted) state.outageSends.delete(record.id);
      bounds.deadLetter(exhausted, { disposition: 'dead-letter', errorClass: 'Unconfirmed', reason: `accepted ${maxAttempts} times, never stored` });
    }
    const records = due.filter((record) => counted(record) < maxAttempts);
    if (records.length === 0) return;
    const noProgress = tracker.noProgress(now);
    const afterOutage = records.filter(outage).map((record) => record.id);
    const afterAcceptance = records.filter((record) => !outage(record)).map((record) => record.id);
    if (afterOutage.length > 0) outbox.markPending(afterOutage, { outage: true });
    if (afterAcceptance.length > 0) outbox.markPending(afterAcceptance);
    for (const id of afterOutage) state.outageSends.delete(id);
    state.changeInFlight(groupId, -records.length);
    state.counters.resent += records.length;
    // 202s and still nothing for a whole window: upstream's silent worker death, or a restart.
    if (noProgress && state.lastSendAccepted) state.stalled = true;
    telemetry.emit({ type: 'resent', messages: records.length });
    logger.warn('ingestion: sent messages never appeared; sending them again', {
      messages: records.length,
      serverShowsProgress: !noProgress,
    });
  }
}
