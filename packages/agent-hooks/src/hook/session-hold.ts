// Which agent sessions keep the hook server through an idle while. A session that a consented event
// named, and that has not ended (SessionEnd), is open: its next prompt may come after a coffee break,
// and it should find the server warm rather than pay a cold start. A session is let go when it ends,
// when its last event is older than the hold limit (an agent that crashed never sends SessionEnd), or
// when memory is no longer open for it (turned off, consent withdrawn, a memory switch, no longer
// trusted): asked afresh each time the server falls idle.

/** How long after a session's last event it may keep the server: a long break, not a forgotten window. */
export const SESSION_HOLD_MS = 2 * 60 * 60_000;
/** Sessions remembered at most (the oldest go first): runners are a handful of agents, not hundreds. */
export const MAX_HELD_SESSIONS = 64;

/** Whether memory is still open for the session's workspace (re-reads config, consent and switches). */
export type StillOpen = () => Promise<boolean>;

interface HeldSession {
  readonly lastEventAt: number;
  readonly stillOpen: StillOpen;
}

export class SessionHold {
  readonly #sessions = new Map<string, HeldSession>();

  constructor(
    private readonly holdMs = SESSION_HOLD_MS,
    private readonly maxSessions = MAX_HELD_SESSIONS,
  ) {}

  /** An event of `sessionId` ran with memory open at `now`. */
  seen(sessionId: string, now: number, stillOpen: StillOpen): void {
    // Re-inserted: the map's order is oldest-first, so the cap drops the longest-quiet session.
    this.#sessions.delete(sessionId);
    this.#sessions.set(sessionId, { lastEventAt: now, stillOpen });
    for (const oldest of this.#sessions.keys()) {
      if (this.#sessions.size <= this.maxSessions) break;
      this.#sessions.delete(oldest);
    }
  }

  /** The agent ended the session: it holds nothing any more. */
  ended(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Drops the sessions that no longer hold (past the hold limit at `now`, or memory closed for them)
   * and says whether any still does. A check that fails counts as closed: nothing is held on doubt.
   */
  async holding(now: number): Promise<boolean> {
    for (const [sessionId, session] of this.#sessions) {
      if (now - session.lastEventAt > this.holdMs) this.#sessions.delete(sessionId);
    }
    const checked = await Promise.all(
      [...this.#sessions].map(async ([sessionId, session]) => ({ sessionId, session, open: await session.stillOpen().catch(() => false) })),
    );
    for (const { sessionId, session, open } of checked) {
      // A newer event of the session (seen while checking) replaced the entry: it stands.
      if (!open && this.#sessions.get(sessionId) === session) this.#sessions.delete(sessionId);
    }
    return this.#sessions.size > 0;
  }
}
