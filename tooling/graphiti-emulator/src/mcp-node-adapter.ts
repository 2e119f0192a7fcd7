// node:http in and out of the SDK's web-standard Streamable HTTP transport, which decides every
// answer (status, headers, SSE framing, session and protocol-version checks). The SDK's own Node
// wrapper goes through @hono/node-server: a new request listener, a Request and a body stream per
// request, and headers flushed in a write of their own. That conversion cost more than the tool
// call it carried, and it is not part of upstream's behaviour, so the emulator passes the transport
// a read-only view of the request (all it reads of an already-parsed request: method, url,
// headers) and writes the transport's answer with the headers and the events in one write.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** The part of `Headers` the transport reads, over node's lower-cased header record. */
class HeadersView {
  constructor(private readonly headers: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.headers[name.toLowerCase()] !== undefined;
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.headers)) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

export function absoluteUrl(request: IncomingMessage): string {
  return `http://${request.headers.host ?? '127.0.0.1'}${request.url ?? '/'}`;
}

/** The request's headers as the SDK records them for handlers (`requestInfo.headers`). */
export function headerRecord(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(new HeadersView(headers).entries());
}

/**
 * What the transport is handed for `request`. A body that parsed as JSON goes as `parsedBody` with
 * a view of the request; any other body (empty, not JSON) as a real Request, so the transport reads
 * and refuses it itself, word for word.
 */
function requestFor(request: IncomingMessage, bodyText: string, parsed: { readonly json: unknown } | undefined): Request {
  const method = request.method ?? 'GET';
  if (parsed === undefined && method === 'POST') {
    const headers = new Headers();
    for (const [name, value] of new HeadersView(request.headers)) headers.append(name, value);
    return new Request(absoluteUrl(request), { method, headers, body: bodyText });
  }
  // The transport reads only method, url and headers of a request whose body it is given.
  return { method, url: absoluteUrl(request), headers: new HeadersView(request.headers) } as unknown as Request;
}

/** Hands one HTTP exchange to `transport` and writes its answer to `response`. */
export async function handleWithTransport(
  transport: WebStandardStreamableHTTPServerTransport,
  request: IncomingMessage,
  response: ServerResponse,
  bodyText: string,
  parsed: { readonly json: unknown } | undefined,
): Promise<void> {
  const answer = await transport.handleRequest(requestFor(request, bodyText, parsed), {
    parsedBody: parsed?.json,
  });
  await writeAnswer(answer, response);
}

/**
 * Writes a web Response to node's response. A finite body (JSON, an error) goes whole with its
 * length, as @hono/node-server writes a body that is ready at once; an SSE stream goes chunked as
 * the SDK's Node transport (and upstream's sse-starlette) send it.
 */
export async function writeAnswer(answer: Response, response: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (answer.body === null) {
    response.writeHead(answer.status, headers);
    response.end();
    return;
  }
  if (headers['content-type']?.startsWith('text/event-stream') !== true) {
    const body = Buffer.from(await answer.arrayBuffer());
    response.writeHead(answer.status, { 'content-type': 'text/plain; charset=UTF-8', ...headers, 'content-length': String(body.byteLength) });
    response.end(body);
    return;
  }
  response.writeHead(answer.status, headers);
  // Headers go with the first event when it is ready in this turn (a tool call's answer); a
  // stream with nothing to say yet (the standalone GET stream) gets its headers on the next turn.
  // (`headersSent` is already true once writeHead has run, though nothing has left yet.)
  let wrote = false;
  setImmediate(() => {
    if (!wrote && !response.destroyed) response.flushHeaders();
  });
  const reader = answer.body.getReader();
  const release = () => {
    reader.cancel().catch(() => undefined);
  };
  response.once('close', release);
  let corked = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (response.destroyed) return;
      wrote = true;
      if (!corked) {
        // The chunks ready together (the event, then the stream's end) leave in one write.
        corked = true;
        response.cork();
        process.nextTick(() => {
          corked = false;
          response.uncork();
        });
      }
      response.write(value);
    }
    if (!response.destroyed) response.end();
  } finally {
    response.off('close', release);
  }
}
