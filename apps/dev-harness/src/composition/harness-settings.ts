// The harness's memory settings: memory-core parses them exactly as it parses VS Code's
// `graphitiMemory.*`, so a bad value fails the same way. Running the harness is opting in, so it
// is enabled, with the endpoint and timeouts of the command line.
import type { CommonOptions } from '../cli/common-options.js';

/** Bounds memory-core puts on these settings (see its SETTING_BOUNDS). */
const REQUEST_TIMEOUT_BOUNDS = { min: 100, max: 120_000 };
const RECALL_TIMEOUT_BOUNDS = { min: 50, max: 10_000 };
/** A transcript may hold thousands of messages: the queue must not drop the oldest of them. */
export const HARNESS_MAX_QUEUE_SIZE = 100_000;

export interface HarnessSettingsInput {
  readonly endpoint: string;
  readonly options: Pick<CommonOptions, 'timeoutMs' | 'scopes'> & Partial<Pick<CommonOptions, 'maxAttempts'>>;
  /** Memory directives (`decision: …`) in user text become promotions. Default true. */
  readonly autoPromote?: boolean;
  /** Directive promotions wait for `pending approve`. Default true. */
  readonly review?: boolean;
  readonly maxFacts?: number;
}

/** The raw settings object for `ConfiguredMemorySettings`. */
export function harnessSettings(input: HarnessSettingsInput): Record<string, unknown> {
  const { options } = input;
  const listed = options.scopes?.kind === 'list' ? options.scopes.scopes : undefined;
  const session = listed === undefined || listed.includes('session');
  const workspace = listed === undefined || listed.includes('workspace');
  // Turns go to session and/or workspace; `user` is reached by promotion only.
  const scopes = session && workspace ? 'both' : session ? 'session' : workspace ? 'workspace' : 'both';
  return {
    enabled: true,
    endpoint: input.endpoint,
    timeoutMs: clamp(options.timeoutMs, REQUEST_TIMEOUT_BOUNDS),
    maxQueueSize: HARNESS_MAX_QUEUE_SIZE,
    ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    scopes,
    groupIdStrategy: 'hashed',
    includeGitMetadata: true,
    includeSystemMessages: false,
    autoPromote: { enabled: input.autoPromote ?? true, review: input.review ?? true },
    recall: {
      enabled: true,
      timeoutMs: clamp(options.timeoutMs, RECALL_TIMEOUT_BOUNDS),
      maxFacts: input.maxFacts ?? 10,
      scopes: options.scopes === undefined ? 'all' : options.scopes.kind === 'list' ? 'all' : options.scopes.kind,
    },
  };
}

function clamp(value: number, bounds: { min: number; max: number }): number {
  return Math.min(bounds.max, Math.max(bounds.min, value));
}
