// The per-user hook server: started detached by a runner that found none, it keeps the hook's
// code loaded so the next events skip node's start of 1.7 MB of bundle. Each event still reads the
// config files and consent afresh (runHook), so a change applies at once. It listens on a 0600
// Unix socket (a named pipe on Windows) in a private folder, one per runner build, answers only
// runners of its own build and protocol (servers of other builds run beside it, untouched), and
// leaves after an idle while or once its runner file is another build. While an agent session it
// served is open (session-hold.ts), an idle while does not end it: the first prompt after a break
// is served warm. It logs no content: runs go to the state folder's run log as before, marked
// `via: server`.
import { promises as fs } from 'node:fs';
import net from 'node:net';
import lockfile from 'proper-lockfile';
import { userConfigDirectory } from '@graphiti-memory/memory-node-storage';
import { ANSWER_MARGIN_MS, pingHookServer } from './hook-forward.js';
import { appendHookLog } from './hook-log.js';
import { frameReader, HOOK_SERVER_PROTOCOL, MAX_REQUEST_BYTES, type HookServerConnections, readHookServerInfo, type HookServerFrame, type HookServerInfo, type HookServerPlace, type HookServerRequest, type HookServerStorageFault, type HeldSessionSeed } from './hook-server-place.js';
import { runHook, stillOpenFor } from './run-hook.js';
import { SessionHold } from './session-hold.js';
import { runnerBuild } from './runner-build.js';
import { sweepDeadServers } from './dead-servers.js';

/**
 * After this long without an event it leaves — unless an agent session it served is still open
 * (session-hold.ts); then it checks again after the same while.
 */
export const HOOK_SERVER_IDLE_MS = 15 * 60_000;
/**
 * How often it checks that the user config folder it serves still exists and that its runner file
 * is still its build (an updated extension or a rebuilt harness replaced it): if not, it leaves.
 */
const CHECK_MS = 30_000;
/** Open connections beyond this are refused at once: runners are a few at a time, never hundreds. */
export const MAX_HOOK_CONNECTIONS = 32;
/** A connection that has not sent a full request this long after it opened is destroyed. */
export const HOOK_REQUEST_MS = 2_000;
/** How long a taken event may hold its connection before it names its deadline (config read). */
const UNNAMED_DEADLINE_MS = 15_000;
const LOCK_STALE_MS = 10_000;
/** Run outcomes after which the server leaves (the next allowed event starts one again). */
const SWITCHED_OFF = ['disabled', 'no-consent', 'no-endpoint', 'untrusted', 'bad-memory-switches'];
/** Events that write the outbox: one that succeeds shows the disk takes writes again. */
const DURABLE_EVENTS = ['Stop', 'SessionEnd'];

export interface HookServerOptions {
  readonly place: HookServerPlace;
  readonly build: string;
  /** The runner entry, for the drainers this server starts. */
  readonly entryPath: string;
  /** Leaves after this long without a served event (open connections do not count), unless a session holds it. */
  readonly idleMs?: number;
  /** How long after its last event an open session may hold the server (default `SESSION_HOLD_MS`). */
  readonly holdMs?: number;
  /** The session of the event its runner answered before starting it: held as if served here. */
  readonly heldSession?: HeldSessionSeed;
  readonly checkMs?: number;
  readonly maxConnections?: number;
  readonly requestMs?: number;
}

/** Serves until idle or replaced; resolves when it has stopped (then the process may exit). */
export async function serveHooks(options: HookServerOptions): Promise<void> {
  const { place, build } = options;
  const server = net.createServer();
  const release = await lockfile.lock(place.lock, { stale: LOCK_STALE_MS, retries: { retries: 40, minTimeout: 25, maxTimeout: 100 }, realpath: false });
  let running: HookServer;
  try {
    // Another instance of this build won the race: it serves. Anything else that answers on this
    // build's socket is not ours to stop (no runner of this build would be served by it anyway).
    if ((await pingHookServer(place, build, HOOK_SERVER_PROTOCOL)) !== undefined) return;
    if (process.platform !== 'win32') await fs.rm(place.socket, { force: true }); // stale: nobody answers
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(place.socket, () => resolve());
    });
    if (process.platform !== 'win32') await fs.chmod(place.socket, 0o600);
    const info: HookServerInfo = { pid: process.pid, since: new Date().toISOString(), build, protocol: HOOK_SERVER_PROTOCOL, socket: place.socket, user: place.user };
    await fs.writeFile(place.info, `${JSON.stringify(info)}\n`, { mode: 0o600 });
    running = new HookServer(server, info, options);
  } finally {
    await release().catch(() => undefined);
  }
  // Servers that died without cleaning up (killed) left files; those of this build were just replaced.
  await sweepDeadServers(place).catch(() => undefined);
  await running.stopped;
}

class HookServer {
  readonly stopped: Promise<void>;
  /** Events being run: only these (not open sockets) keep the server from its idle leave. */
  #running = 0;
  /** Open connections, and whether each has sent its request yet. */
  readonly #sockets = new Map<net.Socket, { taken: boolean }>();
  #counts = { refused: 0, timedOut: 0, oversized: 0 };
  #storageFault: HookServerStorageFault | undefined;
  /** The open agent sessions it stays warm for. */
  readonly #hold: SessionHold;
  /** Events taken so far: an idle check that saw a new one come and go does not act on stale findings. */
  #taken = 0;
  #idle: NodeJS.Timeout | undefined;
  #check: NodeJS.Timeout | undefined;
  #stopping = false;
  /** Set once the socket and info file are let go: only then may the process leave. */
  #released = false;
  #resolveStopped!: () => void;

  constructor(
    private readonly server: net.Server,
    private readonly info: HookServerInfo,
    private readonly options: HookServerOptions,
  ) {
    this.stopped = new Promise((resolve) => (this.#resolveStopped = resolve));
    this.#hold = new SessionHold(options.holdMs);
    const seed = options.heldSession;
    if (seed !== undefined) this.#hold.seen(seed.session.id, Date.now(), stillOpenFor({ argv: seed.argv, env: process.env, cwd: seed.cwd }, seed.session));
    server.on('connection', (socket) => this.#accept(socket));
    server.on('error', () => void this.#stop());
    this.#armIdle();
    const configFolder = userConfigDirectory(process.env);
    this.#check = setInterval(() => {
      if (runnerBuild(options.entryPath) !== info.build) void this.#stop();
      fs.access(configFolder).catch(() => void this.#stop());
    }, options.checkMs ?? CHECK_MS);
    this.#check.unref();
  }

  get connections(): HookServerConnections {
    return { open: this.#sockets.size, ...this.#counts };
  }

  #armIdle(): void {
    clearTimeout(this.#idle);
    if (this.#running === 0) this.#idle = setTimeout(() => void this.#idleWhilePassed(), this.options.idleMs ?? HOOK_SERVER_IDLE_MS);
  }

  /** No event for the idle while: stay for an open session whose memory is still on, else leave. */
  async #idleWhilePassed(): Promise<void> {
    const taken = this.#taken;
    const holding = await this.#hold.holding(Date.now());
    // An event came in meanwhile: it re-arms the idle while when it is done.
    if (this.#stopping || this.#running > 0 || this.#taken !== taken) return;
    if (holding) this.#armIdle();
    else void this.#stop();
  }

  #accept(socket: net.Socket): void {
    // Stalled or hostile clients must not pile up memory or keep the server: a cap on open
    // connections, a deadline for the request and for the whole connection, a size cap per frame.
    if (this.#stopping || this.#sockets.size >= (this.options.maxConnections ?? MAX_HOOK_CONNECTIONS)) {
      this.#counts.refused++;
      socket.destroy();
      return;
    }
    const state = { taken: false };
    this.#sockets.set(socket, state);
    let deadline = setTimeout(() => drop('timedOut'), this.options.requestMs ?? HOOK_REQUEST_MS);
    const drop = (reason: 'timedOut' | 'oversized'): void => {
      if (socket.destroyed) return;
      this.#counts[reason]++;
      socket.destroy();
    };
    socket.on('close', () => {
      clearTimeout(deadline);
      this.#sockets.delete(socket);
    });
    socket.on('error', () => socket.destroy());
    const read = frameReader((raw) => {
      if (state.taken) return;
      state.taken = true;
      clearTimeout(deadline);
      deadline = setTimeout(() => drop('timedOut'), UNNAMED_DEADLINE_MS);
      const hold = (ms: number): void => {
        clearTimeout(deadline);
        deadline = setTimeout(() => drop('timedOut'), ms + ANSWER_MARGIN_MS + HOOK_REQUEST_MS);
      };
      // One broken request must not take the others down: the runner then gets no answer and
      // runs the event itself (or, past its deadline, prints nothing).
      void this.#handle(socket, raw as HookServerRequest, hold)
        .catch(() => socket.destroy())
        .finally(() => {
          socket.end();
          // A client that never closes its side is let go shortly after its answer.
          hold(0);
        });
    }, MAX_REQUEST_BYTES);
    socket.on('data', (chunk: Buffer) => {
      if (state.taken) return; // one request per connection: anything after it is not read
      if (!read(chunk)) drop('oversized');
    });
  }

  async #handle(socket: net.Socket, request: HookServerRequest, hold: (ms: number) => void): Promise<void> {
    const send = (frame: HookServerFrame): void => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(frame)}\n`);
    };
    // Any runner may ask who runs (`hooks status`, a starting server) or ask it to leave.
    if (request.kind === 'ping') {
      const fault = this.#storageFault === undefined ? {} : { storageFault: this.#storageFault };
      return send({ kind: 'pong', pid: this.info.pid, since: this.info.since, build: this.info.build, protocol: HOOK_SERVER_PROTOCOL, connections: this.connections, openSessions: this.#hold.size, ...fault });
    }
    if (request.kind === 'stop') {
      send({ kind: 'stopping' });
      void this.#stop();
      return;
    }
    if (request.protocol !== HOOK_SERVER_PROTOCOL || request.build !== this.info.build) {
      // Not a runner of this build (its own server has another socket): it runs the event itself.
      // This server stays for its own runners.
      send({ kind: 'mismatch', build: this.info.build, protocol: HOOK_SERVER_PROTOCOL });
      return;
    }
    if (request.kind !== 'hook' || typeof request.stdinText !== 'string' || !Array.isArray(request.argv)) return;
    // A runner that already gave up (this server was too slow to take it) runs the event itself.
    if (socket.destroyed || socket.readableEnded) return;
    send({ kind: 'accepted' });
    this.#running++;
    this.#taken++;
    clearTimeout(this.#idle);
    try {
      await this.#run(socket, request, send, hold);
    } finally {
      this.#running--;
      if (this.#stopping) this.#maybeFinish();
      else this.#armIdle();
    }
  }

  async #run(socket: net.Socket, request: HookServerRequest & { kind: 'hook' }, send: (frame: HookServerFrame) => void, hold: (ms: number) => void): Promise<void> {
    let output = '';
    const summary = await runHook({
      argv: request.argv,
      stdinText: request.stdinText,
      env: request.env,
      cwd: request.cwd,
      startedAt: request.startedAt,
      write: (text) => (output += text),
      onDeadline: (ms) => {
        hold(ms);
        send({ kind: 'deadline', ms });
      },
      drainer: { nodePath: process.execPath, scriptPath: this.options.entryPath, leadingArguments: [] },
      via: 'server',
      build: this.info.build,
    });
    // A disk that refused a write is named by `hooks status` until a later Stop writes again.
    if (summary.storageFault !== undefined) this.#storageFault = { ...summary.storageFault, at: new Date().toISOString(), event: summary.event };
    else if (DURABLE_EVENTS.includes(summary.event) && summary.outcome !== 'failed') this.#storageFault = undefined;
    // Memory turned off, consent withdrawn or the folder untrusted (in config or the memory
    // switches: Disconnect, `hooks uninstall`, the extension): nothing to keep warm.
    if (!summary.consented && SWITCHED_OFF.includes(summary.outcome)) void this.#stop();
    // An open session holds the server through idle whiles; its end (or memory closing for it) lets go.
    if (summary.session !== undefined) {
      if (summary.event === 'SessionEnd') this.#hold.ended(summary.session.id);
      else this.#hold.seen(summary.session.id, Date.now(), stillOpenFor(request, summary.session));
    }
    if (socket.destroyed || socket.writableEnded) {
      // The runner gave up (its deadline passed): what it printed was nothing.
      if (summary.stateDirectory !== undefined) await appendHookLog(summary.stateDirectory, `${summary.event} late runner-left-before-the-answer`);
      return;
    }
    send({ kind: 'done', output });
  }

  async #stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    clearTimeout(this.#idle);
    clearInterval(this.#check);
    // Only remove the socket and the info file while they are still this server's.
    if ((await readHookServerInfo(this.options.place.info))?.pid === process.pid) {
      await fs.rm(this.options.place.info, { force: true }).catch(() => undefined);
      if (process.platform !== 'win32') await fs.rm(this.options.place.socket, { force: true }).catch(() => undefined);
    }
    this.server.close();
    // Connections that never sent a request must not keep it; those with one end on their own
    // deadline, and their answers (`stopping`, `done`) still go out.
    for (const [socket, state] of this.#sockets) if (!state.taken) socket.destroy();
    this.#released = true;
    this.#maybeFinish();
  }

  #maybeFinish(): void {
    if (this.#released && this.#running === 0) this.#resolveStopped();
  }
}
