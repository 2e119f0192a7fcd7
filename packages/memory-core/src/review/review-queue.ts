// The review queue: with `autoPromote.review` on (the default) a memory the assistant or a
// directive would promote is checked (gate, kind, secret guard) and kept as pending; only
// `approve` sends it. With review off it is sent at once, as before.
import { inject, injectable, optional } from 'inversify';
import { ForgetLedger } from '../forget/forget-ledger.js';
import { Ingestion } from '../ingestion/ingestion.js';
import { loopEpisodeText } from '../loops/loop-policy.js';
import { LoopService, type LoopProposalMiss } from '../loops/loop-service.js';
import { Clock, type OutboxEntry } from '../ports.js';
import { PromotionService, type PromotionRefusal, type PromotionRequest } from '../promotion/promotion-service.js';
import { LocalTier } from '../tier/local-tier.js';
import { MemoryConfiguration } from '../settings/memory-configuration.js';
import { PendingMemoryStore, pendingGroups, pendingMemoryId, type PendingLoop, type PendingMemory, type PendingMemorySource } from './pending-memory-store.js';

export interface ProposedMemory extends PromotionRequest {
  readonly source: PendingMemorySource;
  readonly sessionId?: string;
}

export type ProposeOutcome =
  | { readonly status: 'pending'; readonly memory: PendingMemory; readonly alreadyPending: boolean }
  | { readonly status: 'sent'; readonly entry: OutboxEntry }
  | { readonly status: 'refused'; readonly reason: PromotionRefusal };

export type ReviewOutcome =
  | { readonly status: 'sent'; readonly memory: PendingMemory; readonly entry: OutboxEntry }
  | { readonly status: 'rejected'; readonly memory: PendingMemory }
  | { readonly status: 'refused'; readonly memory: PendingMemory; readonly reason: PromotionRefusal }
  /** A group it belongs to was forgotten after it was proposed: dropped, nothing sent. */
  | { readonly status: 'forgotten'; readonly memory: PendingMemory; readonly groupIds: readonly string[] }
  | { readonly status: 'not-found'; readonly id: string }
  /**
   * A loop proposal that could not be applied: the loop it closes is no longer open (dropped,
   * nothing sent), or it belongs to another workspace or none is open (kept pending).
   */
  | { readonly status: 'not-applied'; readonly memory: PendingMemory; readonly reason: LoopProposalMiss; readonly kept: boolean };

/** Why a loop proposal was not applied, in the words every tool shows. */
export function describeLoopProposalMiss(reason: LoopProposalMiss): string {
  switch (reason) {
    case 'not-open':
      return 'the loop it closes is no longer open (closed, dropped or forgotten since), so the proposal was dropped and nothing was sent';
    case 'other-workspace':
      return 'it was proposed for another workspace; approve it with that workspace open (it stays pending)';
    case 'no-workspace':
      return 'no workspace is open (or loops are not kept here); open the workspace it came from and approve it there (it stays pending)';
    case 'secret':
      return 'the text looks like it holds a secret; edit it out and approve again (it stays pending)';
    case 'empty':
      return 'the loop text is empty; give it a text and approve again (it stays pending)';
    case 'already-open':
      return 'that loop is already open (it now counts as said once more), so nothing was sent';
  }
}

/** Why an approval after a forget is refused, in the words every tool shows. */
export const FORGOTTEN_PENDING_REASON =
  'the memory it belongs to was forgotten after it was proposed (a forget of its group), so it was dropped and nothing was sent; say it again if it still holds';

@injectable()
export class ReviewQueue {
  constructor(
    @inject(PromotionService) private readonly promotion: PromotionService,
    @inject(PendingMemoryStore) private readonly store: PendingMemoryStore,
    @inject(Ingestion) private readonly ingestion: Pick<Ingestion, 'enqueueEntries'>,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(Clock) private readonly clock: Clock,
    @inject(ForgetLedger) @optional() private readonly forgotten?: ForgetLedger,
    @inject(LocalTier) @optional() private readonly tier?: Pick<LocalTier, 'recordPromotion'>,
    @inject(LoopService) @optional() private readonly loops?: Pick<LoopService, 'applyProposal'>,
  ) {}

  /** Keeps the memory for review (or sends it when review is off); refused ones are neither. */
  async propose(proposed: ProposedMemory): Promise<ProposeOutcome> {
    const plan = await this.promotion.plan(proposed);
    if (!plan.ok) return { status: 'refused', reason: plan.reason };
    if (!this.configuration.current().autoPromote.review) {
      this.ingestion.enqueueEntries([plan.entry]);
      await this.tier?.recordPromotion(proposed, plan.entry);
      return { status: 'sent', entry: plan.entry };
    }
    const scope = proposed.scope;
    const text = proposed.text.trim();
    const memory: PendingMemory = {
      id: await pendingMemoryId(proposed.kind, scope, text),
      kind: proposed.kind,
      scope,
      text,
      source: proposed.source,
      createdAt: this.clock.now(),
      ...(proposed.sessionId === undefined ? {} : { sessionId: proposed.sessionId }),
      groupId: plan.entry.groupId,
      groupIds: [plan.entry.groupId],
    };
    const added = await this.store.add(memory);
    return { status: 'pending', memory, alreadyPending: !added };
  }

  list(): Promise<readonly PendingMemory[]> {
    return this.store.list();
  }

  /**
   * Sends the pending memory, with `text` instead of its own when the user edited it. A memory
   * the promotion refuses now (a secret in the edit, the gate closed) stays pending.
   */
  async approve(id: string, edit: { readonly text?: string } = {}): Promise<ReviewOutcome> {
    const memory = await this.store.take(id);
    if (memory === undefined) return { status: 'not-found', id };
    const text = edit.text ?? memory.text;
    const plan = await this.promotion.plan({ kind: memory.kind, scope: memory.scope, text });
    // A forget since it was proposed (by any tool) covers it: dropped, never sent. A record that names
    // no group is checked against the group approval would send it to.
    const forgottenGroups = await this.forgottenSince(memory, plan.ok ? [plan.entry.groupId] : []);
    if (forgottenGroups.length > 0) return { status: 'forgotten', memory, groupIds: forgottenGroups };
    if (!plan.ok) {
      await this.store.add(memory);
      return { status: 'refused', memory, reason: plan.reason };
    }
    if (memory.loop !== undefined) return this.approveLoop(memory, memory.loop, edit.text);
    this.ingestion.enqueueEntries([plan.entry]);
    await this.tier?.recordPromotion({ kind: memory.kind, scope: memory.scope, text }, plan.entry);
    return { status: 'sent', memory: { ...memory, text: text.trim() }, entry: plan.entry };
  }

  /** A loop proposal goes in through LoopService (the store, then its `task_update` episode), never as a plain promotion. */
  private async approveLoop(memory: PendingMemory, loop: PendingLoop, text: string | undefined): Promise<ReviewOutcome> {
    const applied = this.loops === undefined ? ({ ok: false, reason: 'no-workspace' } as const) : await this.loops.applyProposal(loop, memory.groupId, loop.action === 'open' ? text : undefined);
    if (!applied.ok) {
      const kept = applied.reason !== 'not-open' && applied.reason !== 'already-open';
      if (kept) await this.store.add(memory);
      return { status: 'not-applied', memory, reason: applied.reason, kept };
    }
    const [entry] = applied.entries;
    // Only when the gate closed in the moment since the plan above: the loop did change on this machine,
    // but its episode could not be planned, so nothing is sent (a later change of the loop sends its state).
    if (entry === undefined) return { status: 'refused', memory, reason: 'gate-closed' };
    this.ingestion.enqueueEntries(applied.entries);
    return { status: 'sent', memory: { ...memory, text: loopEpisodeText(applied.loop) }, entry };
  }

  /** The groups of `memory` (else `fallback`) forgotten at or after it was proposed. */
  private async forgottenSince(memory: PendingMemory, fallback: readonly string[]): Promise<string[]> {
    if (this.forgotten === undefined) return [];
    const groups = new Set(pendingGroups(memory) ?? fallback);
    const record = await this.forgotten.read();
    return record.groups.filter((group) => groups.has(group.groupId) && group.forgottenAt >= memory.createdAt).map((group) => group.groupId);
  }

  async reject(id: string): Promise<ReviewOutcome> {
    const memory = await this.store.take(id);
    return memory === undefined ? { status: 'not-found', id } : { status: 'rejected', memory };
  }
}
