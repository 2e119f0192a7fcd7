// Turns a failure talking to Graphiti into one short line saying what failed, at which URL, and
// one line saying what to try. Errors are recognised by their `kind` / `status` markers (as
// memory-core does), so this works with any copy of the client.
import { HarnessError } from '../cli/harness-errors.js';

interface ErrorShape {
  readonly kind?: unknown;
  readonly status?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
  readonly code?: unknown;
}

const CONNECTION_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused (nothing listens on that port)',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset by the server',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
};

/** The first `code` found on the error or its causes (ECONNREFUSED, UND_ERR_SOCKET, …). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const shape = current as ErrorShape;
    if (typeof shape.code === 'string' && shape.code !== '') return shape.code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      const nested = errorCode(errors[0]);
      if (nested !== undefined) return nested;
    }
    current = shape.cause;
  }
  return undefined;
}

/** Whether an error on the `cause` chain has this class name (undici's HTTPParserError carries no code). */
function hasCauseNamed(error: unknown, name: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if ((current as { name?: unknown }).name === name) return true;
    current = (current as ErrorShape).cause;
  }
  return false;
}

/** What the caller knows about the request beyond the error. */
export interface FailureContext {
  /** Whether an API key was sent: a 401 then means a wrong key, not a missing one. */
  readonly apiKeyGiven?: boolean;
}

/**
 * A HarnessError for a failed call to Graphiti at `url`: `what` names the operation
 * ("health check", "search"). Errors that are already HarnessErrors pass through.
 */
export function describeGraphitiFailure(error: unknown, url: string, what: string, timeoutMs?: number, context: FailureContext = {}): HarnessError {
  if (error instanceof HarnessError) return error;
  const shape = (typeof error === 'object' && error !== null ? error : {}) as ErrorShape;
  const kind = typeof shape.kind === 'string' ? shape.kind : undefined;
  const status = typeof shape.status === 'number' ? shape.status : undefined;
  const details: Record<string, unknown> = { endpoint: url, operation: what };
  if (kind !== undefined) details['kind'] = kind;
  if (status !== undefined) details['status'] = status;
  const code = errorCode(error);
  if (code !== undefined) details['code'] = code;

  if (kind === 'timeout') {
    return new HarnessError(
      `${what} at ${url} got no answer within ${timeoutMs === undefined ? 'the timeout' : `${timeoutMs} ms`}: the server accepted the connection but did not respond.`,
      { hint: 'The server may be hanging or overloaded: check its logs and health, or raise --timeout-ms.', details, cause: error },
    );
  }
  if (kind === 'connection' && hasCauseNamed(error, 'HTTPParserError')) {
    return new HarnessError(`${what} failed: the server at ${url} answered, but not in HTTP.`, {
      hint: 'Another kind of service listens on that port (SSH, a database, TLS?): check the port, or use https:// if it speaks TLS.',
      details,
      cause: error,
    });
  }
  if (kind === 'connection' || (kind === undefined && code !== undefined && code in CONNECTION_CODES)) {
    const reason = code === undefined ? 'could not connect' : (CONNECTION_CODES[code] ?? code);
    return new HarnessError(`${what} failed: cannot reach Graphiti at ${url}: ${reason}.`, {
      hint: 'Is the server running and is the URL right? Start one (docker compose up graph), or omit --endpoint to use the in-process emulator.',
      details,
      cause: error,
    });
  }
  if (kind === 'abort') return new HarnessError(`${what} at ${url} was cancelled.`, { details, cause: error });
  if (kind === 'response-validation') {
    return new HarnessError(`${what} at ${url}: the answer is not what Graphiti sends.`, {
      hint: 'Is this URL a Graphiti REST service (zepai/graphiti)? Check the port and any proxy path in --endpoint.',
      details,
      cause: error,
    });
  }
  if ((status === 401 || status === 403) && context.apiKeyGiven === true) {
    return new HarnessError(`${what} at ${url} was refused (HTTP ${status}): the API key was not accepted.`, {
      hint: 'The key from --api-key or GRAPHITI_API_KEY is wrong, expired or lacks access: check it with whoever runs the server.',
      details,
      cause: error,
    });
  }
  if ((status === 401 || status === 403) && context.apiKeyGiven === false) {
    return new HarnessError(`${what} at ${url} was refused (HTTP ${status}): the server wants an API key and none was given.`, {
      hint: 'Pass --api-key or set GRAPHITI_API_KEY.',
      details,
      cause: error,
    });
  }
  if (status === 401 || status === 403) {
    return new HarnessError(`${what} at ${url} was refused (HTTP ${status}).`, {
      hint: 'The proxy in front of Graphiti wants a key: pass --api-key or set GRAPHITI_API_KEY.',
      details,
      cause: error,
    });
  }
  if (status === 404) {
    return new HarnessError(`${what} at ${url}: route not found (HTTP 404).`, {
      hint: 'Is this the Graphiti REST service (port 8000 by default), without an extra path?',
      details,
      cause: error,
    });
  }
  if (status === 429) {
    return new HarnessError(`${what} at ${url} was rate limited (HTTP 429).`, { hint: 'Wait a little and run it again.', details, cause: error });
  }
  if (status !== undefined && status >= 500) {
    return new HarnessError(`${what} at ${url} failed with a server error (HTTP ${status}).`, {
      hint: "Check the Graphiti server's logs (its database and model provider).",
      details,
      cause: error,
    });
  }
  if (status !== undefined) {
    return new HarnessError(`${what} at ${url} failed (HTTP ${status}).`, { details, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new HarnessError(`${what} at ${url} failed: ${message}`, { details, cause: error });
}
