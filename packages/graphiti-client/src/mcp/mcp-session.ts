// The one MCP session a GraphitiMcpClient holds: opened on first use (the open is shared by
// concurrent calls), reused by every later call without waiting again, dropped when the server has
// forgotten it (a restart) so the next call opens a new one, and ended with a DELETE on close.
// Opening the first session is what loads the MCP SDK (load-mcp-sdk.ts).
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { untilAborted } from '../until-aborted.js';
import { loadMcpSdk } from './load-mcp-sdk.js';
import type { Session } from './mcp-sdk.js';

export type { Session } from './mcp-sdk.js';

interface Opening {
  readonly ready: Promise<Session>;
  /** Set once `ready` has resolved: later calls use the session without waiting on `ready`. */
  session: Session | undefined;
}

export class McpSession {
  private current: Opening | undefined;

  constructor(
    private readonly endpoint: URL,
    private readonly fetch: FetchLike,
  ) {}

  /**
   * The open session, opening one (bounded by `timeoutMs`) when there is none. A caller's abort
   * rejects with `onAbort()` at once; an open under way goes on for the other callers.
   */
  connected(timeoutMs: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<Session> {
    let opening = this.current;
    if (opening === undefined) {
      const ready = loadMcpSdk().then((sdk) => sdk.openSession(this.endpoint, this.fetch, timeoutMs));
      const created: Opening = { ready, session: undefined };
      opening = created;
      this.current = created;
      ready.then(
        (session) => {
          created.session = session;
        },
        () => {
          if (this.current === created) this.current = undefined;
        },
      );
    } else if (opening.session !== undefined && signal?.aborted !== true) {
      return Promise.resolve(opening.session);
    }
    return untilAborted(opening.ready, signal, onAbort);
  }

  /** Drops `session` (the server no longer knows it) unless a newer one replaced it already. */
  forget(session: Session): void {
    if (this.current?.session !== session) return;
    this.current = undefined;
    void session.client.close().catch(() => undefined);
  }

  /**
   * Ends the session: a DELETE so the server can free it, best effort and bounded by `timeoutMs`.
   * False when the server did not answer the DELETE in time (its connection may still be busy).
   */
  async end(timeoutMs: number): Promise<boolean> {
    const opening = this.current;
    this.current = undefined;
    if (opening === undefined) return true;
    // A session that never opened closed itself (openSession); there is nothing to end.
    const session = await opening.ready.catch(() => undefined);
    if (session === undefined) return true;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const terminated = session.transport.terminateSession().then(
      () => true,
      () => true,
    );
    const ended = await Promise.race([terminated, bound]);
    clearTimeout(timer);
    await session.client.close().catch(() => undefined);
    return ended;
  }
}
