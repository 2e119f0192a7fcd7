// The fetch the MCP SDK's Streamable HTTP transport sends through. It keeps the SDK's protocol
// (sessions, JSON-RPC, validation) and changes only how bytes travel, for speed: requests go
// through the client's undici dispatcher like the REST client's (no WHATWG fetch and web streams,
// which cost more than the rest of a call), and the answer to a POST, which the server may frame
// as a short Server-Sent Events stream that ends with the response, is read whole and handed to
// the SDK as the equivalent JSON body, without a WHATWG Response or Headers in between. The
// standalone GET stream (server-initiated messages, which this client never uses) is declined as
// a server without one would decline it: 405.
import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Dispatcher } from 'undici';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../options.js';
import { exchange } from '../transport/exchange.js';

/** The `data` of each event of a complete SSE body (events without data are skipped). */
export function sseData(body: string): string[] {
  const messages: string[] = [];
  // sse-starlette (upstream) ends lines with \r\n, the SDK's server with \n.
  const text = body.includes('\r') ? body.replace(/\r\n?/g, '\n') : body;
  for (const block of text.split('\n\n')) {
    let data: string | undefined;
    for (const line of block.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const value = line.slice(line.startsWith('data: ') ? 6 : 5);
      data = data === undefined ? value : `${data}\n${value}`;
    }
    if (data !== undefined) messages.push(data);
  }
  return messages;
}

/** A complete SSE answer as the SDK would read the same answer sent as JSON: one message as is, several as a batch. */
export function sseAsJson(body: string): string {
  const messages = sseData(body);
  return messages.length === 1 ? (messages[0] ?? '') : `[${messages.join(',')}]`;
}

/** `base` overlaid with the request's headers (the SDK's, read as they are), as undici takes them. */
function headerRecord(base: Readonly<Record<string, string>>, headers: RequestInit['headers']): Record<string, string> {
  const record: Record<string, string> = { ...base };
  (headers instanceof Headers ? headers : new Headers(headers)).forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/** The part of `Headers` the SDK reads, over undici's lower-cased header record. */
class ReadHeaders {
  constructor(private readonly record: Readonly<Record<string, string>>) {}

  get(name: string): string | null {
    return this.record[name.toLowerCase()] ?? null;
  }

  has(name: string): boolean {
    return this.record[name.toLowerCase()] !== undefined;
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of Object.entries(this.record)) callback(value, name);
  }
}

/**
 * An answer already read whole, with the part of `Response` the SDK's transport uses (status,
 * headers, text, json, body). A WHATWG Response would wrap the text in a web stream only for the
 * SDK to read it back: that copy was a fifth of an MCP call's client time.
 */
class ReadResponse {
  readonly ok: boolean;
  /** The standard reason phrase: the SDK puts it in its errors (undici does not report the server's). */
  readonly statusText: string;
  readonly type = 'basic';
  readonly redirected = false;
  readonly body = null;
  readonly headers: ReadHeaders;

  constructor(
    readonly status: number,
    headers: Readonly<Record<string, string>>,
    private readonly content: string,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status < 300;
    this.statusText = STATUS_CODES[status] ?? '';
    this.headers = new ReadHeaders(headers);
  }

  text(): Promise<string> {
    return Promise.resolve(this.content);
  }

  json(): Promise<unknown> {
    try {
      return Promise.resolve(JSON.parse(this.content) as unknown);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

function lowerCaseHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) record[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return record;
}

/**
 * A FetchLike over `dispatcher`; `timeoutMs` bounds undici's own header and body timers, and an
 * answer past `maxBodyBytes` is cut there (the fetch rejects with ResponseTooLarge). `headers`
 * (lower-case names: user agent, API key) go on every request, under the SDK's own: passed here
 * rather than as the transport's requestInit, which the SDK would normalise again on every call.
 */
export function createMcpFetch(
  dispatcher: Dispatcher,
  timeoutMs: number,
  headers: Readonly<Record<string, string>> = {},
  maxBodyBytes: number = DEFAULT_MAX_RESPONSE_BYTES,
): FetchLike {
  return async (input, init) => {
    const url = typeof input === 'string' ? new URL(input) : input;
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method === 'GET') return new Response(null, { status: 405, statusText: 'Method Not Allowed' });
    const signal = init?.signal ?? new AbortController().signal;
    const response = await exchange(
      dispatcher,
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers: headerRecord(headers, init?.headers),
        body: typeof init?.body === 'string' ? init.body : null,
        timeoutMs,
        maxBodyBytes,
      },
      signal,
    );
    const answered = lowerCaseHeaders(response.headers);
    const noBody = response.status === 202 || response.status === 204;
    let body = noBody ? '' : response.rawBody;
    if (!noBody && /^text\/event-stream/i.test(answered['content-type'] ?? '')) {
      body = sseAsJson(response.rawBody);
      answered['content-type'] = 'application/json';
      delete answered['content-length'];
    }
    // The SDK reads only what ReadResponse has (see its comment); the cast is to FetchLike's type.
    return new ReadResponse(response.status, answered, body, url.href) as unknown as Response;
  };
}
