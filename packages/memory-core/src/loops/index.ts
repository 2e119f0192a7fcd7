/**
 * Open loops: commitments, to-dos and open questions of a session, captured from explicit markers
 * of finished turns (`TODO:`, `next:`, `next time,`, `follow-up:`, `task_update:`; closed by
 * `done:` and `task_update (done):`), kept in the state folder, nudged by the brief until done,
 * sent to Graphiti as `task_update` episodes. See loop-markers.ts for the exact grammar.
 */
export { MAX_LOOP_TEXT_CHARS, parseLoopMarkers, type LoopMarker, type LoopMarkerAction, type LoopMarkerKind } from './loop-markers.js';
export {
  applyLoopMarkers,
  boundedLoops,
  closeLoop,
  DEFAULT_LOOP_EXPIRE_DAYS,
  describeLoop,
  forgottenLoop,
  isStaleLoop,
  loopEpisodeText,
  loopId,
  loopNudges,
  matchOpenLoop,
  MAX_KEPT_LOOPS,
  MAX_NUDGED_LOOPS,
  type LoopChange,
  type LoopNudges,
} from './loop-policy.js';
export { loopProposalPrompt, MAX_PROPOSAL_OPEN_LOOPS, MAX_PROPOSED_OPEN, parseLoopProposal, type LoopProposal } from './loop-proposal-format.js';
export { LoopProposals, proposalText, type ClosedSessionDigest, type LoopProposalOutcome } from './loop-proposals.js';
export { DEFAULT_LOOP_PROPOSAL_OPTIONS, LoopProposalOptions, LoopProposer, type LoopProposalAnswer, type LoopProposalRequest } from './loop-proposer.js';
export { LoopService, type LoopClosing, type LoopProposalApplied, type LoopProposalMiss } from './loop-service.js';
export { LoopStore, type LoopEvidence, type LoopStatus, type OpenLoop } from './open-loop.js';
