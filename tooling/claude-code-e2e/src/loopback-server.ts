// An HTTP server on 127.0.0.1 (a free port) that hands each request over with its whole body read:
// the scripted model servers of every real-client e2e are built on it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackRequest {
  readonly method: string;
  readonly url: URL;
  /** Lowercased header names only: values may hold the (dummy) API key. */
  readonly headerNames: readonly string[];
  /** The parsed JSON body; the raw text when it is not JSON; `null` when there is none. */
  readonly body: unknown;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  close(): Promise<void>;
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function serveOnLoopback(handle: (request: LoopbackRequest, response: http.ServerResponse) => void): Promise<LoopbackServer> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      handle(
        {
          method: request.method ?? 'GET',
          url: new URL(request.url ?? '/', 'http://loopback.invalid'),
          headerNames: Object.keys(request.headers).sort(),
          body: parseBody(Buffer.concat(chunks).toString('utf8')),
        },
        response,
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
