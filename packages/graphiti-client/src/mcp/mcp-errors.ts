// How the MCP face's failures become the same typed errors as the REST client's. Upstream's tools
// report failure as a *successful* result `{ "error": "…" }`: the text decides the kind, and the
// error carries the status REST would have answered (404, 422, 503, 500) so `retryable` and
// callers that look at `status` behave the same on either face. The tool's error text is server
// wording (ids, never memory content) and may be shown.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  GraphitiAbortError,
  GraphitiApiError,
  GraphitiConnectionError,
  GraphitiNotFoundError,
  GraphitiServerError,
  GraphitiTimeoutError,
  GraphitiValidationError,
  type GraphitiError,
  type RequestDescription,
} from '../errors.js';
import { apiErrorFromResponse } from '../transport/http-errors.js';

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

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether the server no longer knows our session (it restarted): open a new one and send again. */
export function isSessionLost(error: unknown): boolean {
  return error instanceof StreamableHTTPError && (error.code === 404 || /session not found/i.test(error.message));
}

/** Maps what the SDK threw (transport, protocol, timeout, abort) to a typed error. */
export function transportError(
  error: unknown,
  request: RequestDescription,
  settings: { readonly signal: AbortSignal | undefined; readonly timeoutMs: number },
): GraphitiError {
  if (settings.signal?.aborted) {
    return new GraphitiAbortError(`${request.method} ${request.path} was aborted by the caller.`, request, { cause: error });
  }
  if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) {
    return new GraphitiTimeoutError(
      `${request.method} ${request.path} got no complete answer within ${settings.timeoutMs} ms. The server may be overloaded or hung; raise timeoutMs or check the server.`,
      { ...request, timeoutMs: settings.timeoutMs },
      { cause: error },
    );
  }
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0) {
    const text = error.message.replace(/^Streamable HTTP error: (Error POSTing to endpoint: )?/, '');
    if (error.code === 404) {
      // A 404 here is a wrong endpoint, not an unknown id: never a GraphitiNotFoundError.
      return new GraphitiApiError(
        `${request.method} ${request.path}: nothing answers MCP there (404). Point the endpoint at Graphiti's MCP server root (its /mcp/ endpoint is added), or choose the REST face.`,
        { ...request, status: 404, body: text, headers: {} },
      );
    }
    return apiErrorFromResponse(request, error.code, {}, text);
  }
  if (error instanceof McpError) {
    if (error.code === Number(ErrorCode.InvalidParams)) return toolError(request, `validation error: ${error.message}`);
    return toolError(request, error.message);
  }
  const code = causeCode(error);
  const reason = code ?? (error instanceof Error ? error.message : String(error));
  return new GraphitiConnectionError(
    `${request.method} ${request.path} could not reach Graphiti's MCP server (${reason}). Check that the server runs at the endpoint and is reachable (proxy, firewall).`,
    request,
    { cause: error },
  );
}
