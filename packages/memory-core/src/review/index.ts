/**
 * The review queue: `ReviewQueue.propose/approve/reject` over the `PendingMemoryStore` port
 * (`InMemoryPendingMemoryStore` for tests). Nothing pending is sent before approval.
 */
export { InMemoryPendingMemoryStore } from './in-memory-pending-memory-store.js';
export {
  describePendingSource,
  forgottenWith,
  pendingGroups,
  PendingMemoryStore,
  pendingMemoryId,
  type PendingForget,
  type PendingLoop,
  type PendingMemory,
  type PendingMemorySource,
} from './pending-memory-store.js';
export { describeLoopProposalMiss, FORGOTTEN_PENDING_REASON, ReviewQueue, type ProposedMemory, type ProposeOutcome, type ReviewOutcome } from './review-queue.js';
