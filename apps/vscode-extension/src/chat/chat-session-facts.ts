// Say it once in `@memory`: each chat session's recall leaves out the facts an earlier turn of the
// same session already gave (unless they changed since), through memory-core's SaidOnceStore kept
// in process. VS Code hands a participant only the text of earlier turns, not the prompt they were
// built with, so the facts given earlier are kept here too and put back into the prompt once, with
// the history (they go first when the budget is short): each fact is in the prompt once.
// A forget, a revoked consent or Disable (ForgetEvents) withdraws all of it, for every chat: the
// next request of any chat carries nothing given before, and answers built on it are left out.
import { inject, injectable } from 'inversify';
import { SaidOnceStore, unsaidFacts, type RecalledFact } from '@graphiti-memory/memory-core';
import { ForgetEvents, type ForgetEvent } from '../memory/forget-events.js';

/** Facts kept per session for the prompt's history, the newest; older ones are left to the answers. */
const MAX_EARLIER_FACTS = 50;
/** Chat sessions remembered at once; the least recently used goes first. */
const MAX_SESSIONS = 100;

@injectable()
export class ChatSessionFacts {
  private readonly earlier = new Map<string, RecalledFact[]>();
  /** The last withdrawal (ms since the epoch): memory given before it may no longer be used. */
  #withdrawnAt: number | undefined;
  /** Withdrawals under way: a turn waits for them before it reads what its session was given. */
  #withdrawing: Promise<void> = Promise.resolve();

  constructor(
    @inject(SaidOnceStore) private readonly said: SaidOnceStore,
    @inject(ForgetEvents) events: ForgetEvents,
  ) {
    events.onDidForget((event) => {
      this.#withdrawing = this.#withdrawing.then(() => this.withdraw(event));
    });
  }

  /** The recalled facts this session was not given yet, or that changed since. */
  async notYetGiven(sessionId: string, facts: readonly RecalledFact[]): Promise<RecalledFact[]> {
    await this.#withdrawing;
    return unsaidFacts(facts, await this.said.said(sessionId));
  }

  /** What earlier turns of the session gave, oldest first. */
  givenEarlier(sessionId: string): readonly RecalledFact[] {
    return this.earlier.get(sessionId) ?? [];
  }

  /** When memory was last withdrawn; an answer given before then with memory is left out of the prompt. */
  withdrawnAt(): number | undefined {
    return this.#withdrawnAt;
  }

  /**
   * Records facts this turn's prompt carried; a newer version of a fact replaces the older.
   * `recalledAt`: when the turn recalled them; facts recalled before a withdrawal are not kept.
   */
  async given(sessionId: string, facts: readonly RecalledFact[], recalledAt?: number): Promise<void> {
    if (facts.length === 0) return;
    await this.#withdrawing;
    if (recalledAt !== undefined && this.#withdrawnAt !== undefined && recalledAt <= this.#withdrawnAt) return;
    await this.said.record(sessionId, { facts });
    const uuids = new Set(facts.map((fact) => fact.uuid));
    const kept = [...this.givenEarlier(sessionId).filter((fact) => !uuids.has(fact.uuid)), ...facts].slice(-MAX_EARLIER_FACTS);
    this.earlier.delete(sessionId);
    this.earlier.set(sessionId, kept);
    for (const oldest of this.earlier.keys()) {
      if (this.earlier.size <= MAX_SESSIONS) break;
      this.earlier.delete(oldest);
    }
  }

  /** Drops what every chat session was given: neither kept for its prompt nor counted as said. */
  async withdraw(event: Pick<ForgetEvent, 'at'>): Promise<void> {
    this.#withdrawnAt = Math.max(this.#withdrawnAt ?? 0, event.at);
    const sessions = [...this.earlier.keys()];
    this.earlier.clear();
    // A fact recalled again after the forget (still held by the server) is given again, not skipped as said.
    await Promise.all(sessions.map((sessionId) => this.said.record(sessionId, { facts: [] }, { fresh: true }).catch(() => undefined)));
  }
}
