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
export { LoopService, type LoopClosing } from './loop-service.js';
export { LoopStore, type LoopEvidence, type LoopStatus, type OpenLoop } from './open-loop.js';
