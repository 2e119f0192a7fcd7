// Everything of the MCP SDK this client runs, in the one module that imports it at runtime. Only
// load-mcp-sdk.ts reaches it, by `import()`, when a GraphitiMcpClient opens its first session: the
// REST client, the errors, the types and an `auto` probe that finds REST never evaluate the SDK
// (its zod schemas and ajv are most of a cold start's cost). Keep other SDK imports `import type`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { GraphitiApiError, GraphitiTimeoutError, type GraphitiError, type RequestDescription } from '../errors.js';
import { apiErrorFromResponse } from '../transport/http-errors.js';
import { toolError } from './mcp-errors.js';

/** An MCP session the server has accepted (`initialize` answered). */
export interface Session {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
}

/** Opens a session on `endpoint` (the `initialize` bounded by `timeoutMs`); a failed open leaves nothing behind. */
export async function openSession(endpoint: URL, fetch: FetchLike, timeoutMs: number): Promise<Session> {
  const client = new Client({ name: 'graphiti-memory', version: '1' });
  const transport = new StreamableHTTPClientTransport(endpoint, {
    fetch,
    // The server-to-client stream carries nothing we use: do not keep re-opening it.
    reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1_000, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1 },
  });
  // A dropped server-to-client stream is reported here; the next call finds out what matters.
  client.onerror = () => undefined;
  try {
    await client.connect(transport, { timeout: timeoutMs });
  } catch (error) {
    void client.close().catch(() => undefined);
    throw error;
  }
  return { client, transport };
}

/** Whether the server no longer knows our session (it restarted): open a new one and send again. */
export function isSessionLost(error: unknown): boolean {
  return error instanceof StreamableHTTPError && (error.code === 404 || /session not found/i.test(error.message));
}

/** The typed error for what the SDK threw (an HTTP status, a protocol error, its timeout); undefined for anything else. */
export function sdkError(
  error: unknown,
  request: RequestDescription,
  settings: { readonly timeoutMs: number },
): GraphitiError | undefined {
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
  return undefined;
}
