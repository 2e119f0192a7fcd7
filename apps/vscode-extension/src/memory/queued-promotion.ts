// Promotion = memory-core's plan (gate, secret guard, group, episode text) + ingestion's outbox.
import { inject, injectable } from 'inversify';
import { PromotionService, type PromotionRefusal } from '@graphiti-memory/memory-core';
import { LazyIngestion, type Lazy } from '../composition/lazy.js';
import type { MemoryIngestion, MemoryPromotion, PromotionOutcome, PromotionRequest } from './memory-services.js';

export const REFUSALS: Record<PromotionRefusal, string> = {
  'gate-closed': 'Graphiti Memory is off (or waits for consent) in this workspace, so nothing was stored.',
  secret: 'The text looks like it contains a secret (a key, token or password), so it was not stored. Remove the secret and try again.',
  'invalid-kind': 'Unknown kind of memory: use decision, lesson_learned, preference, procedure, task_update or terminology.',
  empty: 'There is nothing to remember: the text is empty.',
  'no-scope': 'The memory group of that scope is not known here (open a folder for workspace memory).',
};

@injectable()
export class QueuedPromotion implements MemoryPromotion {
  constructor(
    @inject(PromotionService) private readonly service: PromotionService,
    @inject(LazyIngestion) private readonly ingestion: Lazy<MemoryIngestion>,
  ) {}

  async promote(request: PromotionRequest): Promise<PromotionOutcome> {
    const plan = await this.service.plan({ kind: request.kind, scope: request.scope, text: request.text });
    if (!plan.ok) return { ok: false, reason: plan.reason, message: REFUSALS[plan.reason] };
    this.ingestion.get().enqueueEntries([plan.entry]);
    return { ok: true, groupId: plan.entry.groupId, episodeName: plan.entry.message.name ?? '', redacted: false };
  }
}
