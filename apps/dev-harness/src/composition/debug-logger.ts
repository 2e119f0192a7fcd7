// memory-core's log lines, on stderr only when GRAPHITI_HARNESS_DEBUG=1. memory-core logs outcomes,
// counts and error classes, never content; this logger adds nothing but the level.
import type { LogFields, Logger } from '@graphiti-memory/memory-core';
import type { TerminalStream } from '../terminal/terminal.js';

export const DEBUG_ENVIRONMENT_VARIABLE = 'GRAPHITI_HARNESS_DEBUG';

export class StderrLogger implements Logger {
  constructor(private readonly stream: TerminalStream) {}

  debug(message: string, fields?: LogFields): void {
    this.write('debug', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.write('info', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.write('warn', message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.write('error', message, fields);
  }

  private write(level: string, message: string, fields: LogFields | undefined): void {
    const parts = Object.entries(fields ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${String(value)}`);
    this.stream.write(`[${level}] ${message}${parts.length > 0 ? ` ${parts.join(' ')}` : ''}\n`);
  }
}

/** Logs nothing. */
export class SilentLogger implements Logger {
  debug(): void {}
  info(): void {}
  warn(): void {}
  error(): void {}
}

export function harnessLogger(env: Readonly<Record<string, string | undefined>>, stream: TerminalStream): Logger {
  return env[DEBUG_ENVIRONMENT_VARIABLE] === '1' ? new StderrLogger(stream) : new SilentLogger();
}
