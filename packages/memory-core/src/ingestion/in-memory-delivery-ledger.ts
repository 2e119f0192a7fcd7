import { injectable } from 'inversify';
import type { DeliveryLedger } from '../ports.js';

/** The ledger key of one message for one group: what "already sent" means. */
export function deliveryKey(groupId: string, messageName: string): string {
  return `${groupId}:${messageName}`;
}

/** Enough for months of chat in one process; beyond it the oldest keys are forgotten first. */
export const DEFAULT_LEDGER_CAPACITY = 100_000;

/**
 * The delivery ledger of one process. Bounded: a Set keeps insertion order, so the oldest key
 * is the first one and is evicted first — a turn that old is not re-read in practice.
 */
@injectable()
export class InMemoryDeliveryLedger implements DeliveryLedger {
  private readonly known = new Set<string>();
  private capacity = DEFAULT_LEDGER_CAPACITY;

  /** A ledger that remembers at most `capacity` keys (the injected one uses the default). */
  static withCapacity(capacity: number): InMemoryDeliveryLedger {
    const ledger = new InMemoryDeliveryLedger();
    ledger.capacity = Math.max(1, Math.floor(capacity));
    return ledger;
  }

  has(key: string): boolean {
    return this.known.has(key);
  }

  add(key: string): void {
    if (this.known.has(key)) return;
    this.known.add(key);
    if (this.known.size > this.capacity) {
      const oldest = this.known.values().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
  }

  async keys(): Promise<readonly string[]> {
    return [...this.known];
  }

  get size(): number {
    return this.known.size;
  }
}
