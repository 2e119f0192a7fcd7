// The one MCP session a GraphitiMcpClient holds: opened on first use (the open is shared by
// concurrent calls), reused by every later call without waiting again, dropped when the server has
// forgotten it (a restart) so the next call opens a new one, and ended with a DELETE on close.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export interface Session {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  readonly ready: Promise<void>;
  /** Set once `ready` has resolved: later calls use the session without waiting on `ready`. */
  opened: boolean;
}

/** Rejects with the caller's abort as soon as `signal` fires; the shared work goes on. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined, onAbort: () => Error): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const aborted = (): void => reject(onAbort());
    signal.addEventListener('abort', aborted, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', aborted);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', aborted);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export class McpSession {
  private current: Session | undefined;

  constructor(
    private readonly endpoint: URL,
    private readonly fetch: FetchLike,
  ) {}

  /**
   * The open session, opening one (bounded by `timeoutMs`) when there is none. A caller's abort
   * rejects with `onAbort()` at once; an open under way goes on for the other callers.
   */
  connected(timeoutMs: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<Session> {
    let session = this.current;
    if (session === undefined) {
      const client = new Client({ name: 'graphiti-memory', version: '1' });
      const transport = new StreamableHTTPClientTransport(this.endpoint, {
        fetch: this.fetch,
        // The server-to-client stream carries nothing we use: do not keep re-opening it.
        reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1_000, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1 },
      });
      // A dropped server-to-client stream is reported here; the next call finds out what matters.
      client.onerror = () => undefined;
      const ready = client.connect(transport, { timeout: timeoutMs });
      const opening: Session = { client, transport, ready, opened: false };
      session = opening;
      this.current = opening;
      ready.then(
        () => {
          opening.opened = true;
        },
        () => {
          this.forget(opening);
        },
      );
    } else if (session.opened && signal?.aborted !== true) {
      return Promise.resolve(session);
    }
    const opened = session;
    return untilAborted(opened.ready, signal, onAbort).then(() => opened);
  }

  /** Drops `session` (the server no longer knows it) unless a newer one replaced it already. */
  forget(session: Session): void {
    if (this.current !== session) return;
    this.current = undefined;
    void session.client.close().catch(() => undefined);
  }

  /**
   * Ends the session: a DELETE so the server can free it, best effort and bounded by `timeoutMs`.
   * False when the server did not answer the DELETE in time (its connection may still be busy).
   */
  async end(timeoutMs: number): Promise<boolean> {
    const session = this.current;
    this.current = undefined;
    if (session === undefined) return true;
    let ended = true;
    const opened = await session.ready.then(
      () => true,
      () => false,
    );
    if (opened) {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const terminated = session.transport.terminateSession().then(
        () => true,
        () => true,
      );
      ended = await Promise.race([terminated, bound]);
      clearTimeout(timer);
    }
    await session.client.close().catch(() => undefined);
    return ended;
  }
}
