// Readable, content-free descriptions of failures, with what to try next: memory-core's describer
// (shared with the harness), with the extension's own advice (settings and commands).
import { classifyGraphitiError, describeGraphitiFailure, type FailureAdvice } from '@graphiti-memory/memory-core';

const EXTENSION_ADVICE: FailureAdvice = {
  endpoint: 'check graphitiMemory.endpoint',
  apiKey: 'set it with "Graphiti Memory: Set API Key"',
  timeout: 'raise graphitiMemory.timeoutMs',
};

/** The error's class for logs and status: `timeout`, `connection`, `server 500`… Never content. */
export function errorClass(error: unknown): string {
  const failure = classifyGraphitiError(error);
  if (failure.kind === 'unknown') return failure.errorClass;
  return failure.status === undefined ? failure.kind : `${failure.kind} ${failure.status}`;
}

/** What went wrong doing `operation` against `endpoint`, and what the user can do about it. */
export function describeFailure(endpoint: string, error: unknown, operation = 'Talking to Graphiti'): string {
  const { message, hint } = describeGraphitiFailure(error, { endpoint, operation, advice: EXTENSION_ADVICE });
  return hint === undefined ? message : `${message} ${hint}`;
}
