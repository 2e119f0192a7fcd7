/**
 * Promotion: `DefaultPromotionService.plan({ kind, scope, text, now? })` gives the outbox entry of
 * a curated memory — one `role_type: "system"` message holding a `<graphiti_episode>` block, named
 * `graphiti-memory.promotion.<hash of kind, scope and text>` — or why it is refused (`gate-closed`,
 * `secret`, `invalid-kind`, `empty`, `no-scope`). Text with a secret is never sent.
 * `MemoryPromotion.promote(request)` plans it and hands it to ingestion in one step.
 */
export {
  formatEpisodeBlock,
  formatOwnershipContext,
  formatPromotionEpisode,
  isPromotionEpisodeName,
  isPromotionKind,
  neutraliseEpisodeTags,
  parseEpisodeBlock,
  parsePromotionEpisode,
  PROMOTION_KINDS,
  type OwnershipContextInput,
  type ParsedEpisodeBlock,
  type PromotionEpisodeInput,
  type PromotionKind,
  type PromotionScope,
  type StoredPromotion,
} from './episode-format.js';
export { MemoryPromotion, QueuedMemoryPromotion, type PromotionOutcome } from './memory-promotion.js';
export {
  DefaultPromotionService,
  PromotionService,
  promotionMessageName,
  type PromotionPlan,
  type PromotionRefusal,
  type PromotionRequest,
} from './promotion-service.js';
