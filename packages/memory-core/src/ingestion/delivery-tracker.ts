import type { OutboxRecord } from '../ports.js';
import type { IngestionOptions } from './ingestion-options.js';

interface PollSchedule {
  nextPollAt: number;
  delay: number;
}

/**
 * Decides when to look for sent messages in `/episodes` and when one that never appeared must
 * be sent again. Graphiti's worker is one FIFO queue for the whole server, so:
 * - a message that is not found yet is only late while the server shows progress;
 * - once a message sent *after* it has been found, it was lost (the worker died, the server
 *   restarted), provided the resend window has passed too.
 */
export class DeliveryTracker {
  private readonly polls = new Map<string, PollSchedule>();
  private observingSince: number;
  private lastProgressAt: number | undefined;
  /** The latest send time among confirmed messages: evidence that earlier sends were processed. */
  private lastConfirmedSentAt: number | undefined;

  constructor(
    private readonly options: Pick<
      IngestionOptions,
      'resendAfterMs' | 'pollIntervalMs' | 'maxPollIntervalMs' | 'maxResendBackoffFactor'
    >,
    now: number,
  ) {
    this.observingSince = now;
  }

  /** Start of observation: the resend window of recovered messages counts from here. */
  restartObservation(now: number): void {
    this.observingSince = now;
  }

  /** A send to the group was accepted: look soon, without postponing a poll already due. */
  sentTo(groupId: string, now: number): void {
    const current = this.polls.get(groupId);
    const nextPollAt = now + this.options.pollIntervalMs;
    this.polls.set(groupId, {
      delay: this.options.pollIntervalMs,
      nextPollAt: current === undefined ? nextPollAt : Math.min(current.nextPollAt, nextPollAt),
    });
  }

  isPollDue(groupId: string, now: number): boolean {
    const schedule = this.polls.get(groupId);
    return schedule === undefined || schedule.nextPollAt <= now;
  }

  /** After a poll: back to the first delay when something appeared, else back off (bounded). */
  polled(groupId: string, now: number, progressed: boolean): void {
    const current = this.polls.get(groupId);
    const delay =
      progressed || current === undefined
        ? this.options.pollIntervalMs
        : Math.min(current.delay * 2, this.options.maxPollIntervalMs);
    this.polls.set(groupId, { delay, nextPollAt: now + delay });
  }

  /** Forget groups with nothing in flight. */
  retainGroups(groupIds: ReadonlySet<string>): void {
    for (const groupId of [...this.polls.keys()]) if (!groupIds.has(groupId)) this.polls.delete(groupId);
  }

  confirmed(records: readonly OutboxRecord[], now: number): void {
    if (records.length === 0) return;
    this.lastProgressAt = now;
    for (const record of records) {
      const sentAt = record.sentAt ?? record.enqueuedAt;
      if (this.lastConfirmedSentAt === undefined || sentAt > this.lastConfirmedSentAt) {
        this.lastConfirmedSentAt = sentAt;
      }
    }
  }

  /** No message appeared for a whole resend window (counted from the start of observation). */
  noProgress(now: number): boolean {
    const reference = Math.max(this.lastProgressAt ?? Number.NEGATIVE_INFINITY, this.observingSince);
    return now - reference >= this.options.resendAfterMs;
  }

  /** Whether an unconfirmed record must be sent again now. */
  resendDue(record: OutboxRecord, now: number): boolean {
    const sentAt = record.sentAt ?? record.enqueuedAt;
    const factor = Math.min(2 ** Math.max(record.attempts - 1, 0), this.options.maxResendBackoffFactor);
    if (now - sentAt < this.options.resendAfterMs * factor) return false;
    const laterOneStored = this.lastConfirmedSentAt !== undefined && this.lastConfirmedSentAt > sentAt;
    return laterOneStored || this.noProgress(now);
  }

  /** Milliseconds until the next poll of any group, or undefined when none is scheduled. */
  nextPollIn(now: number): number | undefined {
    let earliest: number | undefined;
    for (const schedule of this.polls.values()) {
      if (earliest === undefined || schedule.nextPollAt < earliest) earliest = schedule.nextPollAt;
    }
    return earliest === undefined ? undefined : Math.max(0, earliest - now);
  }
}
