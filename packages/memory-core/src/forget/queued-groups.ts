// What is still queued for forgotten groups leaves the outbox. Their delivery keys stay in the
// ledger as forgotten, so capture, track and hooks treat those turns as known and never re-send them.
import { inject, injectable } from 'inversify';
import { Ingestion } from '../ingestion/ingestion.js';

export interface QueuedGroups {
  /** Removes every queued message of `groupIds` (staged, pending, in flight, dead); returns how many. */
  dequeue(groupIds: readonly string[]): Promise<number>;
}
export const QueuedGroups = Symbol.for('graphiti-memory.QueuedGroups');

/** `QueuedGroups` through ingestion: turns still being planned are admitted first, then removed with the rest. */
@injectable()
export class IngestionQueuedGroups implements QueuedGroups {
  constructor(@inject(Ingestion) private readonly ingestion: Ingestion) {}

  dequeue(groupIds: readonly string[]): Promise<number> {
    return this.ingestion.forgetGroups(groupIds);
  }
}
