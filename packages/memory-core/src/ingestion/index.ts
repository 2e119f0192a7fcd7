/**
 * Ingestion: `IngestionService.enqueue(turn)` stages a turn in O(1); a background step plans it
 * (TurnPlanner), de-duplicates it through the `DeliveryLedger` and appends it to the `Outbox`. The
 * drain loop sends pending messages in batches per group, retries with backoff, dead-letters what
 * the server refuses for good, and confirms delivery by finding message names in `/episodes`,
 * re-sending what never appeared. `InMemoryOutbox` and `InMemoryDeliveryLedger` are the in-process
 * implementations of the ports.
 */
export { DEFAULT_LEDGER_CAPACITY, deliveryKey, InMemoryDeliveryLedger } from './in-memory-delivery-ledger.js';
export { InMemoryOutbox, type OutboxLimits } from './in-memory-outbox.js';
export {
  DEFAULT_INGESTION_OPTIONS,
  IngestionOptions,
  resolveIngestionOptions,
} from './ingestion-options.js';
export { IngestionService } from './ingestion-service.js';
export {
  emptyCounters,
  type ConfirmationResult,
  type IngestionCounters,
  type IngestionState,
  type IngestionStats,
} from './ingestion-stats.js';
