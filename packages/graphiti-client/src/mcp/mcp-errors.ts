// How the MCP face's failures become the same typed errors as the REST client's. Upstream's tools
// report failure as a *successful* result `{ "error": "…" }`: the text decides the kind, and the
// error carries the status REST would have answered (404, 422, 503, 500) so `retryable` and
// callers that look at `status` behave the same on either face. The tool's error text is server
// wording (ids, never memory content) and may be shown.
import {
  GraphitiAbortError,
  GraphitiConnectionError,
  GraphitiNotFoundError,
  GraphitiServerError,
  GraphitiValidationError,
  type GraphitiError,
  type RequestDescription,
} from '../errors.js';
import { errorCode } from '../transport/error-code.js';
import { responseTooLargeIn } from '../transport/exchange.js';
import { responseTooLargeError } from '../transport/request.js';
import { loadedMcpSdk, McpSdkLoadError } from './load-mcp-sdk.js';

const VALIDATION_PATTERN =
  /must be a positive integer|^Invalid (reference_time|date filter)|No group IDs specified|must contain only alphanumeric|validation error/i;

/** Maps a tool's `{ error }` text (or an `isError` result's text) to a typed error. */
export function toolError(request: RequestDescription, error: string): GraphitiError {
  const base = { ...request, body: { error }, headers: {} };
  const route = `${request.method} ${request.path}`;
  if (/\bnot found\b/i.test(error)) {
    return new GraphitiNotFoundError(
      `Graphiti's MCP server answered ${route} with: ${error}. The id does not exist (it may have been deleted already); check the id, or treat it as gone.`,
      { ...base, status: 404, detail: error },
    );
  }
  if (VALIDATION_PATTERN.test(error)) {
    return new GraphitiValidationError(
      `Graphiti's MCP server refused ${route}: ${error}. Fix the arguments; retrying the same call cannot help.`,
      { ...base, status: 422, detail: undefined },
    );
  }
  const unavailable = /not initialized/i.test(error);
  return new GraphitiServerError(
    unavailable
      ? `Graphiti's MCP server is not ready (${route}: ${error}). It is still starting or cannot reach its database; retry later.`
      : `Graphiti's MCP server failed on ${route}: ${error}. Retry later; if it keeps failing, read the server's log (database or model errors are common causes).`,
    { ...base, status: unavailable ? 503 : 500 },
  );
}

/** Whether the server no longer knows our session (it restarted): open a new one and send again. */
export function isSessionLost(error: unknown): boolean {
  return loadedMcpSdk()?.isSessionLost(error) === true;
}

/** Maps what a call threw (the SDK's transport, protocol, timeout; an abort; no SDK) to a typed error. */
export function transportError(
  error: unknown,
  request: RequestDescription,
  settings: { readonly signal: AbortSignal | undefined; readonly timeoutMs: number },
): GraphitiError {
  if (settings.signal?.aborted) {
    return new GraphitiAbortError(`${request.method} ${request.path} was aborted by the caller.`, request, { cause: error });
  }
  const tooLarge = responseTooLargeIn(error);
  if (tooLarge !== undefined) return responseTooLargeError(request, tooLarge.limitBytes, error);
  const code = errorCode(error);
  if (error instanceof McpSdkLoadError) {
    // Nothing was sent. Retryable like any connection failure, so a caller keeps what it meant to send.
    return new GraphitiConnectionError(
      `${request.method} ${request.path} was not sent: ${error.message}. The installation of @graphiti-memory/graphiti-client is incomplete; reinstall it, or use the REST face.`,
      request,
      { cause: error.cause, ...(code === undefined ? {} : { code }) },
    );
  }
  const known = loadedMcpSdk()?.sdkError(error, request, settings);
  if (known !== undefined) return known;
  const reason = code ?? (error instanceof Error ? error.message : String(error));
  return new GraphitiConnectionError(
    `${request.method} ${request.path} could not reach Graphiti's MCP server (${reason}). Check that the server runs at the endpoint and is reachable (proxy, firewall).`,
    request,
    // The code (ECONNREFUSED…) on the error itself, as the REST client sets it: callers classify by it.
    { cause: error, ...(code === undefined ? {} : { code }) },
  );
}
