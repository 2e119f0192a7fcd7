// Say it once in `@memory`: each chat session's recall leaves out the facts an earlier turn of the
// same session already gave (unless they changed since), through memory-core's SaidOnceStore kept
// in process. VS Code hands a participant only the text of earlier turns, not the prompt they were
// built with, so the facts given earlier are kept here too and put back into the prompt once, with
// the history (they go first when the budget is short): each fact is in the prompt once.
import { inject, injectable } from 'inversify';
import { SaidOnceStore, unsaidFacts, type RecalledFact } from '@graphiti-memory/memory-core';

/** Facts kept per session for the prompt's history, the newest; older ones are left to the answers. */
const MAX_EARLIER_FACTS = 50;
/** Chat sessions remembered at once; the least recently used goes first. */
const MAX_SESSIONS = 100;

@injectable()
export class ChatSessionFacts {
  private readonly earlier = new Map<string, RecalledFact[]>();

  constructor(@inject(SaidOnceStore) private readonly said: SaidOnceStore) {}

  /** The recalled facts this session was not given yet, or that changed since. */
  async notYetGiven(sessionId: string, facts: readonly RecalledFact[]): Promise<RecalledFact[]> {
    return unsaidFacts(facts, await this.said.said(sessionId));
  }

  /** What earlier turns of the session gave, oldest first. */
  givenEarlier(sessionId: string): readonly RecalledFact[] {
    return this.earlier.get(sessionId) ?? [];
  }

  /** Records facts this turn's prompt carried; a newer version of a fact replaces the older. */
  async given(sessionId: string, facts: readonly RecalledFact[]): Promise<void> {
    if (facts.length === 0) return;
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
}
