// One HTTP attempt: send, read the whole body, map the outcome to a value or a GraphitiError.
// The attempt is bounded by `timeoutMs` from the first byte sent to the last byte read, by our own
// timer (combined with the caller's signal) and by undici's header/body timeouts set to match, so
// a server that stalls mid-body cannot hold a call past its deadline.
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import {
  GraphitiAbortError,
  GraphitiConnectionError,
  GraphitiResponseTooLargeError,
  GraphitiTimeoutError,
  type GraphitiError,
  type RequestDescription,
} from '../errors.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../options.js';
import { parseResponse } from '../validation.js';
import { errorCode } from './error-code.js';
import { exchange, responseTooLargeIn, type ExchangeResponse } from './exchange.js';
import { apiErrorFromResponse } from './http-errors.js';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface HttpCall<Schema extends z.ZodType> {
  readonly method: HttpMethod;
  /** Path with its segments already percent-encoded, e.g. `/episode/abc`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  /** Sent as JSON when present. */
  readonly body?: unknown;
  readonly responseSchema: Schema;
}

export interface TransportSettings {
  /** `http://host:port` of the base URL. */
  readonly origin: string;
  /** Path prefix of the base URL without a trailing slash; usually empty. */
  readonly basePath: string;
  /** Headers of a request without a body. */
  readonly headers: Readonly<Record<string, string>>;
  /** Headers of a request with a JSON body (built once, not per request). */
  readonly jsonHeaders: Readonly<Record<string, string>>;
  readonly dispatcher: Dispatcher;
}

export interface AttemptSettings {
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number;
  /** Largest answer read; default DEFAULT_MAX_RESPONSE_BYTES. */
  readonly maxResponseBytes?: number;
}

const UNDICI_TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function transportError(
  error: unknown,
  request: RequestDescription,
  settings: AttemptSettings,
  timedOut: boolean,
): GraphitiError {
  // Which signal fired decides, not the error's type: an aborted exchange rejects with the
  // signal's reason, whatever the caller made that.
  if (settings.signal?.aborted) {
    return new GraphitiAbortError(`${request.method} ${request.path} was aborted by the caller.`, request, {
      cause: error,
    });
  }
  const tooLarge = responseTooLargeIn(error);
  if (tooLarge !== undefined) return responseTooLargeError(request, tooLarge.limitBytes, error);
  const code = errorCode(error);
  if (timedOut || (code !== undefined && UNDICI_TIMEOUT_CODES.has(code))) {
    return new GraphitiTimeoutError(
      `${request.method} ${request.path} got no complete answer within ${settings.timeoutMs} ms. The server may be overloaded or hung; raise timeoutMs or check the server.`,
      { ...request, timeoutMs: settings.timeoutMs },
      { cause: error },
    );
  }
  const reason = code ?? (error instanceof Error ? error.message : String(error));
  return new GraphitiConnectionError(
    `${request.method} ${request.path} could not reach Graphiti (${reason}). Check that the server runs at baseUrl and is reachable (proxy, firewall).`,
    request,
    { cause: error, ...(code === undefined ? {} : { code }) },
  );
}

export function responseTooLargeError(request: RequestDescription, limitBytes: number, cause: unknown): GraphitiResponseTooLargeError {
  return new GraphitiResponseTooLargeError(
    `${request.method} ${request.path} answered more than ${limitBytes} bytes; reading stopped there. The server is not behaving as Graphiti does (or returned far too much): check the endpoint, ask for less (fewer facts, a smaller last_n), or raise maxResponseBytes.`,
    { ...request, limitBytes },
    { cause },
  );
}

/** Sends one attempt and returns the validated body, or throws a GraphitiError. */
export async function sendOnce<Schema extends z.ZodType>(
  transport: TransportSettings,
  call: HttpCall<Schema>,
  settings: AttemptSettings,
): Promise<z.output<Schema>> {
  const description: RequestDescription = { method: call.method, path: call.path };
  if (settings.signal?.aborted) {
    throw new GraphitiAbortError(`${call.method} ${call.path} was aborted by the caller before it was sent.`, description);
  }

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), settings.timeoutMs);
  const signal = settings.signal === undefined ? timeout.signal : AbortSignal.any([settings.signal, timeout.signal]);
  const query = call.query === undefined ? '' : `?${new URLSearchParams(call.query).toString()}`;
  const hasBody = call.body !== undefined;

  let response: ExchangeResponse;
  try {
    response = await exchange(
      transport.dispatcher,
      {
        origin: transport.origin,
        path: `${transport.basePath}${call.path}${query}`,
        method: call.method,
        headers: hasBody ? transport.jsonHeaders : transport.headers,
        body: hasBody ? JSON.stringify(call.body) : null,
        timeoutMs: settings.timeoutMs,
        maxBodyBytes: settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      },
      signal,
    );
  } catch (error) {
    throw transportError(error, description, settings, timeout.signal.aborted);
  } finally {
    clearTimeout(timer);
  }

  const { status, headers, rawBody } = response;
  if (status < 200 || status >= 300) {
    throw apiErrorFromResponse(description, status, flattenHeaders(headers), rawBody);
  }
  return parseResponse(call.responseSchema, rawBody, { ...description, status });
}
