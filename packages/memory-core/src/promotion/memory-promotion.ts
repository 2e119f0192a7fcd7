// "Remember this": the plan of PromotionService (gate, kind, secret guard, group, episode text)
// handed to ingestion, which delivers it in the background. Every host's promote (a command, a
// chat slash command, a tool) goes through here, so all of them behave the same.
import { inject, injectable, optional } from 'inversify';
import { Ingestion } from '../ingestion/ingestion.js';
import { LocalTier } from '../tier/local-tier.js';
import { PromotionService, type PromotionRefusal, type PromotionRequest } from './promotion-service.js';

export type PromotionOutcome =
  | { readonly ok: true; readonly groupId: string; readonly episodeName: string }
  | { readonly ok: false; readonly reason: PromotionRefusal };

export interface MemoryPromotion {
  /** Plans the memory and queues it for delivery; never waits for the network, never rejects. */
  promote(request: PromotionRequest): Promise<PromotionOutcome>;
}
export const MemoryPromotion = Symbol.for('graphiti-memory.MemoryPromotion');

/** Promotion into the one ingestion binding (staged like any message, so nothing waits for storage). */
@injectable()
export class QueuedMemoryPromotion implements MemoryPromotion {
  constructor(
    @inject(PromotionService) private readonly promotion: PromotionService,
    @inject(Ingestion) private readonly ingestion: Pick<Ingestion, 'enqueueEntries'>,
    @inject(LocalTier) @optional() private readonly tier?: Pick<LocalTier, 'recordPromotion'>,
  ) {}

  async promote(request: PromotionRequest): Promise<PromotionOutcome> {
    const plan = await this.promotion.plan(request);
    if (!plan.ok) return { ok: false, reason: plan.reason };
    this.ingestion.enqueueEntries([plan.entry]);
    // The next brief of every tool shows it, even before Graphiti stored it.
    await this.tier?.recordPromotion(request, plan.entry);
    return { ok: true, groupId: plan.entry.groupId, episodeName: plan.entry.message.name ?? '' };
  }
}
