/**
 * Recall: `DefaultRecallService.recall(query, { scopes, maxFacts, timeoutMs, signal, sessionId,
 * keepSuperseded })` searches each scope concurrently, returns within the deadline what arrived
 * (`timedOut` flagged), merged in scope order (session, workspace, user), de-duplicated by uuid and
 * fact text, without facts whose `invalid_at`/`expired_at` has passed (or marked `superseded`),
 * at most `maxFacts`. Never rejects; sends nothing when the gate is closed or the query is blank.
 * Every recalled fact has passed the secret guard (`guardRecalledFacts`).
 * `selectScopes(query, 'auto')` picks scopes from the query's words.
 */
export { isSuperseded, mergeFacts, normaliseFactText, wireTime, type MergeOptions, type ScopeFacts } from './fact-merging.js';
export {
  DefaultRecallService,
  RecallService,
  type RecallError,
  type RecallOutcomeKind,
  type RecallSkipReason,
  type RecallOptions,
  type RecallResult,
} from './recall-service.js';
export { MAX_RECALL_QUERY_CHARS, recallQueryOf } from './recall-query.js';
export { guardRecalledFacts } from './recalled-fact-guard.js';
export { selectScopes } from './scope-selection.js';
