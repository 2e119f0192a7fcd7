// What staging, sending and confirming share: the counters, in-flight bookkeeping, the backoff and
// the last error. One object, owned by the IngestionService, handed to each part.
import type { OutboxRecord } from '../ports.js';
import type { DeliveryFailure } from './delivery-failure.js';
import { emptyCounters } from './ingestion-stats.js';

export class DeliveryState {
  readonly counters = emptyCounters();
  inFlightByGroup = new Map<string, number>();
  inFlightCount = 0;
  /** Messages in a POST that has not answered yet (marked in flight before the request). */
  sendingCount = 0;
  backoffUntil = 0;
  sendFailures = 0;
  pollFailures = 0;
  lastSendAccepted = false;
  /** 202s and nothing stored for a whole resend window: the server's worker may be dead. */
  stalled = false;
  lastPassSent = false;
  lastErrorClass: string | undefined;
  lastErrorAt: number | undefined;
  lastConfirmedAt: number | undefined;
  blockedReason: string | undefined;
  /**
   * Records whose last send met an outage with an unknown outcome (a timeout, a connection lost
   * mid-request): left in flight for confirmation; a resend does not count that send as an attempt.
   * In memory only: after a restart such a send counts once, which is harmless.
   */
  readonly outageSends = new Set<string>();
  /** Queue times of the oldest pending and oldest in-flight record seen by the last pass (for `oldestQueuedAt`). */
  oldestPendingAt: number | undefined;
  oldestInFlightAt: number | undefined;

  changeInFlight(groupId: string, delta: number): void {
    this.inFlightCount = Math.max(0, this.inFlightCount + delta);
    this.inFlightByGroup.set(groupId, Math.max(0, (this.inFlightByGroup.get(groupId) ?? 0) + delta));
  }

  recordError(failure: DeliveryFailure, now: number): void {
    this.lastErrorClass = failure.errorClass;
    this.lastErrorAt = now;
  }
}

export function groupByGroupId(records: readonly OutboxRecord[]): Map<string, OutboxRecord[]> {
  const groups = new Map<string, OutboxRecord[]>();
  for (const record of records) {
    const group = groups.get(record.groupId);
    if (group) group.push(record);
    else groups.set(record.groupId, [record]);
  }
  return groups;
}
