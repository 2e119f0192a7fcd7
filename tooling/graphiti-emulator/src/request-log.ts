// The request log tests assert on. Header values are never kept: they may carry API keys.
import type { IncomingHttpHeaders } from 'node:http';
import type { InjectedFault, RecordedRequest, RouteName } from './types.js';

export interface PendingRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body: unknown;
  readonly headerNames: readonly string[];
  readonly at: string;
  readonly route: RouteName | null;
}

export function describeRequest(
  method: string,
  rawUrl: string,
  headers: IncomingHttpHeaders,
  bodyText: string,
  route: RouteName | null,
  /** The body already parsed as JSON by the caller, so it is not parsed twice. */
  parsed?: { readonly json: unknown },
): PendingRequest {
  const url = new URL(rawUrl, 'http://emulator.invalid');
  return {
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    body: parsed === undefined ? bodyForLog(bodyText) : parsed.json,
    headerNames: Object.keys(headers)
      .map((name) => name.toLowerCase())
      .sort(),
    at: new Date().toISOString(),
    route,
  };
}

function bodyForLog(bodyText: string): unknown {
  if (bodyText === '') return null;
  try {
    return JSON.parse(bodyText) as unknown;
  } catch {
    return bodyText;
  }
}

/** How many requests the log keeps: far more than a test reads, few enough that a bench or a long demo does not grow the heap without end. */
export const REQUEST_LOG_LIMIT = 10_000;

export class RequestLog {
  readonly entries: RecordedRequest[] = [];

  constructor(private readonly limit = REQUEST_LOG_LIMIT) {}

  record(request: PendingRequest, status: number, fault: InjectedFault | null): void {
    this.entries.push({ ...request, status, fault });
    // Trimmed a tenth at a time, in place (the array is a live view), so a trim is rare.
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit + Math.ceil(this.limit / 10));
  }

  clear(): void {
    this.entries.length = 0;
  }
}
