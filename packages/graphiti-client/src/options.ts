// Client and per-call options: their defaults and their validation. Everything here runs before
// any request, and a mistake becomes a GraphitiUsageError that says how to fix it.
import { z } from 'zod';
import type { Dispatcher } from 'undici';
import { GraphitiUsageError } from './errors.js';
import { describeIssues } from './validation.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RETRIES = 2;
/** Largest answer read (10 MiB): a bigger one is cut at this size and reported as GraphitiResponseTooLargeError. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_API_KEY_HEADER = 'authorization';
export const DEFAULT_USER_AGENT = `graphiti-memory-graphiti-client (node ${process.version})`;

export interface GraphitiClientOptions {
  /** Where the Graphiti service listens, e.g. `http://localhost:8000`. A path prefix is kept. */
  readonly baseUrl: string;
  /** Sent on every request when set. Upstream has no auth; a reverse proxy in front may need one. */
  readonly apiKey?: string | undefined;
  /**
   * Header that carries `apiKey`. The default, `authorization`, sends `Bearer <apiKey>`; any other
   * header name sends the key as it is (e.g. `x-api-key`).
   */
  readonly apiKeyHeader?: string | undefined;
  /** Bound of one attempt (connect, headers and body), in milliseconds. Default 10 000. */
  readonly timeoutMs?: number | undefined;
  /** Retries after the first attempt, for retryable failures only. Default 2; 0 disables. */
  readonly maxRetries?: number | undefined;
  /**
   * An undici dispatcher to send through (a `ProxyAgent`, a shared `Agent`). The client never
   * closes it. Without one the client creates its own keep-alive `Agent` and `close()` closes it.
   */
  readonly dispatcher?: Dispatcher | undefined;
  readonly userAgent?: string | undefined;
  /**
   * Largest answer body read, in bytes (default 10 MiB). A larger answer is cut there (never
   * buffered beyond it) and the call fails with GraphitiResponseTooLargeError.
   */
  readonly maxResponseBytes?: number | undefined;
}

/** The optional last argument of every method. */
export interface RequestOptions {
  /** Aborts the call, including a pending retry wait. An aborted call is never retried. */
  readonly signal?: AbortSignal | undefined;
  /** Overrides the client's `timeoutMs` for this call (each attempt). */
  readonly timeoutMs?: number | undefined;
  /** Overrides the client's `maxRetries` for this call. */
  readonly maxRetries?: number | undefined;
}

/** `addMessages`' options: a call's options plus extraction guidance. */
export interface AddMessagesOptions extends RequestOptions {
  /**
   * Natural-language guidance for the server's extraction (MCP `add_memory`'s
   * `custom_extraction_instructions`, main since 29a7565). Sent only where the server's `add_memory`
   * declares it; REST and released MCP images have no such field, so there it is dropped.
   */
  readonly extractionInstructions?: string | undefined;
}

export interface ResolvedClientOptions {
  /** Base URL without a trailing slash. */
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxResponseBytes: number;
  /** Lowercased names; values may hold the API key, so this object is never logged. */
  readonly headers: Readonly<Record<string, string>>;
}

const timeoutSchema = z
  .number()
  .int('timeoutMs must be a whole number of milliseconds')
  .positive('timeoutMs must be greater than 0')
  .max(2_147_483_647, 'timeoutMs must fit a timer (at most 2147483647 ms)');
const maxRetriesSchema = z
  .number()
  .int('maxRetries must be a whole number')
  .min(0, 'maxRetries must be 0 (no retry) or more')
  .max(20, 'maxRetries above 20 would retry for minutes; use at most 20');

// RFC 9110 token characters: what a header name may contain.
const headerNameSchema = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'apiKeyHeader must be a valid HTTP header name, e.g. "x-api-key"');

const clientOptionsSchema = z.object({
  baseUrl: z.string().refine(isHttpUrl, {
    message:
      'baseUrl must be an absolute http:// or https:// URL, e.g. "http://localhost:8000" (the Graphiti service root)',
  }),
  apiKey: z
    .string()
    .min(1, 'apiKey must not be empty: leave it out when the server needs no key')
    .regex(/^[^\r\n]*$/, 'apiKey must not contain line breaks')
    .optional(),
  apiKeyHeader: headerNameSchema.optional(),
  timeoutMs: timeoutSchema.optional(),
  maxRetries: maxRetriesSchema.optional(),
  maxResponseBytes: z
    .number()
    .int('maxResponseBytes must be a whole number of bytes')
    .min(1024, 'maxResponseBytes must be at least 1024 bytes')
    .max(2 ** 31 - 1, 'maxResponseBytes must be below 2 GiB')
    .optional(),
  userAgent: z
    .string()
    .min(1, 'userAgent must not be empty')
    .regex(/^[^\r\n]*$/, 'userAgent must not contain line breaks')
    .optional(),
});

const requestOptionsSchema = z.object({
  timeoutMs: timeoutSchema.optional(),
  maxRetries: maxRetriesSchema.optional(),
});

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}

/** Validates the constructor options and fixes the defaults. */
export function resolveClientOptions(options: GraphitiClientOptions): ResolvedClientOptions {
  const parsed = clientOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new GraphitiUsageError(
      `new GraphitiClient() was given invalid options: ${describeIssues(parsed.error.issues)}. Fix the options and create the client again.`,
      parsed.error.issues,
    );
  }
  const { baseUrl, apiKey, apiKeyHeader, timeoutMs, maxRetries, maxResponseBytes, userAgent } = parsed.data;
  const headers: Record<string, string> = {
    'user-agent': userAgent ?? DEFAULT_USER_AGENT,
    accept: 'application/json',
  };
  if (apiKey !== undefined) {
    const headerName = (apiKeyHeader ?? DEFAULT_API_KEY_HEADER).toLowerCase();
    headers[headerName] = headerName === DEFAULT_API_KEY_HEADER ? `Bearer ${apiKey}` : apiKey;
  }
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: maxRetries ?? DEFAULT_MAX_RETRIES,
    maxResponseBytes: maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    headers,
  };
}

export interface ResolvedRequestOptions {
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  /** The client's `maxResponseBytes`. */
  readonly maxResponseBytes: number;
}

/** Merges a call's options over the client's, validating the overrides. */
export function resolveRequestOptions(
  operation: string,
  client: ResolvedClientOptions,
  options: RequestOptions | undefined,
): ResolvedRequestOptions {
  if (options === undefined) {
    return { signal: undefined, timeoutMs: client.timeoutMs, maxRetries: client.maxRetries, maxResponseBytes: client.maxResponseBytes };
  }
  const parsed = requestOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new GraphitiUsageError(
      `${operation} was given invalid request options: ${describeIssues(parsed.error.issues)}. Nothing was sent.`,
      parsed.error.issues,
    );
  }
  return {
    signal: options.signal,
    timeoutMs: parsed.data.timeoutMs ?? client.timeoutMs,
    maxRetries: parsed.data.maxRetries ?? client.maxRetries,
    maxResponseBytes: client.maxResponseBytes,
  };
}
