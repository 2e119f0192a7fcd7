// Where the hook server of each runner build listens for a user, and what runner and server say to
// each other. The tiny runner entry imports this, so it uses node built-ins only.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Bumped when the frames below change; a runner never talks to a server of another protocol. */
export const HOOK_SERVER_PROTOCOL = 1;
/** `GRAPHITI_MEMORY_HOOK_SERVER=off` keeps every hook in its own process (no background server). */
export const HOOK_SERVER_VARIABLE = 'GRAPHITI_MEMORY_HOOK_SERVER';

/**
 * The largest request a server reads: an event is its hook input (ids, paths, a prompt), never a
 * transcript (read from disk). A runner with a larger one runs it itself; a server drops the frame.
 */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/** The variables that decide whose config and state a hook uses: one server per distinct set. */
const USER_VARIABLES = ['GRAPHITI_MEMORY_CONFIG_DIR', 'HOME', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME'] as const;
/** What a request carries of the runner's environment: config, paths, and what spawning needs. */
const FORWARDED_VARIABLE = /^(GRAPHITI_|XDG_)|^(HOME|USERPROFILE|APPDATA|LOCALAPPDATA|PATH|Path|SystemRoot|TEMP|TMP|TMPDIR|ELECTRON_RUN_AS_NODE)$/;

/** The private folder the servers of every runner build live in, and whose config they serve. */
export interface HookServerFolder {
  readonly folder: string;
  /** A hash of the variables that decide whose config and state a hook uses. */
  readonly user: string;
}

/** Where the server of one runner build listens, for one user. */
export interface HookServerPlace extends HookServerFolder {
  /** Unix socket path, or a Windows named pipe. */
  readonly socket: string;
  /** `{ pid, since, build, protocol, socket, user }` of the running server. */
  readonly info: string;
  /** Target of the start lock (one server under races). */
  readonly lock: string;
}

export interface HookServerInfo {
  readonly pid: number;
  readonly since: string;
  readonly build: string;
  readonly protocol: number;
  readonly socket: string;
  /** Absent in the files of servers from before builds had a socket each. */
  readonly user?: string;
}

/** The info file of a server in the private folder (`hook-<hash>.json`); the capture is the socket's base name. */
export const HOOK_SERVER_INFO_FILE = /^(hook-[0-9a-f]+)\.json$/;

/** A server's info file as it is on disk; `undefined` when it is gone, torn or being written. */
export async function readHookServerInfo(file: string): Promise<Partial<HookServerInfo> | undefined> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Partial<HookServerInfo>;
  } catch {
    return undefined;
  }
}

/** What a server did with its connections, for `hooks status` and tests (absent from older servers). */
/** The last write a disk refused in a run of this server (code and path only), until a later run wrote. */
export interface HookServerStorageFault {
  readonly code: string;
  readonly path: string;
  readonly message: string;
  /** When the run failed (ISO time). */
  readonly at: string;
  readonly event: string;
}

export interface HookServerConnections {
  /** Open now. */
  readonly open: number;
  /** Refused at once: the server already held its cap of connections. */
  readonly refused: number;
  /** Destroyed for sending no full request in time, or holding on past the event's deadline. */
  readonly timedOut: number;
  /** Destroyed for a request past the size cap, or one that is not JSON. */
  readonly oversized: number;
}

/** A request: one hook event, a liveness check, or a request to step down. */
export type HookServerRequest =
  | {
      readonly kind: 'hook';
      readonly protocol: number;
      readonly build: string;
      readonly argv: readonly string[];
      readonly stdinText: string;
      readonly cwd: string;
      readonly env: Record<string, string>;
      /** When the runner started (epoch ms): deadlines count from here. */
      readonly startedAt: number;
    }
  | { readonly kind: 'ping' | 'stop'; readonly protocol: number; readonly build: string };

/**
 * Server frames, one JSON a line: `accepted` at once, `deadline` once the config is read, then
 * `done` (or `mismatch`, `pong`, `stopping`).
 */
export type HookServerFrame =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'deadline'; readonly ms: number }
  | { readonly kind: 'done'; readonly output: string }
  | { readonly kind: 'mismatch'; readonly build: string; readonly protocol: number }
  | { readonly kind: 'pong'; readonly pid: number; readonly since: string; readonly build: string; readonly protocol: number; readonly connections?: HookServerConnections; readonly openSessions?: number; readonly storageFault?: HookServerStorageFault }
  | { readonly kind: 'stopping' };

export function hookServerEnabled(env: NodeJS.ProcessEnv): boolean {
  const value = env[HOOK_SERVER_VARIABLE]?.trim().toLowerCase();
  return !(value === 'off' || value === '0' || value === 'false');
}

/**
 * How long a hook server waits without an event before it leaves or, for an open session, checks
 * again (`GRAPHITI_MEMORY_HOOK_SERVER_IDLE_MS` in the environment that starts it, for tests and
 * benchmarks); `undefined`: the default, 15 minutes. A value that is not a whole number of at
 * least 100 ms is ignored.
 */
export const HOOK_SERVER_IDLE_VARIABLE = 'GRAPHITI_MEMORY_HOOK_SERVER_IDLE_MS';

/**
 * The session of the event that started a server (the runner answered it itself): where it ran and
 * its ids, never its prompt. Set by the runner in the environment of the server it starts, so the
 * server holds for that session as for those it serves.
 */
export const HOOK_SERVER_SESSION_VARIABLE = 'GRAPHITI_MEMORY_HOOK_SERVER_SESSION';

/** The agent session an event named, and where it ran (its cwd and transcript): no content. */
export interface HookSession {
  readonly id: string;
  readonly cwd?: string;
  readonly transcriptPath?: string;
}

/** A session of an event, with how that event was run: what the server re-reads to ask whether memory is still open there. */
export interface HeldSessionSeed {
  readonly session: HookSession;
  readonly argv: readonly string[];
  readonly cwd: string;
}

/** The seed a runner hands the server it starts. */
export function heldSessionSeed(seed: HeldSessionSeed): string {
  return JSON.stringify(seed);
}

/** The seed a server was started with, if any and well-formed. */
export function readHeldSessionSeed(env: NodeJS.ProcessEnv): HeldSessionSeed | undefined {
  try {
    const { session, argv, cwd } = JSON.parse(env[HOOK_SERVER_SESSION_VARIABLE] ?? '') as Partial<HeldSessionSeed>;
    if (typeof session?.id !== 'string' || typeof cwd !== 'string' || !Array.isArray(argv) || !argv.every((item) => typeof item === 'string')) return undefined;
    const optional = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
    const sessionCwd = optional(session.cwd);
    const transcriptPath = optional(session.transcriptPath);
    return { session: { id: session.id, ...(sessionCwd === undefined ? {} : { cwd: sessionCwd }), ...(transcriptPath === undefined ? {} : { transcriptPath }) }, argv, cwd };
  } catch {
    return undefined;
  }
}

export function hookServerIdleMs(env: NodeJS.ProcessEnv): number | undefined {
  const value = Number(env[HOOK_SERVER_IDLE_VARIABLE]?.trim() ?? '');
  return Number.isSafeInteger(value) && value >= 100 ? value : undefined;
}

/**
 * This user's private folder for hook servers, created if need be; `undefined` when it is not
 * safely ours (another user's, or open to others): then hooks run in their own process.
 */
export function hookServerFolder(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): HookServerFolder | undefined {
  const user = createHash('sha256')
    .update(JSON.stringify(USER_VARIABLES.map((name) => env[name] ?? '')))
    .digest('hex')
    .slice(0, 16);
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  // Short and private: Unix socket paths are limited to ~104 bytes, so not under the config folder.
  const runtime = platform !== 'win32' && env['XDG_RUNTIME_DIR'] !== undefined && env['XDG_RUNTIME_DIR'] !== '' ? env['XDG_RUNTIME_DIR'] : os.tmpdir();
  const folder = path.join(runtime, `graphiti-memory-${uid ?? 'user'}`);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = lstatSync(folder);
    if (!stat.isDirectory()) return undefined;
    if (platform !== 'win32' && (stat.mode & 0o077) !== 0) return undefined;
    if (uid !== undefined && stat.uid !== uid) return undefined;
  } catch {
    return undefined;
  }
  return { folder, user };
}

/**
 * The place of the server of runner `build` for this user. Each build has its own, so the runners
 * of two builds (the harness's for Claude Code, the extension's copy for Copilot) each keep a warm
 * server instead of replacing each other's. One hash of user, build and protocol names it: a name
 * with both in full would pass macOS's 104-byte socket path limit under its temp folder.
 */
export function hookServerPlace(env: NodeJS.ProcessEnv, build: string, platform: NodeJS.Platform = process.platform): HookServerPlace | undefined {
  const found = hookServerFolder(env, platform);
  if (found === undefined) return undefined;
  const name = `hook-${createHash('sha256').update(JSON.stringify([found.user, build, HOOK_SERVER_PROTOCOL])).digest('hex').slice(0, 16)}`;
  return {
    ...found,
    socket: platform === 'win32' ? `\\\\.\\pipe\\graphiti-memory-${name}` : path.join(found.folder, `${name}.sock`),
    info: path.join(found.folder, `${name}.json`),
    lock: path.join(found.folder, name),
  };
}

/** The part of the runner's environment a request carries. */
export function forwardedEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && FORWARDED_VARIABLE.test(name)) forwarded[name] = value;
  return forwarded;
}

/**
 * Splits newline-delimited JSON frames off a stream; calls `onFrame` per parsed frame. Returns
 * false (drop the stream) once an unfinished frame passes `maxBytes` or a frame is not JSON. Chunks
 * are kept as they came until a newline arrives: a slow large frame is never copied over and over.
 */
export function frameReader(onFrame: (frame: unknown) => void, maxBytes: number): (chunk: Buffer | string) => boolean {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  return (chunk) => {
    let rest = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let newline = rest.indexOf(0x0a);
    while (newline >= 0) {
      const line = Buffer.concat([...pending, rest.subarray(0, newline)]).toString('utf8');
      pending = [];
      pendingBytes = 0;
      rest = rest.subarray(newline + 1);
      if (line.length > maxBytes) return false;
      try {
        onFrame(JSON.parse(line));
      } catch {
        return false;
      }
      newline = rest.indexOf(0x0a);
    }
    if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
    return pendingBytes <= maxBytes;
  };
}
