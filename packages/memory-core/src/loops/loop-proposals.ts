// Loops proposed by the user's chat model (`loops.proposeWithModel`, opt-in, VS Code only): when a
// session's digest closes, the model is asked which commitments, to-dos and open questions the
// session left open and which open loops of the workspace it finished. Its answer is read strictly
// (loop-proposal-format.ts) and each proposal waits in pending review (source `loop-proposal`),
// even with `autoPromote.review` off: approving it opens or closes the loop through LoopService.
// Nothing is asked when the setting is off, no proposer is bound (hooks, harness) or the gate is
// closed (memory off, untrusted, no consent). It runs off ingestion's path, one session at a time,
// under a deadline, a bounded queue; whatever goes wrong, nothing is proposed and capture goes on.
import { inject, injectable, optional } from 'inversify';
import { errorClassOf } from '../errors/graphiti-failure.js';
import { MemoryGate } from '../gate/memory-gate.js';
import { Clock, Logger } from '../ports.js';
import { PromotionService } from '../promotion/promotion-service.js';
import { GroupRecorderOptions } from '../registry/group-recorder.js';
import { PendingMemoryStore, pendingMemoryId, type PendingLoop, type PendingMemory } from '../review/pending-memory-store.js';
import { MemoryConfiguration } from '../settings/memory-configuration.js';
import { toolLabel } from '../sources/message-source-stamp.js';
import { loopProposalPrompt, MAX_PROPOSAL_ANSWER_CHARS, MAX_PROPOSAL_OPEN_LOOPS, parseLoopProposal } from './loop-proposal-format.js';
import { DEFAULT_LOOP_PROPOSAL_OPTIONS, LoopProposalOptions, LoopProposer } from './loop-proposer.js';
import { LoopService } from './loop-service.js';
import type { LoopEvidence, OpenLoop } from './open-loop.js';

/** A session digest that closed: what the model reads, and where its proposals come from. */
export interface ClosedSessionDigest {
  /** The digest message's name: one digest is asked about once. */
  readonly name: string;
  readonly sessionId: string;
  /** The group the digest goes to: a forget of it drops the proposals. */
  readonly groupId: string;
  /** The filtered digest's text (filtered, redacted and neutralised by planning). */
  readonly transcript: string;
  readonly turns: number;
  /** ISO 8601: the digest's reference time (its last turn). */
  readonly at?: string;
  /** The tool that captured it, as a person names it. */
  readonly tool?: string;
}

/** What asking about one session did. */
export type LoopProposalOutcome =
  | { readonly status: 'proposed'; readonly pending: readonly PendingMemory[]; readonly refused: number }
  | { readonly status: 'skipped'; readonly reason: 'off' | 'no-proposer' | 'gate-closed' | 'no-workspace' | 'no-pending-store' }
  | { readonly status: 'no-answer'; readonly reason: string }
  /** The answer was not exactly the format: ignored whole. */
  | { readonly status: 'ignored' };

/** Digest names remembered as asked about (the oldest are let go). */
const MAX_REMEMBERED_DIGESTS = 500;

@injectable()
export class LoopProposals {
  readonly #options: LoopProposalOptions;
  readonly #tool: string;
  readonly #asked = new Set<string>();
  #queued = 0;
  #chain: Promise<void> = Promise.resolve();

  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(LoopService) private readonly loops: Pick<LoopService, 'list'>,
    @inject(PromotionService) private readonly promotion: PromotionService,
    @inject(Clock) private readonly clock: Clock,
    @inject(Logger) private readonly logger: Logger,
    @inject(LoopProposer) @optional() private readonly proposer?: LoopProposer,
    @inject(PendingMemoryStore) @optional() private readonly pending?: PendingMemoryStore,
    @inject(LoopProposalOptions) @optional() options?: Partial<LoopProposalOptions>,
    @inject(GroupRecorderOptions) @optional() recorder?: GroupRecorderOptions,
  ) {
    this.#options = { ...DEFAULT_LOOP_PROPOSAL_OPTIONS, ...options };
    this.#tool = recorder?.tool ?? 'unknown';
  }

  /**
   * Asks about the sessions of these closing digests in the background, one session at a time;
   * returns at once and never throws. Nothing is queued while the setting is off, no proposer is
   * bound or the gate is closed. `signal` (the host shutting down) ends waiting for the model.
   */
  offer(digests: readonly ClosedSessionDigest[], signal?: AbortSignal): void {
    if (digests.length === 0 || this.#skipReason() !== undefined) return;
    const fresh = digests.filter((digest) => !this.#asked.has(digest.name));
    for (const digest of fresh) this.#remember(digest.name);
    for (const session of bySession(fresh)) {
      if (this.#queued >= this.#options.maxQueued) {
        this.logger.warn('loops: a session was not asked about loops; too many wait for the chat model', { queued: this.#queued });
        continue;
      }
      this.#queued++;
      this.#chain = this.#chain.then(async () => {
        try {
          const outcome = await this.propose(session, signal);
          this.#log(outcome, session.length);
        } catch (error) {
          this.logger.warn('loops: asking the chat model about loops failed', { errorClass: errorClassOf(error) });
        } finally {
          this.#queued--;
        }
      });
    }
  }

  /** Resolves once every session offered so far was asked about (tests, shutdown). */
  settled(): Promise<void> {
    return this.#chain;
  }

  /** Asks about one session's digests (all of one session, one per group) now; keeps the proposals for review. */
  async propose(digests: readonly ClosedSessionDigest[], signal?: AbortSignal): Promise<LoopProposalOutcome> {
    const skipped = this.#skipReason();
    if (skipped !== undefined) return { status: 'skipped', reason: skipped };
    const proposer = this.proposer as LoopProposer;
    const pending = this.pending;
    if (pending === undefined) return { status: 'skipped', reason: 'no-pending-store' };
    const [first] = digests;
    if (first === undefined) return { status: 'skipped', reason: 'off' };
    const listed = await this.loops.list();
    if (listed === undefined) return { status: 'skipped', reason: 'no-workspace' };
    const shown = listed.loops.slice(0, MAX_PROPOSAL_OPEN_LOOPS);
    // The longest of the session's digests: the groups' digests of one session hold the same turns.
    const digest = digests.reduce((longest, each) => (each.transcript.length > longest.transcript.length ? each : longest), first);
    const request = { prompt: loopProposalPrompt(digest.transcript, digest.turns, shown), model: this.configuration.current().capture.digestModel, maxAnswerChars: MAX_PROPOSAL_ANSWER_CHARS };
    const answer = await this.#ask(proposer, request, signal);
    if (typeof answer !== 'string') return answer;
    const proposal = parseLoopProposal(answer, shown);
    if (proposal === undefined) return { status: 'ignored' };
    const evidence: LoopEvidence = { tool: digest.tool ?? toolLabel(this.#tool), sessionId: digest.sessionId, at: digest.at ?? new Date(this.clock.now()).toISOString() };
    const groupIds = [...new Set([listed.groupId, ...digests.map((each) => each.groupId)])];
    const kept: PendingMemory[] = [];
    let refused = 0;
    const loops: PendingLoop[] = [
      ...proposal.open.map((text) => ({ action: 'open' as const, text, evidence })),
      ...proposal.done.map((loop: OpenLoop) => ({ action: 'done' as const, text: loop.text, loopId: loop.id, evidence })),
    ];
    for (const loop of loops) {
      const memory = await this.#pending(loop, listed.groupId, groupIds);
      if (memory === undefined) {
        refused++;
        continue;
      }
      if (await pending.add(memory)) kept.push(memory);
    }
    return { status: 'proposed', pending: kept, refused };
  }

  #skipReason(): 'off' | 'no-proposer' | 'gate-closed' | undefined {
    if (!this.configuration.current().loops.proposeWithModel) return 'off';
    if (this.proposer === undefined) return 'no-proposer';
    if (!this.gate.evaluate().open) return 'gate-closed';
    return undefined;
  }

  /** The pending memory of one proposal; `undefined` when a promotion of its text is refused (a secret, the gate). */
  async #pending(loop: PendingLoop, groupId: string, groupIds: readonly string[]): Promise<PendingMemory | undefined> {
    const text = proposalText(loop);
    const plan = await this.promotion.plan({ kind: 'task_update', scope: 'workspace', text });
    if (!plan.ok) return undefined;
    return {
      id: await pendingMemoryId('task_update', 'workspace', text),
      kind: 'task_update',
      scope: 'workspace',
      text,
      source: 'loop-proposal',
      createdAt: this.clock.now(),
      ...(loop.evidence.sessionId === undefined ? {} : { sessionId: loop.evidence.sessionId }),
      groupId,
      groupIds,
      loop,
    };
  }

  /** The model's raw answer, or why there is none. */
  async #ask(proposer: LoopProposer, request: Parameters<LoopProposer['propose']>[0], signal: AbortSignal | undefined): Promise<string | LoopProposalOutcome> {
    // A function, not a narrowed read: the signal may abort while the model works.
    const stopped = (): boolean => signal?.aborted === true;
    if (stopped()) return { status: 'no-answer', reason: 'cancelled' };
    const deadline = new AbortController();
    const stop = (): void => deadline.abort();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const answer = proposer.propose(request, deadline.signal).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      const raced = await Promise.race([answer, this.clock.sleep(this.#options.deadlineMs, deadline.signal).then(() => 'timeout' as const)]);
      if (raced === 'timeout') return { status: 'no-answer', reason: stopped() ? 'cancelled' : 'timeout' };
      if ('error' in raced) return { status: 'no-answer', reason: `failed (${errorClassOf(raced.error)})` };
      if (!raced.result.ok) return { status: 'no-answer', reason: raced.result.reason };
      return raced.result.answer;
    } finally {
      signal?.removeEventListener('abort', stop);
      deadline.abort();
    }
  }

  #remember(name: string): void {
    if (this.#asked.size >= MAX_REMEMBERED_DIGESTS) {
      const oldest = this.#asked.values().next().value;
      if (oldest !== undefined) this.#asked.delete(oldest);
    }
    this.#asked.add(name);
  }

  /** Counts and outcomes only: never a loop's text. */
  #log(outcome: LoopProposalOutcome, digests: number): void {
    switch (outcome.status) {
      case 'proposed':
        this.logger.info('loops: the chat model proposed loops for review', { pending: outcome.pending.length, refused: outcome.refused, digests });
        return;
      case 'ignored':
        this.logger.warn('loops: the chat model did not answer in the loop format; its answer was ignored', { digests });
        return;
      case 'no-answer':
        this.logger.warn('loops: the chat model gave no loop proposal', { reason: outcome.reason, digests });
        return;
      case 'skipped':
        return;
    }
  }
}

/** The digests grouped by session, in order of first appearance. */
function bySession(digests: readonly ClosedSessionDigest[]): ClosedSessionDigest[][] {
  const sessions = new Map<string, ClosedSessionDigest[]>();
  for (const digest of digests) sessions.set(digest.sessionId, [...(sessions.get(digest.sessionId) ?? []), digest]);
  return [...sessions.values()];
}

/** What review shows of a proposal (`Open loop: …` / `Loop done: …`): the action is in the words. */
export function proposalText(loop: Pick<PendingLoop, 'action' | 'text'>): string {
  return `${loop.action === 'open' ? 'Open loop' : 'Loop done'}: ${loop.text}`;
}
