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
): PendingRequest {
  const url = new URL(rawUrl, 'http://emulator.invalid');
  return {
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    body: bodyForLog(bodyText),
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

export class RequestLog {
  readonly entries: RecordedRequest[] = [];

  record(request: PendingRequest, status: number, fault: InjectedFault | null): void {
    this.entries.push({ ...request, status, fault });
  }

  clear(): void {
    this.entries.length = 0;
  }
}
