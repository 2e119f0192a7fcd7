export * from './delivery-failure.js';
export * from './in-memory-delivery-ledger.js';
export * from './in-memory-outbox.js';
export * from './ingestion-options.js';
export * from './ingestion-service.js';
export * from './ingestion-stats.js';
