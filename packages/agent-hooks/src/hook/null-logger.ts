// memory-core's logger for hooks: hooks print nothing, and their outcomes go to the run log.
import type { Logger } from '@graphiti-memory/memory-core';

export class NullLogger implements Logger {
  debug(): void {}
  info(): void {}
  warn(): void {}
  error(): void {}
}
