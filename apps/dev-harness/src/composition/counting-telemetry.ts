// memory-core's content-free events, counted per type and passed on to listeners (progress bars).
import type { MemoryEvent, TelemetrySink } from '@graphiti-memory/memory-core';

export class CountingTelemetry implements TelemetrySink {
  private readonly counts = new Map<MemoryEvent['type'], number>();
  private readonly listeners = new Set<(event: MemoryEvent) => void>();

  emit(event: MemoryEvent): void {
    this.counts.set(event.type, (this.counts.get(event.type) ?? 0) + eventWeight(event));
    for (const listener of [...this.listeners]) listener(event);
  }

  /** Messages (or turns, findings, recalls) of events of `type` so far. */
  count(type: MemoryEvent['type']): number {
    return this.counts.get(type) ?? 0;
  }

  onEvent(listener: (event: MemoryEvent) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}

function eventWeight(event: MemoryEvent): number {
  switch (event.type) {
    case 'enqueued':
      return event.turns;
    case 'sent':
    case 'dropped':
    case 'dead-lettered':
    case 'confirmed':
    case 'resent':
      return event.messages;
    case 'redacted':
      return event.findings;
    default:
      return 1;
  }
}
