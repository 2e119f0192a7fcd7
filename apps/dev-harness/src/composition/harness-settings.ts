// The harness's memory settings: the configuration every tool reads (flags > env > project > user >
// defaults), turned into memory-core's settings by memory-node-storage's one function, with what a
// command decides itself on top: running a command is opting in (enabled, for its endpoint), and
// `--scopes`, `--timeout-ms` and `--max-facts` apply to that run.
import type { CaptureGranularity, MemorySettings } from '@graphiti-memory/memory-core';
import { memorySettingsFor, type MemorySettingsOverrides, type ResolvedMemoryConfig } from '@graphiti-memory/memory-node-storage';
import type { CommonOptions } from '../cli/common-options.js';

/** Bounds memory-core puts on these settings (see its SETTING_BOUNDS). */
const REQUEST_TIMEOUT_BOUNDS = { min: 100, max: 120_000 };
const RECALL_TIMEOUT_BOUNDS = { min: 50, max: 10_000 };
/** A transcript may hold thousands of messages: the queue must not drop the oldest of them. */
export const HARNESS_MAX_QUEUE_SIZE = 100_000;

export interface HarnessSettingsInput {
  readonly configuration: Pick<ResolvedMemoryConfig, 'settings' | 'origins'>;
  readonly endpoint: string;
  readonly options: Pick<CommonOptions, 'timeoutMs' | 'scopes'> & Partial<Pick<CommonOptions, 'maxAttempts'>>;
  /** Memory directives (`decision: …`) in user text become promotions; default: the configuration's, else on. */
  readonly autoPromote?: boolean;
  /** Directive promotions wait for `pending approve`; default: the configuration's (on). */
  readonly review?: boolean;
  readonly maxFacts?: number;
  /** `capture.granularity` for this run; default: the configuration's. */
  readonly granularity?: CaptureGranularity;
}

/** The raw settings object for memory-core's `ConfiguredMemorySettings`. */
export function harnessSettings(input: HarnessSettingsInput): MemorySettings {
  const { options, configuration } = input;
  const listed = options.scopes?.kind === 'list' ? options.scopes.scopes : undefined;
  const overrides: MemorySettingsOverrides = {
    enabled: true,
    endpoint: input.endpoint,
    timeoutMs: clamp(options.timeoutMs, REQUEST_TIMEOUT_BOUNDS),
    maxQueueSize: HARNESS_MAX_QUEUE_SIZE,
    ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    ...(input.granularity === undefined ? {} : { capture: { granularity: input.granularity } }),
    // `--scopes session,workspace,…` names where this run's turns go; `user` is reached by promotion only.
    ...(listed === undefined ? {} : { scopes: ingestScopes(listed) }),
    autoPromote: {
      // memory-core's one rule decides what a directive does (directiveHandling); unset means off.
      enabled: input.autoPromote ?? configuration.settings.autoPromote.enabled,
      ...(input.review === undefined ? {} : { review: input.review }),
    },
    recall: {
      // A recall command is asked for: it searches whatever the configuration says of recall.
      enabled: true,
      timeoutMs: clamp(options.timeoutMs, RECALL_TIMEOUT_BOUNDS),
      ...(input.maxFacts === undefined ? {} : { maxFacts: input.maxFacts }),
      ...(options.scopes === undefined || options.scopes.kind === 'list' ? {} : { scopes: options.scopes.kind }),
    },
  };
  return memorySettingsFor(configuration, overrides);
}

function ingestScopes(listed: readonly string[]): MemorySettings['scopes'] {
  const session = listed.includes('session');
  const workspace = listed.includes('workspace');
  return session && workspace ? 'both' : session ? 'session' : workspace ? 'workspace' : 'both';
}

function clamp(value: number, bounds: { min: number; max: number }): number {
  return Math.min(bounds.max, Math.max(bounds.min, value));
}
