// memory-core's Logger over the "Graphiti Memory" LogOutputChannel. Callers pass outcomes, counts
// and timings only; field values are printed as they are, so content must never be passed in.
import type * as vscode from 'vscode';
import type { LogFields, Logger } from '@graphiti-memory/memory-core';

export class LogChannelLogger implements Logger {
  constructor(private readonly channel: vscode.LogOutputChannel) {}
  debug(message: string, fields?: LogFields): void {
    this.channel.debug(format(message, fields));
  }
  info(message: string, fields?: LogFields): void {
    this.channel.info(format(message, fields));
  }
  warn(message: string, fields?: LogFields): void {
    this.channel.warn(format(message, fields));
  }
  error(message: string, fields?: LogFields): void {
    this.channel.error(format(message, fields));
  }
}

function format(message: string, fields: LogFields | undefined): string {
  if (fields === undefined) return message;
  const parts = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${String(value)}`);
  return parts.length === 0 ? message : `${message} ${parts.join(' ')}`;
}
