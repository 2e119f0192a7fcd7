// What a repository's `.graphiti-memory.json` may do without the user's trust: only narrow what is
// sent (memory off, fewer scopes, a stricter filter, lower budgets and timeouts). One rule per key
// says how to compare a project value with the value below it (defaults and the user file); a value
// that would widen it is ignored until the user trusts that exact file (`config trust`).
import { FILTER_KINDS, FILTER_MODES, resolveTranscriptFilter, type FilterMode, type TranscriptFilter, type TranscriptFilterOption } from '@graphiti-memory/memory-core';
import type { ConfigKey } from './resolve-config.js';

type Rule =
  /** Only `false` narrows (memory, recall, capture off). */
  | 'only-false'
  /** Only `true` narrows (`autoPromote.review`: ask before promoting). */
  | 'only-true'
  /** Only a value at or below the one below it (timeouts, budgets, sizes). */
  | 'at-most'
  /** Only a subset of the scopes below. */
  | 'ingest-subset'
  | 'recall-subset'
  /** Only `hashed` ids (`raw` puts paths and the user key into group ids). */
  | 'only-hashed'
  /** Only a filter that keeps no more of any kind of message than the one below (full > summary > omit). */
  | 'stricter-filter'
  /** Only session digests (`turn` sends an episode per message: more of the server's extraction). */
  | 'only-digests'
  /** Only the filtered digest (`chatModel` sends the turns to a language model too). */
  | 'only-filtered-digests'
  /**
   * `recall.stale`: only a mode that lets no more possibly stale facts into a prompt than the one
   * below (`drop` < `mark` < `off`). `off` from an untrusted file would widen what is injected
   * unmarked, so it is ignored there, like a wider filter.
   */
  | 'stricter-stale'
  /** Never from an untrusted project file (where memory goes, or is kept). */
  | 'never';

export const NARROWING_RULES: Readonly<Record<ConfigKey, Rule>> = {
  enabled: 'only-false',
  endpoint: 'never',
  server: 'never',
  timeoutMs: 'at-most',
  // Delivery settings are the user's alone (resolve-config.ts: DELIVERY_KEYS), trusted file or not.
  maxBatchSize: 'never',
  maxQueueSize: 'never',
  maxMessageChars: 'at-most',
  maxAttempts: 'never',
  maxAgeHours: 'never',
  scopes: 'ingest-subset',
  groupIdStrategy: 'only-hashed',
  includeGitMetadata: 'only-false',
  includeSystemMessages: 'only-false',
  'autoPromote.enabled': 'only-false',
  'autoPromote.review': 'only-true',
  'recall.enabled': 'only-false',
  'recall.timeoutMs': 'at-most',
  'recall.maxFacts': 'at-most',
  'recall.scopes': 'recall-subset',
  'recall.stale': 'stricter-stale',
  // Sharing with a team is the user's own decision: a repository may only turn it off.
  'team.consent': 'only-false',
  'team.displayName': 'never',
  'capture.vscodeChat': 'only-false',
  'capture.claudeCode': 'only-false',
  'capture.backfillTurns': 'at-most',
  // Sooner or smaller digests only narrow; per-message episodes or bigger digests widen.
  'capture.granularity': 'only-digests',
  'capture.idleMinutes': 'at-most',
  'capture.digestTurns': 'at-most',
  // A repository may not send your chats to a language model, nor pick which one.
  'capture.digestWriter': 'only-filtered-digests',
  'capture.digestModel': 'never',
  filter: 'stricter-filter',
  // Never on from a project file, trusted or not (resolve-config.ts: NEVER_ON_FROM_PROJECT).
  'mirror.enabled': 'only-false',
  'brief.budget': 'at-most',
  // Fewer days only makes loops go quiet sooner.
  'loops.expireDays': 'at-most',
  // Never on from a project file (NEVER_ON_FROM_PROJECT): a repository may not send your chats to a model.
  'loops.proposeWithModel': 'only-false',
  stateDir: 'never',
};

const INGEST_SCOPES: Readonly<Record<string, readonly string[]>> = { session: ['session'], workspace: ['workspace'], both: ['session', 'workspace'] };
// `auto` may reach more than `both`; `all` adds the user scope. Wherever the workspace is searched,
// the team scope is too once the user consented to it: a list naming `team` is no wider than that.
const RECALL_SCOPES: Readonly<Record<string, readonly string[]>> = {
  session: ['session'],
  workspace: ['workspace', 'team'],
  both: ['session', 'workspace', 'team'],
  auto: ['session', 'workspace', 'team', 'auto'],
  all: ['session', 'workspace', 'team', 'auto', 'user'],
};
/** How many possibly stale facts each `recall.stale` mode lets through, least first. */
const STALE_ORDER = ['drop', 'mark', 'off'];

/**
 * Why a project value widens the one below it, or `undefined` when it only narrows it (or equals
 * it). `key` is a dotted key of the settings.
 */
export function wideningReason(key: string, value: unknown, below: unknown): string | undefined {
  const rule = (NARROWING_RULES as Readonly<Record<string, Rule>>)[key];
  if (rule === undefined || Object.is(value, below)) return undefined;
  switch (rule) {
    case 'only-false':
      return value === false ? undefined : 'a project file may only set it to false';
    case 'only-true':
      return value === true ? undefined : 'a project file may only set it to true';
    case 'at-most':
      return typeof value === 'number' && typeof below === 'number' && value <= below ? undefined : `a project file may only lower it (below: ${String(below)})`;
    case 'ingest-subset':
      return subset(INGEST_SCOPES, value, below) ? undefined : `a project file may only drop scopes (below: ${String(below)})`;
    case 'recall-subset':
      return subset(RECALL_SCOPES, value, below) ? undefined : `a project file may only drop scopes (below: ${JSON.stringify(below)})`;
    case 'only-hashed':
      return value === 'hashed' ? undefined : 'a project file may only choose hashed group ids';
    case 'stricter-filter': {
      const [widened] = narrowedFilter(value as TranscriptFilterOption, below as TranscriptFilterOption | undefined).widened;
      return widened === undefined ? undefined : `a project file may only choose a stricter filter (${widened.why})`;
    }
    case 'only-digests':
      return value === 'session' ? undefined : 'a project file may only choose session digests';
    case 'only-filtered-digests':
      return value === 'filtered' ? undefined : 'a project file may only choose the filtered digest';
    case 'stricter-stale':
      return STALE_ORDER.indexOf(String(value)) >= 0 && STALE_ORDER.indexOf(String(value)) <= STALE_ORDER.indexOf(String(below ?? 'mark'))
        ? undefined
        : `a project file may only check more strictly (drop, then mark; below: ${String(below ?? 'mark')})`;
    case 'never':
      return 'a project file may not set it';
  }
}

function subset(table: Readonly<Record<string, readonly string[]>>, value: unknown, below: unknown): boolean {
  // A list form (`["session","team"]`) names its scopes itself.
  const scopesOf = (setting: unknown): readonly string[] | undefined => (Array.isArray(setting) ? setting.map(String) : table[String(setting)]);
  const wanted = scopesOf(value);
  const allowed = scopesOf(below);
  return wanted !== undefined && allowed !== undefined && wanted.every((scope) => allowed.includes(scope));
}

/** A kind of message a project filter would keep more of than the filter below it. */
export interface WidenedFilterKind {
  readonly kind: keyof TranscriptFilter;
  readonly why: string;
}

/**
 * A project file's filter, kind by kind: each kind it keeps no more of than the filter below
 * (`full` > `summary` > `omit`) applies; each wider kind keeps the mode below and is named.
 * `filter` is the project's value as written when nothing widened, else the modes that apply;
 * `undefined` when nothing of it narrows anything.
 */
export function narrowedFilter(
  value: TranscriptFilterOption,
  below: TranscriptFilterOption | undefined,
): { readonly filter: TranscriptFilterOption | undefined; readonly widened: readonly WidenedFilterKind[] } {
  const wanted = resolveTranscriptFilter(value);
  const allowed = resolveTranscriptFilter(below);
  const kept: Record<keyof TranscriptFilter, FilterMode> = { ...wanted };
  const widened: WidenedFilterKind[] = [];
  for (const kind of FILTER_KINDS) {
    if (FILTER_MODES.indexOf(wanted[kind]) >= FILTER_MODES.indexOf(allowed[kind])) continue;
    kept[kind] = allowed[kind];
    widened.push({ kind, why: `a project file may only keep less of \`${kind}\` (full, then summary, then omit; below: ${allowed[kind]})` });
  }
  if (widened.length === 0) return { filter: value, widened };
  const narrows = FILTER_KINDS.some((kind) => kept[kind] !== allowed[kind]);
  return { filter: narrows ? kept : undefined, widened };
}
