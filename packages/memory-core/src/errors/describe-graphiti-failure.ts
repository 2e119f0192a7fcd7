// What a failed call to Graphiti means for a person: one line saying what failed, at which URL,
// and one saying what to try. Shared by the extension and the harness, which differ only in how
// a user changes things (a setting or a command there, a flag or a variable here): `advice`.
import { classifyGraphitiError } from './graphiti-failure.js';

/** How, in this app, the user does each thing a hint may suggest. */
export interface FailureAdvice {
  /** Start a server or point at another one, e.g. `check graphitiMemory.endpoint`. */
  readonly endpoint: string;
  /** Give the key a proxy wants, e.g. `set it with "Graphiti Memory: Set API Key"`. */
  readonly apiKey: string;
  /** Allow more time, e.g. `raise graphitiMemory.timeoutMs`. */
  readonly timeout: string;
}

export interface FailureContext {
  /** The server's URL, as the user configured it. */
  readonly endpoint: string;
  /** What was being done, capitalised: `Health check`, `Reading /episodes`. */
  readonly operation: string;
  readonly timeoutMs?: number;
  /** Whether an API key was sent: a 401 then means a wrong key, not a missing one. Unknown: undefined. */
  readonly apiKeyGiven?: boolean;
  readonly advice: FailureAdvice;
}

export interface FailureDescription {
  /** What failed, with the URL. Never content (no body, no query). */
  readonly message: string;
  /** What to try next, when there is something. */
  readonly hint?: string;
}

const CONNECTION_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused: nothing listens on that port',
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

export function describeGraphitiFailure(error: unknown, { endpoint: url, operation, timeoutMs, apiKeyGiven, advice }: FailureContext): FailureDescription {
  const { kind, status, code, errorClass } = classifyGraphitiError(error);
  if (kind === 'timeout') {
    return {
      message: `${operation} at ${url} got no answer within ${timeoutMs === undefined ? 'the timeout' : `${timeoutMs} ms`}: Graphiti did not answer in time.`,
      hint: `The server may be hanging or overloaded: check its logs and health, or ${advice.timeout}.`,
    };
  }
  if (kind === 'connection' && code?.startsWith('HPE_') === true) {
    return {
      message: `${operation} failed: the server at ${url} answered, but not in HTTP.`,
      hint: 'Another kind of service listens on that port (SSH, a database, TLS?): check the port, or use https:// if it speaks TLS.',
    };
  }
  if (kind === 'connection' || (kind === 'unknown' && code !== undefined && code in CONNECTION_CODES)) {
    const reason = code === undefined ? 'could not connect' : (CONNECTION_CODES[code] ?? code);
    return {
      message: `${operation} failed: Graphiti at ${url} is unreachable (${reason}).`,
      hint: `Is the server running and is the URL right? Start one (docker compose up graph), or ${advice.endpoint}.`,
    };
  }
  if (kind === 'abort') return { message: `${operation} at ${url} was cancelled.` };
  if (kind === 'response-validation') {
    return {
      message: `${operation} at ${url}: the answer is not what Graphiti sends.`,
      hint: `Is this URL a Graphiti REST service (zepai/graphiti)? Check the port and any proxy path: ${advice.endpoint}.`,
    };
  }
  if ((status === 401 || status === 403) && apiKeyGiven === true) {
    return {
      message: `${operation} at ${url} was refused (HTTP ${status}): the API key was not accepted.`,
      hint: `The key is wrong, expired or lacks access: check it with whoever runs the server, then ${advice.apiKey}.`,
    };
  }
  if ((status === 401 || status === 403) && apiKeyGiven === false) {
    return { message: `${operation} at ${url} was refused (HTTP ${status}): the server wants an API key and none was given.`, hint: `${capitalise(advice.apiKey)}.` };
  }
  if (status === 401 || status === 403) {
    return { message: `${operation} at ${url} was refused (HTTP ${status}).`, hint: `The proxy in front of Graphiti wants a key: ${advice.apiKey}.` };
  }
  if (status === 404) {
    return {
      message: `${operation} at ${url}: route not found (HTTP 404).`,
      hint: `Is this the Graphiti REST service (port 8000 by default), without an extra path? ${capitalise(advice.endpoint)}.`,
    };
  }
  if (status === 429) return { message: `${operation} at ${url} was rate limited (HTTP 429).`, hint: 'Wait a little and try again.' };
  if (status !== undefined && status >= 500) {
    return {
      message: `${operation} at ${url} failed with a server error (HTTP ${status}).`,
      hint: "Check the Graphiti server's logs (its database and model provider).",
    };
  }
  if (status !== undefined) return { message: `${operation} at ${url} failed (HTTP ${status}).` };
  return { message: `${operation} at ${url} failed (${errorClass}).`, hint: 'Open the log for details.' };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
