// Every setting of the integration (`graphitiMemory.*`), as one zod schema with its defaults and
// bounds. Parsing never lets a bad value through half-applied: any problem yields the defaults,
// disabled, plus a readable message per problem naming the setting.
import { z } from 'zod';
import { STALE_SETTINGS } from '../stale/workspace-files.js';
import { DEFAULT_TRANSCRIPT_FILTER, transcriptFilterProblems, type TranscriptFilterOption } from '../transcripts/transcript-filter.js';
import { DEFAULT_ENDPOINT, endpointProblem, normaliseEndpoint } from './endpoint.js';

/** The prefix of every setting in the host (VS Code's `graphitiMemory.*`); used in problem texts. */
export const SETTINGS_SECTION = 'graphitiMemory';

export const INGEST_SCOPE_SETTINGS = ['session', 'workspace', 'both'] as const;
export type IngestScopeSetting = (typeof INGEST_SCOPE_SETTINGS)[number];

export const RECALL_SCOPE_SETTINGS = ['session', 'workspace', 'both', 'auto', 'all'] as const;
export type RecallScopeSetting = (typeof RECALL_SCOPE_SETTINGS)[number];

/** Every scope, as a list-form `recall.scopes` may name them (`["session","workspace","team"]`). */
/** `mirror` (the structured mirror's own group) is searched only when a list names it. */
export const MEMORY_SCOPES = ['session', 'workspace', 'user', 'team', 'mirror'] as const;
/** `recall.scopes`: a named selection, or the scopes themselves. */
export type RecallScopesSetting = RecallScopeSetting | readonly (typeof MEMORY_SCOPES)[number][];

/** Who can read the team scope: what every consent to it says. */
export const TEAM_AUDIENCE = 'anyone who uses this Graphiti server with this repository';
/** Longest display name stored with team memories. */
export const TEAM_DISPLAY_NAME_MAX_CHARS = 64;

/** Which face of Graphiti the endpoint is: `auto` probes it (the client's `GraphitiServerChoice`). */
export const SERVER_KIND_SETTINGS = ['auto', 'rest', 'mcp'] as const;
export type ServerKindSetting = (typeof SERVER_KIND_SETTINGS)[number];

/** `session`: one digest episode per group per session segment; `turn`: one episode per message. */
export const CAPTURE_GRANULARITIES = ['session', 'turn'] as const;
export type CaptureGranularity = (typeof CAPTURE_GRANULARITIES)[number];

/**
 * Who writes a session digest's text: `filtered` (the filtered turns themselves, every tool) or
 * `chatModel` (the user's chat model in VS Code, `vscode.lm`; the filtered digest is the fallback).
 */
export const DIGEST_WRITERS = ['filtered', 'chatModel'] as const;
export type DigestWriterSetting = (typeof DIGEST_WRITERS)[number];
/** Longest `capture.digestModel` (a model family or id). */
export const DIGEST_MODEL_MAX_CHARS = 200;

export const GROUP_ID_STRATEGIES = ['hashed', 'raw'] as const;
export type GroupIdStrategy = (typeof GROUP_ID_STRATEGIES)[number];

/** Bounds of the numeric settings (inclusive), shared by the schema and its documentation. */
export const SETTING_BOUNDS = {
  timeoutMs: { min: 100, max: 120_000 },
  maxBatchSize: { min: 1, max: 100 },
  maxQueueSize: { min: 1, max: 100_000 },
  maxMessageChars: { min: 200, max: 100_000 },
  recallTimeoutMs: { min: 50, max: 10_000 },
  recallMaxFacts: { min: 1, max: 50 },
  backfillTurns: { min: 0, max: 1000 },
  idleMinutes: { min: 1, max: 1440 },
  digestTurns: { min: 1, max: 100 },
  maxAttempts: { min: 1, max: 1000 },
  maxAgeHours: { min: 1, max: 8760 },
  loopExpireDays: { min: 1, max: 3650 },
} as const;

function boundedInteger(bounds: { readonly min: number; readonly max: number }, fallback: number) {
  return z.number().int().min(bounds.min).max(bounds.max).default(fallback);
}

// An empty endpoint is allowed and means "not configured" (the gate reports `no-endpoint`).
const endpointSchema = z
  .string()
  .superRefine((value, context) => {
    if (value.trim() === '') return;
    const problem = endpointProblem(value);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => (value.trim() === '' ? '' : (normaliseEndpoint(value) ?? '')))
  .default(DEFAULT_ENDPOINT);

// What of a chat becomes memory: a preset, or per-kind modes over one. Checked by the filter's own
// rules, so a file and a VS Code setting fail with the same words.
const transcriptFilterSchema = z
  .custom<TranscriptFilterOption>()
  .superRefine((value, context) => {
    for (const problem of transcriptFilterProblems(value)) {
      context.addIssue({ code: 'custom', message: problem.message, path: problem.key === '' ? [] : [problem.key] });
    }
  })
  .default(DEFAULT_TRANSCRIPT_FILTER);

export const memorySettingsSchema = z.object({
  enabled: z.boolean().default(false),
  endpoint: endpointSchema,
  serverKind: z.enum(SERVER_KIND_SETTINGS).default('auto'),
  timeoutMs: boundedInteger(SETTING_BOUNDS.timeoutMs, 5000),
  maxBatchSize: boundedInteger(SETTING_BOUNDS.maxBatchSize, 20),
  maxQueueSize: boundedInteger(SETTING_BOUNDS.maxQueueSize, 1000),
  maxMessageChars: boundedInteger(SETTING_BOUNDS.maxMessageChars, 4000),
  /** Times Graphiti may accept a message without ever storing it before it becomes a dead letter (outages never count). */
  maxAttempts: boundedInteger(SETTING_BOUNDS.maxAttempts, 8),
  /** Hours a message may stay unconfirmed before it becomes a dead letter. */
  maxAgeHours: boundedInteger(SETTING_BOUNDS.maxAgeHours, 72),
  scopes: z.enum(INGEST_SCOPE_SETTINGS).default('both'),
  groupIdStrategy: z.enum(GROUP_ID_STRATEGIES).default('hashed'),
  includeGitMetadata: z.boolean().default(false),
  includeSystemMessages: z.boolean().default(false),
  // enabled: directives are promoted without asking (opt-in, seed 000); otherwise, and whenever
  // review is on, they wait in pending memories for approval (`directiveHandling`).
  // review: promotions by the assistant or a directive wait for the user's approval.
  autoPromote: z.object({ enabled: z.boolean().default(false), review: z.boolean().default(true) }).prefault({}),
  recall: z
    .object({
      enabled: z.boolean().default(false),
      timeoutMs: boundedInteger(SETTING_BOUNDS.recallTimeoutMs, 750),
      maxFacts: boundedInteger(SETTING_BOUNDS.recallMaxFacts, 10),
      scopes: z.union([z.enum(RECALL_SCOPE_SETTINGS), z.array(z.enum(MEMORY_SCOPES)).min(1).readonly()]).default('both'),
      // A fact naming a workspace path that is gone: marked `(may be stale: …)`, left out, or not checked.
      stale: z.enum(STALE_SETTINGS).default('mark'),
    })
    .prefault({}),
  // The opt-in team scope: promoted memories shared with everyone on this server in this repository.
  team: z
    .object({
      /** The user agreed that the team scope is read by TEAM_AUDIENCE; nothing goes there or is read from it without it. */
      consent: z.boolean().default(false),
      /** Stored with what this user promotes to the team (`[team · Alice]`); empty: none. */
      displayName: z
        .string()
        .max(TEAM_DISPLAY_NAME_MAX_CHARS)
        .refine((value) => !/\p{Cc}/u.test(value), 'must be one line of text without control characters')
        .default(''),
    })
    .prefault({}),
  capture: z
    .object({
      vscodeChat: z.boolean().default(false),
      claudeCode: z.boolean().default(false),
      // An existing session met for the first time: only its newest turns are ingested.
      backfillTurns: boundedInteger(SETTING_BOUNDS.backfillTurns, 20),
      // Each episode costs a round of LLM extraction on the server: a session goes as digests.
      granularity: z.enum(CAPTURE_GRANULARITIES).default('session'),
      // A digest closes after this long without a new turn, at session end, or every digestTurns turns.
      idleMinutes: boundedInteger(SETTING_BOUNDS.idleMinutes, 5),
      digestTurns: boundedInteger(SETTING_BOUNDS.digestTurns, 10),
      // Off by default (privacy first): `chatModel` sends the filtered turns to the user's chat model too.
      digestWriter: z.enum(DIGEST_WRITERS).default('filtered'),
      // The chat model for `chatModel` digests: a family or id (`gpt-4o-mini`); empty: the first available.
      digestModel: z
        .string()
        .max(DIGEST_MODEL_MAX_CHARS)
        .refine((value) => !/\p{Cc}/u.test(value), 'must be one line of text without control characters')
        .default(''),
    })
    .prefault({}),
  // Open loops (TODO:, next:, follow-up: lines): one untouched this many days is no longer nudged and shows as stale.
  // proposeWithModel: opt-in (it sends a session's filtered digest to the user's chat model, VS Code
  // only); what the model proposes waits in pending review, never goes in straight.
  loops: z.object({ expireDays: boundedInteger(SETTING_BOUNDS.loopExpireDays, 30), proposeWithModel: z.boolean().default(false) }).prefault({}),
  filter: transcriptFilterSchema,
  // The structured mirror (seed 001): each finalized turn as structure, into a group of its own.
  mirror: z.object({ enabled: z.boolean().default(false) }).prefault({}),
});

export type MemorySettings = z.infer<typeof memorySettingsSchema>;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Every setting at its default: the integration off. */
export const DEFAULT_SETTINGS: MemorySettings = deepFreeze(memorySettingsSchema.parse({}));

export type MemorySettingsParseResult =
  | { readonly ok: true; readonly settings: MemorySettings }
  | {
      readonly ok: false;
      /** `DEFAULT_SETTINGS` (disabled): a bad value never leaves the integration half on. */
      readonly settings: MemorySettings;
      /** One readable line per problem, naming the setting: `graphitiMemory.recall.maxFacts: must be at most 50 (got 500)`. */
      readonly problems: readonly string[];
    };

/**
 * Parses the host's settings object. Accepts nested objects (`{ recall: { maxFacts: 5 } }`), flat
 * dotted keys (`{ 'recall.maxFacts': 5 }`, also with the `graphitiMemory.` prefix) or a mix (a
 * dotted key wins over the nested value). `undefined`/`null` and `null` values mean "not set".
 * Unknown keys are ignored, so settings of a newer version do not break an older one.
 */
export function parseMemorySettings(raw: unknown): MemorySettingsParseResult {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    return {
      ok: false,
      settings: DEFAULT_SETTINGS,
      problems: [`${SETTINGS_SECTION}: settings must be an object (got ${describeValue(raw)})`],
    };
  }
  const input = nestSettings(raw ?? {});
  const parsed = memorySettingsSchema.safeParse(input);
  if (parsed.success) return { ok: true, settings: deepFreeze(parsed.data) };
  const problems = parsed.error.issues.map((issue) => describeIssue(issue, input));
  return { ok: false, settings: DEFAULT_SETTINGS, problems: [...new Set(problems)] };
}

/** Merges flat dotted keys into nested objects and drops `null` values (unset). */
export function nestSettings(raw: object): Record<string, unknown> {
  const nested: Record<string, unknown> = {};
  const dotted: Array<[string[], unknown]> = [];
  for (const [key, value] of Object.entries(raw)) {
    const path = stripSection(key).split('.');
    if (path.length === 1) {
      nested[path[0] ?? key] = copyWithoutNulls(value);
    } else {
      dotted.push([path, value]);
    }
  }
  for (const [path, value] of dotted) {
    if (value === null || value === undefined) continue;
    let target: Record<string, unknown> = nested;
    let reachable = true;
    for (const segment of path.slice(0, -1)) {
      const existing = target[segment];
      if (existing === undefined) {
        const created: Record<string, unknown> = {};
        target[segment] = created;
        target = created;
      } else if (isPlainRecord(existing)) {
        target = existing;
      } else {
        // A nested value of the wrong type: leave it, the schema reports it.
        reachable = false;
        break;
      }
    }
    if (reachable) target[path[path.length - 1] ?? ''] = value;
  }
  return nested;
}

function stripSection(key: string): string {
  return key.startsWith(`${SETTINGS_SECTION}.`) ? key.slice(SETTINGS_SECTION.length + 1) : key;
}

function copyWithoutNulls(value: unknown): unknown {
  if (value === null) return undefined;
  if (!isPlainRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (child !== null && child !== undefined) copy[key] = copyWithoutNulls(child);
  }
  return copy;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function valueAt(input: Record<string, unknown>, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const segment of path) {
    if (!isPlainRecord(current)) return undefined;
    current = current[String(segment)];
  }
  return current;
}

function describeIssue(issue: z.core.$ZodIssue, input: Record<string, unknown>): string {
  const name = [SETTINGS_SECTION, ...issue.path.map(String)].join('.');
  const value = valueAt(input, issue.path);
  // The endpoint may carry credentials in a bad value; never echo it.
  const got = name === `${SETTINGS_SECTION}.endpoint` ? '' : ` (got ${describeValue(value)})`;
  switch (issue.code) {
    case 'too_big':
      return `${name}: must be at most ${String(issue.maximum)}${got}`;
    case 'too_small':
      return `${name}: must be at least ${String(issue.minimum)}${got}`;
    case 'invalid_value':
      return `${name}: must be one of ${issue.values.map((option) => JSON.stringify(option)).join(', ')}${got}`;
    case 'invalid_union':
      // The one union: recall.scopes, a named selection or a list of scopes.
      return `${name}: must be one of ${RECALL_SCOPE_SETTINGS.map((option) => JSON.stringify(option)).join(', ')}, or a list of ${MEMORY_SCOPES.join(', ')}${got}`;
    case 'invalid_type':
      return `${name}: must be ${expectedText(issue.expected)}${got}`;
    case 'custom':
      return `${name}: ${issue.message}`;
    default:
      return `${name}: ${issue.message}${got}`;
  }
}

function expectedText(expected: string): string {
  switch (expected) {
    case 'int':
      return 'a whole number';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'string':
      return 'a string';
    case 'object':
      return 'an object';
    default:
      return `of type ${expected}`;
  }
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/**
 * What happens to a memory directive found in a user's message (`decision: adopt zod`), one rule for
 * every tool (the hooks, the harness, the extension): held for review in pending memories (never
 * sent without the user's approval) unless `autoPromote.enabled` is on and `autoPromote.review` off.
 * Auto-promotion is off by default (seed 000), so by default directives are held.
 */
export type DirectiveHandling = 'held-for-review' | 'promoted';

export function directiveHandling(settings: { readonly autoPromote: { readonly enabled: boolean; readonly review: boolean } }): DirectiveHandling {
  return settings.autoPromote.enabled && !settings.autoPromote.review ? 'promoted' : 'held-for-review';
}

/** `directiveHandling` in words, as `config show`, Show Status and the settings text say it. */
export function describeDirectiveHandling(handling: DirectiveHandling): string {
  return handling === 'promoted'
    ? 'directives in your messages (`decision: …`) are promoted at once, without review'
    : 'directives in your messages (`decision: …`) are held for your review in pending memories, never sent without your approval';
}
