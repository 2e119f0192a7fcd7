/**
 * Errors: `classifyGraphitiError(error)` reads a failed Graphiti call once (kind, status, code,
 * class) for ingestion, recall and the apps; `errorClassOf(error)` names any thrown value for logs; `describeGraphitiFailure(error, context)` turns it
 * into a message and a hint for people, with each app's own `advice`.
 */
export { classifyGraphitiError, errorClassOf, type GraphitiFailure, type GraphitiFailureKind } from './graphiti-failure.js';
export {
  describeGraphitiFailure,
  type FailureAdvice,
  type FailureContext,
  type FailureDescription,
} from './describe-graphiti-failure.js';
