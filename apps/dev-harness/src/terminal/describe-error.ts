// Turns a failure talking to Graphiti into one short line saying what failed, at which URL, and
// one line saying what to try: memory-core's describer (shared with the extension), with the
// harness's own advice (flags and variables).
import { classifyGraphitiError, describeGraphitiFailure as describe, type FailureAdvice } from '@graphiti-memory/memory-core';
import { HarnessError } from '../cli/harness-errors.js';

const HARNESS_ADVICE: FailureAdvice = {
  endpoint: 'check --endpoint, or the endpoint graphiti-harness setup configured (graphiti-harness doctor shows it)',
  apiKey: 'pass --api-key or set GRAPHITI_API_KEY',
  timeout: 'raise --timeout-ms',
};

/** What the caller knows about the request beyond the error. */
export interface FailureContext {
  /** Whether an API key was sent: a 401 then means a wrong key, not a missing one. */
  readonly apiKeyGiven?: boolean;
}

/**
 * A HarnessError for a failed call to Graphiti at `url`: `what` names the operation
 * ("Health check", "Reading /episodes"). Errors that are already HarnessErrors pass through.
 */
export function describeGraphitiFailure(error: unknown, url: string, what: string, timeoutMs?: number, context: FailureContext = {}): HarnessError {
  if (error instanceof HarnessError) return error;
  const { kind, status, code } = classifyGraphitiError(error);
  const details: Record<string, unknown> = { endpoint: url, operation: what };
  if (kind !== 'unknown') details['kind'] = kind;
  if (status !== undefined) details['status'] = status;
  if (code !== undefined) details['code'] = code;
  const { message, hint } = describe(error, {
    endpoint: url,
    operation: what,
    advice: HARNESS_ADVICE,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(context.apiKeyGiven === undefined ? {} : { apiKeyGiven: context.apiKeyGiven }),
  });
  return new HarnessError(message, { ...(hint === undefined ? {} : { hint }), details, cause: error });
}
