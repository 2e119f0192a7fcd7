// Ingestion storage that lives in the process: an InMemoryOutbox and an InMemoryDeliveryLedger,
// created on open (tests, one-shot tools, the fallback when durable storage cannot be opened).
import { inject, injectable } from 'inversify';
import { Clock, type DeliveryLedger, type IngestionStorage, type IngestionStore, type Outbox } from '../ports.js';
import { MemoryConfiguration } from '../settings/index.js';
import { InMemoryDeliveryLedger } from './in-memory-delivery-ledger.js';
import { InMemoryOutbox, type OutboxLimits } from './in-memory-outbox.js';

@injectable()
export class InMemoryIngestionStorage implements IngestionStorage {
  #store: IngestionStore | undefined;

  constructor(
    @inject(MemoryConfiguration) private readonly limits: OutboxLimits,
    @inject(Clock) private readonly clock: Pick<Clock, 'now'>,
  ) {}

  async open(): Promise<IngestionStore> {
    this.#store ??= { outbox: new InMemoryOutbox(this.limits, this.clock), ledger: new InMemoryDeliveryLedger() };
    return this.#store;
  }

  current(): IngestionStore | undefined {
    return this.#store;
  }

  async close(): Promise<void> {
    await this.#store?.outbox.close();
  }
}

/** Storage a host opened itself (a hook run's outbox, tests): `open` gives it, `close` closes the outbox. */
export function openedIngestionStorage(outbox: Outbox, ledger: DeliveryLedger): IngestionStorage {
  const store: IngestionStore = { outbox, ledger };
  return { open: async () => store, current: () => store, close: () => outbox.close() };
}
