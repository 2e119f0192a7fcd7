// The memory page's HTTP server: bound to 127.0.0.1 only, every request through `PageGuard`
// (Host, token, same-origin writes), three static files shipped in this package, and a small JSON
// API. Answers carry a strict Content-Security-Policy (scripts and styles from this origin only, no
// inline script, nothing from outside), never a CORS header, and are never cached.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PageGuard } from './page-guard.js';
import { PageError, type MemoryPageApi } from './page-api.js';
import { isPageScope } from './page-views.js';

const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'memory-page.html', type: 'text/html; charset=utf-8' },
  '/memory-page.js': { file: 'memory-page.js', type: 'text/javascript; charset=utf-8' },
  '/memory-page.css': { file: 'memory-page.css', type: 'text/css; charset=utf-8' },
};

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Longest JSON body a write may carry. */
const MAX_BODY_BYTES = 64 * 1024;

export interface PageServerOptions {
  readonly api: MemoryPageApi;
  /** 0: a free port. */
  readonly port: number;
  /** The folder holding the page's files (`pageAssetsFolder()`). */
  readonly assets: string;
  /** The per-run token; a fresh random one by default. */
  readonly token?: string;
}

export interface RunningPageServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

export async function startPageServer(options: PageServerOptions): Promise<RunningPageServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  // The guard needs the port, known once listening; nothing is answered before.
  const started: { guard?: PageGuard } = {};
  const server = http.createServer((request, response) => {
    const guard = started.guard;
    if (guard === undefined) return answer(response, 503, { error: 'starting' });
    void handle(guard, options, request, response).catch((error: unknown) => {
      if (!response.headersSent) answer(response, error instanceof PageError ? error.status : 500, { error: error instanceof Error ? error.message : String(error) });
      else response.destroy();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: nothing else on the network can reach it.
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  started.guard = new PageGuard({ port, token });
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(guard: PageGuard, options: PageServerOptions, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const verdict = guard.check({ method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers });
  if (!verdict.allowed) return answer(response, verdict.status, { error: verdict.reason });
  if (verdict.redirectTo !== undefined) {
    response.writeHead(303, { ...SECURITY_HEADERS, location: verdict.redirectTo, ...(verdict.setCookie === undefined ? {} : { 'set-cookie': verdict.setCookie }) });
    response.end();
    return;
  }
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const method = (request.method ?? 'GET').toUpperCase();
  const asset = ASSETS[url.pathname];
  if (asset !== undefined && (method === 'GET' || method === 'HEAD')) {
    const body = await fs.readFile(path.join(options.assets, asset.file));
    response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': asset.type, 'content-length': body.length });
    response.end(method === 'HEAD' ? undefined : body);
    return;
  }
  const { api } = options;
  if (method === 'GET' && url.pathname === '/api/overview') return answer(response, 200, await api.overview(scopeOf(url)));
  if (method === 'GET' && url.pathname === '/api/search') return answer(response, 200, await api.search(url.searchParams.get('q') ?? '', scopeOf(url)));
  if (method === 'POST') {
    const body = await jsonBody(request);
    if (url.pathname === '/api/forget') return answer(response, 200, await api.forget(body));
    if (url.pathname === '/api/edit') return answer(response, 200, await api.edit(body));
    if (url.pathname === '/api/pending/approve') return answer(response, 200, await api.approve(body));
    if (url.pathname === '/api/pending/reject') return answer(response, 200, await api.reject(body));
    if (url.pathname === '/api/loops/done') return answer(response, 200, await api.closeLoop(body, 'done'));
    if (url.pathname === '/api/loops/drop') return answer(response, 200, await api.closeLoop(body, 'dropped'));
  }
  answer(response, 404, { error: 'not found' });
}

function scopeOf(url: URL): 'workspace' | 'user' | 'team' {
  const scope = url.searchParams.get('scope') ?? 'workspace';
  if (!isPageScope(scope)) throw new PageError(400, 'scope must be workspace, user or team');
  return scope;
}

async function jsonBody(request: http.IncomingMessage): Promise<Record<string, unknown>> {
  if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')) throw new PageError(415, 'a change is sent as JSON');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new PageError(413, 'the request is too large');
    chunks.push(chunk as Buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new PageError(400, 'the request is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new PageError(400, 'the request must be a JSON object');
  return parsed as Record<string, unknown>;
}

function answer(response: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/**
 * The folder of the page's files: `memory-page/` beside this package's `dist/` (in a checkout, and in
 * the packed CLI, whose bundle lies in `dist/` too).
 */
export async function pageAssetsFolder(from: string = import.meta.url): Promise<string> {
  let folder = path.dirname(fileURLToPath(from));
  for (let depth = 0; depth < 4; depth++) {
    const candidate = path.join(folder, 'memory-page');
    if (await fs.access(path.join(candidate, 'memory-page.html')).then(() => true, () => false)) return candidate;
    folder = path.dirname(folder);
  }
  throw new Error(`the memory page's files (memory-page/memory-page.html) are missing beside ${fileURLToPath(from)}: reinstall graphiti-harness`);
}
