// A tiny node:http server for answers the emulator never gives (malformed JSON, wrong shapes,
// stalled bodies, exact FastAPI 422 bodies) and for checking header values, which the emulator's
// log leaves out on purpose.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** Remote port of the connection: equal ports mean a reused keep-alive connection. */
  readonly remotePort: number;
}

export type ScriptedHandler = (request: ScriptedRequest, response: ServerResponse) => void;

export interface ScriptedServer {
  readonly url: string;
  readonly requests: readonly ScriptedRequest[];
  close(): Promise<void>;
}

export async function startScriptedServer(handler: ScriptedHandler): Promise<ScriptedServer> {
  const requests: ScriptedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: ScriptedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        remotePort: incoming.socket.remotePort ?? 0,
      };
      requests.push(request);
      handler(request, response);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with the given status. */
export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** A URL on which nothing listens: a port that was free a moment ago. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
