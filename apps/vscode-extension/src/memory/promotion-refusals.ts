// What the extension tells the user about a promotion memory-core's MemoryPromotion refused.
import type { PromotionOutcome, PromotionRefusal } from '@graphiti-memory/memory-core';

export const REFUSALS: Record<PromotionRefusal, string> = {
  'gate-closed': 'Graphiti Memory is off (or waits for consent) in this workspace, so nothing was stored.',
  secret: 'The text looks like it contains a secret (a key, token or password), so it was not stored. Remove the secret and try again.',
  'invalid-kind': 'Unknown kind of memory: use decision, lesson_learned, preference, procedure, task_update or terminology.',
  empty: 'There is nothing to remember: the text is empty.',
  'no-scope': 'The memory group of that scope is not known here (open a folder for workspace memory; the team scope needs a git remote).',
  'team-not-consented':
    'The team scope is not enabled: what you share there is read by anyone who uses this Graphiti server with this repository. Choose the team scope in Promote to Memory to be asked.',
};

/** A promotion as the extension's commands return it: a refusal carries the message shown. */
export type PromotionResult =
  | { readonly ok: true; readonly groupId: string; readonly episodeName: string; readonly redacted: boolean }
  | { readonly ok: false; readonly reason: PromotionRefusal; readonly message: string };

export function promotionResult(outcome: PromotionOutcome): PromotionResult {
  // Text with a secret is refused, never redacted: `redacted` is always false.
  return outcome.ok ? { ...outcome, redacted: false } : { ...outcome, message: REFUSALS[outcome.reason] };
}
