// memory-core's telemetry, logged, with recall outcomes also counted as health for the status bar
// (a hanging server shows as failing at its first recall timeout). Recall's rules stay in
// memory-core's RecallService; this only listens to what it reports.
import type { MemoryEvent, TelemetrySink } from '@graphiti-memory/memory-core';
import type { MemoryStatus } from './memory-status.js';

export class RecallHealthTelemetry implements TelemetrySink {
  constructor(
    private readonly next: TelemetrySink,
    /** Read when the first recall is reported, so the status is not built before it is needed. */
    private readonly status: () => Pick<MemoryStatus, 'recordRecall'>,
  ) {}

  emit(event: MemoryEvent): void {
    this.next.emit(event);
    if (event.type === 'recall') this.status().recordRecall(event.outcome);
  }
}
