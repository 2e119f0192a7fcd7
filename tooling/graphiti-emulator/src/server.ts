// The HTTP side: one node:http server on 127.0.0.1, the request log, fault injection and the
// lifecycle (restart, close). Route behaviour lives in routes.ts, the worker in message-worker.ts.
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { processEpisode, processMessage, type EpisodeJob, type MessageJob } from './episode-processor.js';
import { FaultInjector } from './faults.js';
import { GraphStore } from './graph-store.js';
import { detail, internalServerError, type RouteAnswer } from './http-answers.js';
import { GroupQueues } from './group-queues.js';
import { McpFace } from './mcp-face.js';
import { MessageWorker } from './message-worker.js';
import { describeRequest, RequestLog, type PendingRequest } from './request-log.js';
import { matchRoute, routeNameOf, type RouteContext } from './routes.js';
import type { EmulatorOptions, InjectedFault, RunningEmulator } from './types.js';

const DEFAULT_PROCESSING_DELAY_MS = 5;

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const processingDelayMs = options.processingDelayMs ?? DEFAULT_PROCESSING_DELAY_MS;
  if (!Number.isFinite(processingDelayMs) || processingDelayMs < 0) {
    throw new RangeError(`processingDelayMs must be a number ≥ 0, got ${processingDelayMs}; pass e.g. 5.`);
  }
  const quiet = options.quiet ?? true;
  const face = options.face ?? 'rest';
  if (face !== 'rest' && face !== 'mcp') throw new RangeError(`face must be "rest" or "mcp", got "${String(face)}".`);
  const store = new GraphStore();
  let processedSinceStart = 0;
  const worker = new MessageWorker<MessageJob>(processingDelayMs, (job) => {
    if (options.closedClientDefect === true && processedSinceStart > 0) {
      // Upstream: the job runs on a Graphiti client its request already closed; the worker dies.
      throw new Error('RuntimeError: the Graphiti client was closed by the request that queued this job');
    }
    processedSinceStart++;
    processMessage(store, job, Date.now());
  });
  const queues = new GroupQueues<EpisodeJob>(processingDelayMs, (job) => {
    processEpisode(store, job, Date.now());
  });
  const mcp = new McpFace({ store, queues, defaultGroupId: options.defaultGroupId ?? 'main', release: options.mcpRelease ?? 'main', now: () => Date.now() });
  const faults = new FaultInjector(options.faults, options.seed);
  const log = new RequestLog();
  const context: RouteContext = { store, worker, now: () => Date.now() };
  const sockets = new Set<Socket>();
  const latencyTimers = new Map<NodeJS.Timeout, () => void>();
  let closed = false;

  /** Injected latency, cut short by close() so no timer outlives the emulator. */
  function delay(milliseconds: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        latencyTimers.delete(timer);
        resolve();
      }, milliseconds);
      latencyTimers.set(timer, resolve);
    });
  }

  function answer(response: ServerResponse, pending: PendingRequest, routeAnswer: RouteAnswer, fault: InjectedFault | null): void {
    log.record(pending, routeAnswer.status, fault);
    if (!quiet) console.error(`[graphiti-emulator] ${pending.method} ${pending.path} ${routeAnswer.status}`);
    const body = routeAnswer.json === undefined ? (routeAnswer.text ?? '') : JSON.stringify(routeAnswer.json);
    response.writeHead(routeAnswer.status, {
      'content-type': routeAnswer.json === undefined ? 'text/plain; charset=utf-8' : 'application/json',
      'content-length': Buffer.byteLength(body),
      ...routeAnswer.headers,
    });
    response.end(body);
  }

  function noAnswer(pending: PendingRequest, fault: InjectedFault): void {
    log.record(pending, 0, fault);
    if (!quiet) console.error(`[graphiti-emulator] ${pending.method} ${pending.path} (${fault})`);
  }

  /**
   * The fault switches, the same on both faces: added latency, then a reset, a hang or an error
   * status. True when the request is settled here (faulted, or the server closed meanwhile).
   */
  async function faultHandled(request: IncomingMessage, response: ServerResponse, pending: PendingRequest): Promise<boolean> {
    const decision = faults.decide(pending.route);
    if (decision.latencyMs > 0) await delay(decision.latencyMs);
    if (closed || response.destroyed) return true;
    switch (decision.fault) {
      case 'reset':
        noAnswer(pending, 'reset');
        request.socket.destroy();
        return true;
      case 'hang':
        noAnswer(pending, 'hang'); // the socket is destroyed by close() or restartServer()
        return true;
      case 'error': {
        const status = decision.errorStatus;
        const injected = status === 500 ? internalServerError() : detail(status, STATUS_CODES[status] ?? 'Error');
        const headers = decision.retryAfterSeconds === undefined ? {} : { 'retry-after': String(decision.retryAfterSeconds) };
        answer(response, pending, { ...injected, headers }, 'error');
        return true;
      }
      default:
        return false;
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const bodyText = await readBody(request);
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', 'http://emulator.invalid');
    if (face === 'mcp') {
      await handleMcp(request, response, method, url.pathname, bodyText);
      return;
    }
    const match = matchRoute(method, url.pathname);
    const pending = describeRequest(method, request.url ?? '/', request.headers, bodyText, routeNameOf(match));
    if (await faultHandled(request, response, pending)) return;

    let routeAnswer: RouteAnswer;
    switch (match.kind) {
      case 'found':
        try {
          routeAnswer = match.route.handle(context, { parameters: match.parameters, query: url.searchParams, bodyText });
        } catch {
          routeAnswer = internalServerError();
        }
        break;
      case 'redirect':
        routeAnswer = { status: 307, text: '', headers: { location: `${match.location}${url.search}` } };
        break;
      case 'method-not-allowed':
        routeAnswer = detail(405, 'Method Not Allowed');
        break;
      case 'not-found':
        routeAnswer = detail(404, 'Not Found');
        break;
    }
    answer(response, pending, routeAnswer, null);
  }

  /** The MCP face: same fault switches, then the SDK's Streamable HTTP transport answers. */
  async function handleMcp(
    request: IncomingMessage,
    response: ServerResponse,
    method: string,
    path: string,
    bodyText: string,
  ): Promise<void> {
    let parsed: { readonly json: unknown } | undefined;
    try {
      parsed = bodyText === '' ? undefined : { json: JSON.parse(bodyText) as unknown };
    } catch {
      parsed = undefined;
    }
    const pending = describeRequest(method, request.url ?? '/', request.headers, bodyText, mcp.routeOf(method, path, parsed?.json), parsed);
    if (await faultHandled(request, response, pending)) return;
    response.once('close', () => {
      log.record(pending, response.statusCode, null);
      if (!quiet) console.error(`[graphiti-emulator] ${pending.method} ${pending.path} ${pending.route ?? ''} ${response.statusCode}`);
    });
    await mcp.handle(request, response, path, bodyText, parsed);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent && !response.destroyed) {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('Internal Server Error');
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server, options.port ?? 0);

  /** Destroys every connection and waits until they are gone, so clients see the drop first. */
  async function dropConnections(): Promise<void> {
    const closing = [...sockets].map(
      (socket) => new Promise<void>((resolve) => (socket.destroyed && socket.closed ? resolve() : socket.once('close', () => resolve()))),
    );
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await Promise.all(closing);
    // Let a client in this same process notice the closed sockets before its next request.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    face,
    get requests() {
      return log.entries;
    },
    clearRequests: () => log.clear(),
    setFaults: (plan) => faults.setPlan(plan),
    killWorker: () => (face === 'mcp' ? queues.kill('killed on demand (killWorker)') : worker.kill('killed on demand (killWorker)')),
    restartServer: async () => {
      worker.restart();
      queues.restart();
      processedSinceStart = 0;
      await mcp.dropSessions();
      await dropConnections();
    },
    idle: () => (face === 'mcp' ? queues.idle() : worker.idle()),
    state: {
      episodes: (groupId) => store.episodes(groupId === undefined ? {} : { groupId }),
      facts: (groupId) => store.facts(groupId === undefined ? undefined : [groupId]),
      nodes: (groupId) => store.nodes(groupId === undefined ? undefined : [groupId]),
      queueLength: () => (face === 'mcp' ? queues.length : worker.length),
      workerAlive: () => (face === 'mcp' ? queues.alive : worker.alive),
      workerError: () => (face === 'mcp' ? queues.error : worker.error),
    },
    close: async () => {
      if (closed) return;
      closed = true;
      worker.stop();
      queues.stop();
      await mcp.dropSessions();
      for (const [timer, resolve] of latencyTimers) {
        clearTimeout(timer);
        resolve();
      }
      latencyTimers.clear();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await dropConnections();
      await stopped;
    },
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function listen(server: ReturnType<typeof createServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') {
        reject(new Error(`The emulator could not read its own address after listening on port ${port}.`));
        return;
      }
      resolve(address.port);
    });
  });
}
