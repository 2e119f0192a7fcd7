// Readable, content-free descriptions of failures, with what to try next.
import { isGraphitiError } from '@graphiti-memory/graphiti-client';

/** The error's class for logs and status: `timeout`, `connection`, `server 500`… Never content. */
export function errorClass(error: unknown): string {
  if (isGraphitiError(error)) {
    const status = (error as { status?: unknown }).status;
    return typeof status === 'number' ? `${error.kind} ${status}` : error.kind;
  }
  return error instanceof Error ? error.name : 'unknown';
}

/** What went wrong talking to `endpoint`, and what the user can do about it. */
export function describeFailure(endpoint: string, error: unknown): string {
  const kind = isGraphitiError(error) ? error.kind : 'unknown';
  switch (kind) {
    case 'connection':
      return `Graphiti at ${endpoint} is unreachable (connection failed). Check that the server runs (for example \`docker compose up graph\`, or Graphiti's MCP server), and the host and port in graphitiMemory.endpoint.`;
    case 'timeout':
      return `Graphiti at ${endpoint} did not answer in time. Check that the server is not overloaded, or raise graphitiMemory.timeoutMs.`;
    case 'rate-limit':
      return `Graphiti at ${endpoint} is rate limiting requests (429). Try again later.`;
    case 'server':
      return `Graphiti at ${endpoint} failed with a server error (${errorClass(error)}). Check the server's log.`;
    case 'not-found':
    case 'api':
    case 'validation': {
      const status = (error as { status?: unknown }).status;
      return status === 401 || status === 403
        ? `Graphiti at ${endpoint} refused the request (${String(status)}). Set the API key with "Graphiti Memory: Set API Key".`
        : `Graphiti at ${endpoint} answered with an error (${errorClass(error)}). Is this a Graphiti server (REST service or MCP server)? graphitiMemory.serverKind says which it is.`;
    }
    case 'response-validation':
      return `${endpoint} answered, but not like a Graphiti server. Check graphitiMemory.endpoint.`;
    default:
      return `Talking to Graphiti at ${endpoint} failed (${errorClass(error)}). Open the log for details.`;
  }
}
