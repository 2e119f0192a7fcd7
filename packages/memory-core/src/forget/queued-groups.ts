// What is still queued for forgotten groups leaves the outbox as `forgotten`. Their delivery keys
// stay in the ledger, so capture, track and hooks treat those turns as delivered and never re-send them.
import { inject, injectable } from 'inversify';
import { Outbox } from '../ports.js';

export interface QueuedGroups {
  /** Drops every queued (pending or in-flight) message of `groupIds`; returns how many. */
  dequeue(groupIds: readonly string[]): Promise<number>;
}
export const QueuedGroups = Symbol.for('graphiti-memory.QueuedGroups');

/** `QueuedGroups` through the `Outbox` port alone. */
@injectable()
export class OutboxQueuedGroups implements QueuedGroups {
  constructor(@inject(Outbox) private readonly outbox: Outbox) {}

  async dequeue(groupIds: readonly string[]): Promise<number> {
    const forgotten = new Set(groupIds);
    if (forgotten.size === 0) return 0;
    const [pending, inFlight] = await Promise.all([this.outbox.pending(Math.max(1, this.outbox.size())), this.outbox.inFlight()]);
    const ids = [...pending, ...inFlight].filter((record) => forgotten.has(record.groupId)).map((record) => record.id);
    const unique = [...new Set(ids)];
    if (unique.length > 0) this.outbox.markDropped(unique, 'forgotten');
    await this.outbox.flush();
    return unique.length;
  }
}
