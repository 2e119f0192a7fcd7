// Telemetry stays on the machine: content-free events go to the log at debug level only.
import type { Logger, MemoryEvent, TelemetrySink } from '@graphiti-memory/memory-core';

export class LogTelemetry implements TelemetrySink {
  constructor(private readonly logger: Logger) {}
  emit(event: MemoryEvent): void {
    const { type, ...fields } = event;
    this.logger.debug(`event ${type}`, fields);
  }
}
