// Every failure of the client is a GraphitiError. Callers decide what to do from `kind` and
// `retryable`, never from message text. Errors are recognised by a registry-wide symbol rather
// than only by `instanceof`, so two installed copies of this package (a bundled one and a
// workspace one, say) still recognise each other's errors.
import type { z } from 'zod';
import type { ValidationErrorBody } from './schemas.js';

const GRAPHITI_ERROR_BRAND = Symbol.for('@graphiti-memory/graphiti-client.GraphitiError');

export type GraphitiErrorKind =
  | 'api'
  | 'not-found'
  | 'validation'
  | 'rate-limit'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'abort'
  | 'response-validation'
  | 'response-too-large'
  | 'usage';

/** The request an error belongs to: method and path (ids in the path, never bodies). */
export interface RequestDescription {
  readonly method: string;
  readonly path: string;
}

/** Whether `value` is an error of this client, from this copy of the package or another one. */
export function isGraphitiError(value: unknown): value is GraphitiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[GRAPHITI_ERROR_BRAND] === true
  );
}

/** Base of every error the client throws. */
export abstract class GraphitiError extends Error {
  abstract readonly kind: GraphitiErrorKind;
  /** Whether sending the same request again may succeed. The client retries only these. */
  abstract readonly retryable: boolean;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // Each class also names itself in a literal: bundlers that minify (the hook runner, the VSIX)
    // rename classes, and logs and `errorClassOf` read `name`.
    this.name = new.target.name;
    // Non-enumerable, so it stays out of JSON and logs.
    Object.defineProperty(this, GRAPHITI_ERROR_BRAND, { value: true, enumerable: false });
  }
}

/**
 * An error about one request: it carries the request's method and path. Declared once here so
 * each kind of request error adds only what is its own. Not exported: callers test `kind`.
 */
abstract class GraphitiRequestError extends GraphitiError {
  readonly method: string;
  readonly path: string;

  constructor(message: string, request: RequestDescription, options?: { cause?: unknown }) {
    super(message, options);
    this.method = request.method;
    this.path = request.path;
  }
}

export interface ApiErrorInit extends RequestDescription {
  readonly status: number;
  /** Parsed JSON body, or the raw text when the body is not JSON (plain-text 500s). */
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /** Delay the server asked for in `Retry-After`, in milliseconds. */
  readonly retryAfterMs?: number | undefined;
}

/** Statuses a retry may fix: request timeout, conflict, rate limit, and every server error. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The server answered with a status outside 2xx. Subclasses exist for 404, 422, 429 and 5xx. */
export class GraphitiApiError extends GraphitiRequestError {
  override readonly name: string = 'GraphitiApiError';
  readonly kind: GraphitiErrorKind = 'api';
  readonly retryable: boolean;
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, init: ApiErrorInit) {
    super(message, init);
    this.status = init.status;
    this.body = init.body;
    this.headers = init.headers;
    this.retryAfterMs = init.retryAfterMs;
    this.retryable = isRetryableStatus(init.status);
  }
}

/** 404: the uuid (edge, episode) does not exist. */
export class GraphitiNotFoundError extends GraphitiApiError {
  override readonly name: string = 'GraphitiNotFoundError';
  override readonly kind = 'not-found';
  /** FastAPI's `detail` text, e.g. `edge <uuid> not found`. */
  readonly detail: string | undefined;

  constructor(message: string, init: ApiErrorInit & { readonly detail: string | undefined }) {
    super(message, init);
    this.detail = init.detail;
  }
}

/** 422: the server's request validation (FastAPI) refused the body or query. */
export class GraphitiValidationError extends GraphitiApiError {
  override readonly name: string = 'GraphitiValidationError';
  override readonly kind = 'validation';
  /** FastAPI's `detail` list (`loc`, `msg`, `type`, `input`), when the body had that shape. */
  readonly detail: ValidationErrorBody['detail'] | undefined;

  constructor(
    message: string,
    init: ApiErrorInit & { readonly detail: ValidationErrorBody['detail'] | undefined },
  ) {
    super(message, init);
    this.detail = init.detail;
  }
}

/** 429: a proxy or the server is rate-limiting; `retryAfterMs` says for how long when known. */
export class GraphitiRateLimitError extends GraphitiApiError {
  override readonly name: string = 'GraphitiRateLimitError';
  override readonly kind = 'rate-limit';
}

/** 5xx: the server failed (upstream answers unhandled exceptions with plain-text 500s). */
export class GraphitiServerError extends GraphitiApiError {
  override readonly name: string = 'GraphitiServerError';
  override readonly kind = 'server';
}

/** No HTTP answer: refused, reset, DNS, TLS. Retryable. */
export class GraphitiConnectionError extends GraphitiRequestError {
  override readonly name: string = 'GraphitiConnectionError';
  readonly kind = 'connection';
  readonly retryable = true;
  /**
   * The system or undici code of the failure (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`…,
   * `HPE_*` when the server answered but not in HTTP), found once here along the cause chain so
   * callers never walk it; undefined when there was none.
   */
  readonly code: string | undefined;

  constructor(message: string, request: RequestDescription, options?: { cause?: unknown; code?: string }) {
    super(message, request, options);
    this.code = options?.code;
  }
}

/** The attempt (connect, headers and body) did not finish within `timeoutMs`. Retryable. */
export class GraphitiTimeoutError extends GraphitiRequestError {
  override readonly name: string = 'GraphitiTimeoutError';
  readonly kind = 'timeout';
  readonly retryable = true;
  readonly timeoutMs: number;

  constructor(
    message: string,
    request: RequestDescription & { readonly timeoutMs: number },
    options?: { cause?: unknown },
  ) {
    super(message, request, options);
    this.timeoutMs = request.timeoutMs;
  }
}

/** The caller's AbortSignal fired. Never retried. */
export class GraphitiAbortError extends GraphitiRequestError {
  override readonly name: string = 'GraphitiAbortError';
  readonly kind = 'abort';
  readonly retryable = false;
}

/** A 2xx answer whose body is not JSON or not the shape of graphiti-api.md. */
export class GraphitiResponseValidationError extends GraphitiRequestError {
  override readonly name: string = 'GraphitiResponseValidationError';
  readonly kind = 'response-validation';
  readonly retryable = false;
  readonly status: number;
  /** The body exactly as received. It may hold memory content: do not log it. */
  readonly rawBody: string;
  /** What did not match; empty when the body was not JSON at all. */
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(
    message: string,
    init: RequestDescription & {
      readonly status: number;
      readonly rawBody: string;
      readonly issues: readonly z.core.$ZodIssue[];
    },
    options?: { cause?: unknown },
  ) {
    super(message, init, options);
    this.status = init.status;
    this.rawBody = init.rawBody;
    this.issues = init.issues;
  }
}

/**
 * The answer was larger than `maxResponseBytes`: reading stopped at the cap (nothing beyond it was
 * kept) and the connection was closed. Not retried: the same request would get the same answer.
 */
export class GraphitiResponseTooLargeError extends GraphitiRequestError {
  override readonly name: string = 'GraphitiResponseTooLargeError';
  readonly kind = 'response-too-large';
  readonly retryable = false;
  /** The cap that was exceeded, in bytes. */
  readonly limitBytes: number;

  constructor(message: string, init: RequestDescription & { readonly limitBytes: number }, options?: { cause?: unknown }) {
    super(message, init, options);
    this.limitBytes = init.limitBytes;
  }
}

/** Bad input or options, refused before any request was sent. Fix the call; retrying cannot help. */
export class GraphitiUsageError extends GraphitiError {
  override readonly name: string = 'GraphitiUsageError';
  readonly kind = 'usage';
  readonly retryable = false;
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(message: string, issues: readonly z.core.$ZodIssue[] = []) {
    super(message);
    this.issues = issues;
  }
}
