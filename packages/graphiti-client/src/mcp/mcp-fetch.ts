// The fetch the MCP SDK's Streamable HTTP transport sends through. It keeps the SDK's protocol
// (sessions, JSON-RPC, validation) and changes only how bytes travel, for speed: requests go
// through the client's undici dispatcher like the REST client's (no WHATWG fetch and web streams,
// which cost more than the rest of a call), and the answer to a POST, which the server may frame
// as a short Server-Sent Events stream that ends with the response, is read whole and handed to
// the SDK as the equivalent JSON body. The standalone GET stream (server-initiated messages,
// which this client never uses) is declined as a server without one would decline it: 405.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Dispatcher } from 'undici';
import { exchange } from '../transport/exchange.js';

/** The `data` of each event of a complete SSE body (events without data are skipped). */
export function sseData(body: string): string[] {
  const messages: string[] = [];
  for (const block of body.replace(/\r\n?/g, '\n').split('\n\n')) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
    if (data.length > 0) messages.push(data.join('\n'));
  }
  return messages;
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/** A FetchLike over `dispatcher`; `timeoutMs` bounds undici's own header and body timers. */
export function createMcpFetch(dispatcher: Dispatcher, timeoutMs: number): FetchLike {
  return async (input, init) => {
    const url = new URL(input);
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method === 'GET') return new Response(null, { status: 405, statusText: 'Method Not Allowed' });
    const signal = init?.signal ?? new AbortController().signal;
    const response = await exchange(
      dispatcher,
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers: headerRecord(init?.headers),
        body: typeof init?.body === 'string' ? init.body : null,
        timeoutMs,
      },
      signal,
    );
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const noBody = response.status === 202 || response.status === 204;
    if (!noBody && /^text\/event-stream/i.test(headers.get('content-type') ?? '')) {
      const messages = sseData(response.rawBody);
      headers.set('content-type', 'application/json');
      headers.delete('content-length');
      const body = messages.length === 1 ? (messages[0] ?? '') : `[${messages.join(',')}]`;
      return new Response(body, { status: response.status, headers });
    }
    return new Response(noBody ? null : response.rawBody, { status: response.status, headers });
  };
}
