/** Forget: which groups a request covers (`forgetTargets`), and `ForgetService` doing it. */
export { forgetTargets, type CurrentGroups, type ForgetRequest, type ForgetTarget } from './forget-policy.js';
export { ForgetService, sourceForgetSummary, type ForgetFailure, type ForgetResult, type SourceForgetResult } from './forget-service.js';
export { IngestionQueuedGroups, QueuedGroups } from './queued-groups.js';
export { forgetEpisode, type EpisodeForgetApi, type EpisodeForgetOptions, type EpisodeForgetResult } from './episode-forgetting.js';
export {
  ForgetLedger,
  forgottenTurnKey,
  forgottenTurnKeyOfName,
  InMemoryForgetLedger,
  MAX_FORGOTTEN_TURNS,
  recordForgotten,
  withForgottenGroups,
  type ForgetRecord,
  type ForgottenGroup,
} from './forget-ledger.js';
export { OwedDeletions, type OwedDeletionsResult } from './owed-deletions.js';
