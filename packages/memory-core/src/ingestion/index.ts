/**
 * Ingestion: `Ingestion.enqueue(turn)` (bound to `IngestionService`) stages a turn in O(1); a
 * background step plans it (TurnPlanner), opens the `IngestionStorage` on first need,
 * de-duplicates it through the `DeliveryLedger` and appends it to the `Outbox`. The
 * drain loop sends pending messages in batches per group, retries with backoff, dead-letters what
 * the server refuses for good, and confirms delivery by finding message names in `/episodes`,
 * re-sending what never appeared. `InMemoryIngestionStorage` (an `InMemoryOutbox` and an
 * `InMemoryDeliveryLedger`) is the in-process implementation of the storage port.
 */
export { DEFAULT_LEDGER_CAPACITY, deliveryKey, InMemoryDeliveryLedger } from './in-memory-delivery-ledger.js';
export { InMemoryIngestionStorage, openedIngestionStorage } from './in-memory-ingestion-storage.js';
export { InMemoryOutbox, type OutboxLimits } from './in-memory-outbox.js';
export {
  DEFAULT_INGESTION_OPTIONS,
  IngestionOptions,
  resolveIngestionOptions,
} from './ingestion-options.js';
export { IngestionService } from './ingestion-service.js';
export { Ingestion } from './ingestion.js';
export {
  emptyCounters,
  type ConfirmationResult,
  type IngestionCounters,
  type IngestionState,
  type IngestionStats,
} from './ingestion-stats.js';
