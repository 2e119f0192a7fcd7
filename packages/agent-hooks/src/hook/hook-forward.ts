// The runner's side of the hook server: hand the event over one local socket and wait for the
// answer under the runner's own deadline. Node built-ins only (the runner entry imports this).
import net from 'node:net';
import { frameReader, MAX_REQUEST_BYTES, type HookServerFrame, type HookServerPlace, type HookServerRequest } from './hook-server-place.js';

export type ForwardResult =
  /** The server answered; its output (maybe empty) is what the hook prints. */
  | { readonly kind: 'served'; readonly output: string }
  /** No server (no socket, a stale one, refused, or it went away before taking the event). */
  | { readonly kind: 'unavailable' }
  /** A server of another build or protocol answered (it serves its own runners only): not used. */
  | { readonly kind: 'mismatch' }
  /** The server took the event but missed the deadline: nothing is printed. */
  | { readonly kind: 'late' };

/** A server that has not taken the event this long after it was handed over is stuck: bypassed. */
export const ACCEPT_MS = 150;
/** Until the server names the event's deadline (it reads the config first), the runner waits this. */
export const FIRST_DEADLINE_MS = 750;
/** Room after the server's deadline for its answer to arrive and be printed. */
export const ANSWER_MARGIN_MS = 150;
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export function forwardHookEvent(place: Pick<HookServerPlace, 'socket'>, request: HookServerRequest & { kind: 'hook' }): Promise<ForwardResult> {
  const line = `${JSON.stringify(request)}\n`;
  // The server would drop it unread: the runner runs it itself, at once.
  if (Buffer.byteLength(line, 'utf8') > MAX_REQUEST_BYTES) return Promise.resolve({ kind: 'unavailable' });
  return new Promise((resolve) => {
    let settled = false;
    let accepted = false;
    const socket = net.connect(place.socket);
    const finish = (result: ForwardResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const arm = (deadlineMs: number): NodeJS.Timeout =>
      setTimeout(() => finish(accepted ? { kind: 'late' } : { kind: 'unavailable' }), Math.max(0, request.startedAt + deadlineMs + ANSWER_MARGIN_MS - Date.now()));
    let timer = setTimeout(() => finish({ kind: 'unavailable' }), ACCEPT_MS);
    const read = frameReader((raw) => {
      const frame = raw as HookServerFrame;
      if (frame.kind === 'accepted' && !accepted) {
        accepted = true;
        clearTimeout(timer);
        timer = arm(FIRST_DEADLINE_MS);
      } else if (frame.kind === 'deadline' && typeof frame.ms === 'number') {
        accepted = true;
        clearTimeout(timer);
        timer = arm(frame.ms);
      } else if (frame.kind === 'done' && typeof frame.output === 'string') finish({ kind: 'served', output: frame.output });
      else if (frame.kind === 'mismatch') finish({ kind: 'mismatch' });
    }, MAX_ANSWER_BYTES);
    socket.on('connect', () => socket.write(line));
    socket.on('data', (chunk: Buffer) => {
      if (!read(chunk)) finish({ kind: 'unavailable' });
    });
    // Refused, missing or stale socket, or the server died mid-request: the caller runs it itself.
    socket.on('error', () => finish(accepted ? { kind: 'late' } : { kind: 'unavailable' }));
    socket.on('close', () => finish(accepted ? { kind: 'late' } : { kind: 'unavailable' }));
  });
}

/** Asks whatever listens on the place who it is; `undefined` when nothing answers in `timeoutMs`. */
export function pingHookServer(place: Pick<HookServerPlace, 'socket'>, build: string, protocol: number, kind: 'ping' | 'stop' = 'ping', timeoutMs = 500): Promise<HookServerFrame | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    const socket = net.connect(place.socket);
    const finish = (frame: HookServerFrame | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(frame);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    const read = frameReader((frame) => finish(frame as HookServerFrame), 64 * 1024);
    socket.on('connect', () => socket.write(`${JSON.stringify({ kind, protocol, build } satisfies HookServerRequest)}\n`));
    socket.on('data', (chunk: Buffer) => {
      if (!read(chunk)) finish(undefined);
    });
    socket.on('error', () => finish(undefined));
    socket.on('close', () => finish(undefined));
  });
}
