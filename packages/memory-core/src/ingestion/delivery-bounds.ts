// Bounded delivery: a message Graphiti refused as invalid (a 4xx), accepted `maxAttempts` times
// without ever storing it, or that stayed undelivered past `maxAgeHours` (the outbox's bound: an
// outage waits this long, 72 h by default) becomes a dead letter, kept by the outbox with its
// content-free last error. Outages (no connection, timeouts, 5xx) never count as attempts.
import type { Clock, Logger, Outbox, OutboxRecord, TelemetrySink } from '../ports.js';
import { DEFAULT_SETTINGS, type MemoryConfiguration } from '../settings/index.js';
import type { DeliveryFailure } from './delivery-failure.js';
import type { DeliveryState } from './delivery-state.js';

export interface DeliveryLimits {
  readonly maxAttempts: number;
  readonly maxAgeHours: number;
}

/** The bounds of delivery; a host that passes partial settings gets the defaults, never "no bound" by accident. */
export function deliveryLimits(settings: { readonly maxAttempts?: number; readonly maxAgeHours?: number }): DeliveryLimits {
  const positive = (value: number | undefined, fallback: number): number =>
    typeof value === 'number' && Number.isFinite(value) && value >= 1 ? value : fallback;
  return {
    maxAttempts: positive(settings.maxAttempts, DEFAULT_SETTINGS.maxAttempts),
    maxAgeHours: positive(settings.maxAgeHours, DEFAULT_SETTINGS.maxAgeHours),
  };
}

export class DeliveryBounds {
  constructor(
    private readonly outbox: Outbox,
    private readonly state: DeliveryState,
    private readonly configuration: MemoryConfiguration,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly logger: Logger,
    private readonly telemetry: TelemetrySink,
  ) {}

  limits(): DeliveryLimits {
    return deliveryLimits(this.configuration.current());
  }

  /** Dead-letters the records unconfirmed past `maxAgeHours`; returns the others. */
  expire(records: readonly OutboxRecord[]): readonly OutboxRecord[] {
    const hours = this.limits().maxAgeHours;
    const now = this.clock.now();
    const expired = records.filter((record) => now - record.enqueuedAt > hours * 3_600_000);
    if (expired.length === 0) return records;
    this.deadLetter(expired, { disposition: 'dead-letter', errorClass: 'Expired', reason: `unconfirmed after ${hours} h` });
    const gone = new Set(expired.map((record) => record.id));
    return records.filter((record) => !gone.has(record.id));
  }

  deadLetter(records: readonly OutboxRecord[], failure: DeliveryFailure): void {
    this.outbox.markDropped(
      records.map((record) => record.id),
      'dead-letter',
      failure.reason,
    );
    this.state.counters.deadLettered += records.length;
    this.state.recordError(failure, this.clock.now());
    this.telemetry.emit({
      type: 'dead-lettered',
      messages: records.length,
      errorClass: failure.errorClass,
      reason: failure.reason,
    });
    this.logger.error('ingestion: messages will not be sent again on their own (dead-lettered)', {
      messages: records.length,
      errorClass: failure.errorClass,
      reason: failure.reason,
    });
  }
}
