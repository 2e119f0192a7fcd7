// Recall: facts for a prompt, under a hard deadline. Per-scope searches start together; whatever
// arrived by the deadline is merged and returned, the rest aborted. It fails open — no facts,
// never an exception — because chat must never wait on or break because of memory.
import type { FactResult } from '@graphiti-memory/graphiti-client';
import { inject, injectable, optional } from 'inversify';
import { ForgetLedger } from '../forget/forget-ledger.js';
import { MemoryGate } from '../gate/memory-gate.js';
import { Clock, GraphitiConnection, SCOPE_ORDER, TelemetrySink, type MemoryScope, type RecalledFact } from '../ports.js';
import { GroupIdResolver, type ResolvedGroup } from '../scopes/group-id-resolver.js';
import { MemoryConfiguration } from '../settings/memory-configuration.js';
import { SETTING_BOUNDS, type RecallScopeSetting } from '../settings/memory-settings.js';
import { errorClassOf } from '../errors/graphiti-failure.js';
import { mergeFacts } from './fact-merging.js';
import { selectScopes } from './scope-selection.js';
import { guardRecalledFacts } from './recalled-fact-guard.js';
import { SecretGuard } from '../secrets/secret-guard.js';
import { EpisodeSources } from '../sources/episode-sources.js';
import { WorkspaceFiles, type StaleSetting } from '../stale/workspace-files.js';
import { annotateFacts } from './fact-annotation.js';
import { recallQueryOf } from './recall-query.js';
import { TeamAuthors } from './team-authors.js';
import { LocalTier } from '../tier/local-tier.js';


/** How far past the recall deadline a search's own timeout lies (see the search call). */
const SEARCH_TIMEOUT_MARGIN_MS = 1_000;
/** The least time citations and the stale check get when the searches used up the deadline. */
const ANNOTATION_FLOOR_MS = 10;
export interface RecallOptions {
  /** A scope setting (`auto` reads the query) or the scopes themselves; `recall.scopes` by default. */
  readonly scopes?: RecallScopeSetting | readonly MemoryScope[];
  /** At most this many facts in all; `recall.maxFacts` by default (1 to 50). */
  readonly maxFacts?: number;
  /** The deadline, from the call; `recall.timeoutMs` by default. */
  readonly timeoutMs?: number;
  /** Aborting it ends the recall at once with what arrived so far. */
  readonly signal?: AbortSignal;
  /** The chat session: needed for the `session` scope (skipped without it). */
  readonly sessionId?: string;
  /** Keep facts whose `invalid_at`/`expired_at` has passed, marked `superseded`, instead of dropping them. */
  readonly keepSuperseded?: boolean;
}

export interface RecallError {
  readonly scope: MemoryScope;
  /** The error's class name (`GraphitiServerError`, …): content-free. */
  readonly errorClass: string;
}

/**
 * What a recall came to, for the caller to show: `hit` (facts found, even if some scopes were
 * late), `miss` (none), `timeout` (the deadline passed with no facts), `error` (failed with no
 * facts) or `skipped` (nothing was searched; `skippedBecause` says why).
 */
export type RecallOutcomeKind = 'hit' | 'miss' | 'timeout' | 'error' | 'skipped';

export type RecallSkipReason = 'gate-closed' | 'recall-disabled' | 'recall-not-consented' | 'empty-query' | 'aborted' | 'no-scope';

export interface RecallResult {
  readonly outcome: RecallOutcomeKind;
  /** Why nothing was searched, when `outcome` is `skipped`. */
  readonly skippedBecause?: RecallSkipReason;
  /** Merged in scope order (session, workspace, user), de-duplicated, at most `maxFacts`. */
  readonly facts: readonly RecalledFact[];
  /** The deadline passed before every search answered. */
  readonly timedOut: boolean;
  readonly elapsedMs: number;
  /** The scopes searched (those that could be resolved), in scope order. */
  readonly scopes: readonly MemoryScope[];
  /** Searches that failed before the deadline. */
  readonly errors: readonly RecallError[];
}

export interface RecallService {
  /**
   * Facts relevant to `prompt`, searched for with `recallQueryOf(prompt)` (a long prompt's start
   * and end, a few KB at most). Sends nothing when the gate is closed, `recall.enabled` is off or
   * the prompt is blank. Resolves within the deadline (plus scheduling); never rejects.
   */
  recall(prompt: string, options?: RecallOptions): Promise<RecallResult>;
}
export const RecallService = Symbol.for('graphiti-memory.RecallService');

type SearchOutcome = { readonly facts: readonly FactResult[] } | { readonly errorClass: string };


@injectable()
export class DefaultRecallService implements RecallService {
  /** Authors of team episodes looked up so far (they never change): a team group is listed only for new ones. */
  private readonly teamAuthors = new TeamAuthors();

  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(GraphitiConnection) private readonly connection: GraphitiConnection,
    @inject(Clock) private readonly clock: Clock,
    @inject(TelemetrySink) private readonly telemetry: TelemetrySink,
    @inject(SecretGuard) private readonly secretGuard: SecretGuard,
    @inject(EpisodeSources) @optional() private readonly episodeSources?: EpisodeSources,
    @inject(WorkspaceFiles) @optional() private readonly workspaceFiles?: WorkspaceFiles,
    @inject(ForgetLedger) @optional() private readonly forgotten?: ForgetLedger,
    @inject(LocalTier) @optional() private readonly tier?: Pick<LocalTier, 'recordRecalled'>,
  ) {}

  /**
   * Groups whose delete a forget still owes (it ran while Graphiti was unreachable) are not
   * searched: what they hold was forgotten. A record that cannot be read leaves none to search.
   */
  private async unforgotten(groups: readonly ResolvedGroup[]): Promise<ResolvedGroup[]> {
    if (this.forgotten === undefined) return [...groups];
    try {
      const owed = new Set((await this.forgotten.read()).groups.filter((group) => group.deletionOwed).map((group) => group.groupId));
      return groups.filter((group) => !owed.has(group.groupId));
    } catch {
      return [];
    }
  }

  async recall(prompt: string, options: RecallOptions = {}): Promise<RecallResult> {
    const started = this.clock.now();
    let scopes: MemoryScope[] = [];
    try {
      const skip = this.skipReason(prompt, options.signal);
      if (skip !== undefined) return this.finish(started, { facts: [], timedOut: false, scopes: [], errors: [] }, 'skipped', skip);
      // What is searched: a bounded slice of the prompt (its start and end), whatever its size. It
      // leaves the machine as a search, so the secret guard runs on it here, for every caller (the
      // hooks, the chat participant, the tools, the harness), as on anything else sent.
      const query = (await this.secretGuard.redact(recallQueryOf(prompt))).text;
      const settings = this.configuration.current().recall;
      scopes = this.scopesFor(query, options.scopes ?? settings.scopes);
      const maxFacts = clampInteger(options.maxFacts, settings.maxFacts, SETTING_BOUNDS.recallMaxFacts);
      const timeoutMs = clampInteger(options.timeoutMs, settings.timeoutMs, { min: 1, max: SETTING_BOUNDS.recallTimeoutMs.max });
      const api = this.connection.current();
      if (api === undefined) {
        const errors = scopes.map((scope) => ({ scope, errorClass: 'NoConnection' }));
        return this.finish(started, { facts: [], timedOut: false, scopes, errors }, 'error', undefined, 'error');
      }
      const groups = await this.unforgotten(await this.groups.resolveMany(scopes, options.sessionId === undefined ? {} : { sessionId: options.sessionId }));
      scopes = groups.map((group) => group.scope);
      if (groups.length === 0) return this.finish(started, { facts: [], timedOut: false, scopes, errors: [] }, 'skipped', 'no-scope');

      // The record of delivered episodes loads while the searches run, so citing costs little after them.
      this.episodeSources?.find([]).catch(() => undefined);
      const outcomes = new Map<MemoryScope, SearchOutcome>();
      const searchAbort = new AbortController();
      const searches = groups.map(async ({ scope, groupId }) => {
        try {
          // The deadline aborts every search itself; the client's own timeout is only a backstop,
          // set past the deadline so a slow search always ends as `timedOut`, never as an error.
          const callOptions = { signal: searchAbort.signal, timeoutMs: timeoutMs + SEARCH_TIMEOUT_MARGIN_MS, maxRetries: 0 };
          const results = await api.search({ group_ids: [groupId], query, max_facts: maxFacts }, callOptions);
          // Team facts count as unverified (Graphiti has no authentication) until their episodes show them this user's own.
          const found = scope === 'team' ? results.facts.map((fact) => ({ ...fact, unverified: true }) as FactResult) : results.facts;
          if (!searchAbort.signal.aborted) outcomes.set(scope, { facts: found });
          if (scope !== 'team' || results.facts.length === 0) return;
          // Team facts name their author (the display name stored in the promoted episode they came
          // from) when that is known in time: the facts above count already if the deadline comes first.
          const ownUserGroup = await this.groups.resolve('user').catch(() => undefined);
          const authored = await this.teamAuthors.withAuthors(api, groupId, results.facts, callOptions, ownUserGroup);
          if (!searchAbort.signal.aborted) outcomes.set(scope, { facts: authored });
        } catch (error) {
          if (!searchAbort.signal.aborted) outcomes.set(scope, { errorClass: errorClassOf(error) });
        }
      });
      const remaining = Math.max(0, timeoutMs - (this.clock.now() - started));
      await this.untilDoneOrDeadline(Promise.all(searches), remaining, options.signal);
      // Snapshot before aborting: a search settling after the deadline does not count.
      const settled = new Map(outcomes);
      searchAbort.abort();

      const timedOut = settled.size < groups.length && !options.signal?.aborted;
      const errors: RecallError[] = [];
      const found: Array<{ scope: MemoryScope; facts: readonly FactResult[] }> = [];
      for (const scope of scopes) {
        const outcome = settled.get(scope);
        if (outcome === undefined) continue;
        if ('errorClass' in outcome) errors.push({ scope, errorClass: outcome.errorClass });
        else found.push({ scope, facts: outcome.facts });
      }
      // Recalled text is data: every caller (prompt, terminal, tier) gets it past the secret guard.
      const guarded = await guardRecalledFacts(
        this.secretGuard,
        mergeFacts(found, { maxFacts, now: this.clock.now(), keepSuperseded: options.keepSuperseded === true }),
      );
      const facts = await this.annotate(guarded, settings.stale, Math.max(ANNOTATION_FLOOR_MS, timeoutMs - (this.clock.now() - started)));
      // Telemetry counts a late scope as a timeout; the caller shows the facts that did arrive.
      const measured = timedOut ? 'timeout' : facts.length > 0 ? 'hit' : errors.length === groups.length ? 'error' : 'miss';
      const outcome = facts.length > 0 ? 'hit' : timedOut ? 'timeout' : errors.length > 0 ? 'error' : 'miss';
      // What recall found is what every tool's cached answer may give later (in the background: the answer does not wait).
      if (facts.length > 0) void this.tier?.recordRecalled(facts, new Date(started), options.sessionId);
      return this.finish(started, { facts, timedOut, scopes, errors }, measured, undefined, outcome);
    } catch (error) {
      // A broken invariant below (hashing, a misbehaving port): still no exception into chat.
      const errors = scopes.map((scope) => ({ scope, errorClass: errorClassOf(error) }));
      return this.finish(started, { facts: [], timedOut: false, scopes, errors }, 'error', undefined, 'error');
    }
  }

  /** Sources and the stale check (local), bounded by what is left of the deadline: late, the facts go as they are. */
  private async annotate(facts: readonly RecalledFact[], stale: StaleSetting, withinMs: number): Promise<readonly RecalledFact[]> {
    if (facts.length === 0 || (this.episodeSources === undefined && (this.workspaceFiles === undefined || stale === 'off'))) return facts;
    const stopTimer = new AbortController();
    const late = this.clock.sleep(withinMs, stopTimer.signal).then(() => facts);
    try {
      return await Promise.race([annotateFacts(facts, { sources: this.episodeSources, files: this.workspaceFiles }, stale), late]);
    } finally {
      stopTimer.abort();
    }
  }

  /** The rules of whether to search at all, in the order callers explain them. */
  private skipReason(query: string, signal: AbortSignal | undefined): RecallSkipReason | undefined {
    if (!this.gate.evaluate().open) return 'gate-closed';
    if (!this.configuration.current().recall.enabled) return 'recall-disabled';
    // Recall sends the user's question: only with consent for recall queries.
    if (!this.gate.evaluate('recallQueries').open) return 'recall-not-consented';
    if (typeof query !== 'string' || query.trim() === '') return 'empty-query';
    if (signal?.aborted) return 'aborted';
    return undefined;
  }

  private scopesFor(query: string, requested: RecallScopeSetting | readonly MemoryScope[]): MemoryScope[] {
    // The team scope is read only with the user's consent to it, whatever a caller asks for.
    const team = this.configuration.current().team.consent;
    const selected = typeof requested === 'string' ? selectScopes(query, requested, { team }) : requested;
    // The mirror is searched only when named (`--scopes mirror`, a `recall.scopes` list naming it), last.
    return [...SCOPE_ORDER, 'mirror' as const].filter((scope) => selected.includes(scope) && (scope !== 'team' || team));
  }

  /** Resolves when `work` settles, the deadline passes or `signal` aborts, whichever is first. */
  private async untilDoneOrDeadline(work: Promise<unknown>, deadlineMs: number, signal: AbortSignal | undefined): Promise<void> {
    const stopTimer = new AbortController();
    const stopped: Array<Promise<unknown>> = [work, this.clock.sleep(deadlineMs, stopTimer.signal)];
    let onAbort: (() => void) | undefined;
    if (signal) {
      stopped.push(
        new Promise<void>((resolve) => {
          onAbort = resolve;
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      );
    }
    try {
      await Promise.race(stopped);
    } finally {
      stopTimer.abort();
      if (signal && onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  private finish(
    started: number,
    result: Omit<RecallResult, 'elapsedMs' | 'outcome' | 'skippedBecause'>,
    measured: RecallOutcomeKind,
    skippedBecause?: RecallSkipReason,
    outcome: RecallOutcomeKind = measured,
  ): RecallResult {
    const elapsedMs = Math.max(0, this.clock.now() - started);
    this.telemetry.emit({ type: 'recall', outcome: measured, facts: result.facts.length, latencyMs: elapsedMs });
    return { ...result, outcome, ...(skippedBecause === undefined ? {} : { skippedBecause }), elapsedMs };
  }
}

function clampInteger(value: number | undefined, fallback: number, bounds: { readonly min: number; readonly max: number }): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(bounds.max, Math.max(bounds.min, Math.floor(value)));
}
