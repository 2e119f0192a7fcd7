// The local tier, as memory's own policy: every tool updates it here — a promotion queued
// (promote, approve, an auto-promoted directive), a recall's facts, a delivered session digest, a
// forget of groups or of one source — and every tool reads it here: the SessionStart brief and the
// cached answer when Graphiti is down or past the deadline. What it shows is recall's: the scopes
// `recall.scopes` allows, current facts only, secret-guarded on the way in, stale-checked and cited
// on the way out, and left out when the session was given it already.
import { inject, injectable, optional } from 'inversify';
import { ForgetLedger } from '../forget/forget-ledger.js';
import { Clock, GraphitiConnection, Logger, SCOPE_ORDER, type FactSource, type MemoryScope, type OutboxEntry, type RecalledFact } from '../ports.js';
import { isPromotionScope, type PromotionScope } from '../promotion/episode-format.js';
import { annotateFacts } from '../recall/fact-annotation.js';
import { NOTHING_SAID, saidTextHash, unsaidFacts, type SaidInSession } from '../recall/said-once.js';
import { selectScopes } from '../recall/scope-selection.js';
import { errorClassOf } from '../errors/graphiti-failure.js';
import { GroupRecorderOptions } from '../registry/group-recorder.js';
import { GroupIdResolver } from '../scopes/group-id-resolver.js';
import { SecretGuard } from '../secrets/secret-guard.js';
import { normaliseEndpoint } from '../settings/endpoint.js';
import { MemoryConfiguration } from '../settings/memory-configuration.js';
import { EpisodeSources, type EpisodeSource } from '../sources/episode-sources.js';
import { toolLabel } from '../sources/message-source-stamp.js';
import { WorkspaceFiles } from '../stale/workspace-files.js';
import { LocalTierStore, type TierKey } from './local-tier-store.js';
import { bridgeOf, type TierBridge } from './tier-bridge.js';
import {
  briefPromotions,
  emptyTier,
  factsMatching,
  isBriefKind,
  promotionAsFact,
  repeatsAPromotion,
  visibleFacts,
  withoutEpisodes,
  withoutGroups,
  withPromotion,
  withRecalledFacts,
  withRefresh,
  withSession,
  type TierContent,
  type TierGroups,
  type TierPromotion,
} from './tier-content.js';
import { refreshTier } from './tier-refresh.js';

/** A brief's promoted memory, stale-checked and cited like a recalled fact. */
export type BriefPromotion = TierPromotion & { readonly stale?: readonly string[]; readonly sources?: readonly FactSource[] };

/** What the brief holds for a session; the caller renders it within its budget. */
export interface TierBrief {
  /** Whether a tier was found or read (none: nothing was ever cached for this workspace). */
  readonly found: boolean;
  /** When the tier last changed: its age is said with every cached answer. */
  readonly updatedAt: string;
  readonly promoted: readonly BriefPromotion[];
  readonly facts: readonly RecalledFact[];
  /** Where we left off: the workspace's last finished session, unless this session was told it already. */
  readonly bridge?: TierBridge;
  /** The tier is cold or older than a few minutes: a background refresh is due. */
  readonly refreshDue: boolean;
  /** A cold tier's refresh was tried now and Graphiti did not answer in time. */
  readonly unavailable: boolean;
}

export interface BriefOptions {
  readonly sessionId?: string;
  /** What the session was given already (a resumed conversation); nothing by default. */
  readonly said?: SaidInSession;
  /** A cold tier is read from Graphiti first, within this many milliseconds; omitted: never. */
  readonly refreshWithinMs?: number;
}

/** Facts from the tier for a query Graphiti did not answer. */
export interface CachedRecall {
  readonly facts: readonly RecalledFact[];
  /** When the tier last changed (ISO 8601): say "cached N minutes ago". */
  readonly cachedAt: string;
}

export interface CachedRecallOptions {
  readonly maxFacts?: number;
  readonly sessionId?: string;
  readonly said?: SaidInSession;
}

export interface LocalTier {
  /** A promotion just queued (`entry`: its outbox entry): shown by the next brief before Graphiti stored it. Never rejects. */
  recordPromotion(promotion: { readonly kind: string; readonly scope: PromotionScope; readonly text: string }, entry: OutboxEntry): Promise<void>;
  /** Waits for the tier writes under way (a recall records in the background); never rejects. */
  flush(): Promise<void>;
  /** Facts a recall returned (`fetchedAt`: when it started). Never rejects. */
  recordRecalled(facts: readonly RecalledFact[], fetchedAt: Date, sessionId?: string): Promise<void>;
  /** Session digests delivery confirmation found: the bridge's sessions. Never rejects. */
  recordDigests(sources: readonly EpisodeSource[]): Promise<void>;
  /** Groups forgotten: out of every tier of the endpoint. Never rejects. */
  forgetGroups(groupIds: readonly string[]): Promise<void>;
  /**
   * One source forgotten: what came from these episodes (and the facts deleted with them) leaves every
   * tier; `episodeNames`: their names, so a promotion recorded here before Graphiti's copy was read back
   * (it has no uuid yet) leaves too. Never rejects.
   */
  forgetEpisodes(episodes: readonly string[], deletedFacts?: readonly string[], episodeNames?: readonly string[]): Promise<void>;
  /** This workspace's tier as it is kept (no scope filter, no annotation); `undefined` when there is none. */
  read(): Promise<TierContent | undefined>;
  /** Reads this workspace's tier from Graphiti (the scopes `recall.scopes` allows). Rejects when Graphiti does. */
  refresh(signal?: AbortSignal): Promise<TierContent | undefined>;
  /** The brief for a session; `undefined` when there is no workspace. Never rejects. */
  brief(options?: BriefOptions): Promise<TierBrief | undefined>;
  /** The tier's facts for `query` when Graphiti did not answer; `undefined` when none match. Never rejects. */
  cachedRecall(query: string, options?: CachedRecallOptions): Promise<CachedRecall | undefined>;
}
export const LocalTier = Symbol.for('graphiti-memory.LocalTier');

/** A tier read from Graphiti longer ago than this is due for a refresh in the background. */
export const TIER_STALE_MS = 10 * 60_000;
/** How long a read waits for its own write (the tier is a cache: the write goes on, the answer does not wait). */
const WRITE_WAIT_MS = 150;

interface BriefGroups extends TierGroups {
  readonly session?: string;
  /** The scopes `recall.scopes` allows the brief. */
  readonly scopes: ReadonlySet<MemoryScope>;
}

@injectable()
export class DefaultLocalTier implements LocalTier {
  private readonly tool: string;
  /** Writes under way: `flush` waits for them (a hook answers, then its process may end). */
  private readonly writing = new Set<Promise<void>>();

  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(GraphitiConnection) private readonly connection: GraphitiConnection,
    @inject(SecretGuard) private readonly guard: SecretGuard,
    @inject(Clock) private readonly clock: Clock,
    @inject(Logger) private readonly logger: Logger,
    @inject(LocalTierStore) @optional() private readonly store?: LocalTierStore,
    @inject(EpisodeSources) @optional() private readonly episodeSources?: EpisodeSources,
    @inject(WorkspaceFiles) @optional() private readonly workspaceFiles?: WorkspaceFiles,
    @inject(ForgetLedger) @optional() private readonly forgotten?: ForgetLedger,
    @inject(GroupRecorderOptions) @optional() recorder?: GroupRecorderOptions,
  ) {
    this.tool = toolLabel(recorder?.tool ?? 'unknown');
  }

  async recordPromotion(promotion: { readonly kind: string; readonly scope: PromotionScope; readonly text: string }, entry: OutboxEntry): Promise<void> {
    const { kind, scope } = promotion;
    if (!isBriefKind(kind) || !isPromotionScope(scope)) return;
    await this.quietly('recording a promotion', async (store, endpoint) => {
      const workspace = await this.groups.resolve('workspace');
      if (workspace === undefined) return;
      const now = this.now();
      const recorded: TierPromotion = {
        kind,
        scope,
        text: promotion.text.trim(),
        createdAt: validTime(entry.message.timestamp) ?? now.toISOString(),
        groupId: entry.groupId,
        episodeName: entry.message.name ?? '',
        tool: entry.source?.tool ?? this.tool,
      };
      // A user-scope memory belongs to every workspace's brief.
      const others = scope === 'user' ? (await store.workspaceGroups(endpoint)).filter((group) => group !== workspace) : [];
      for (const group of [workspace, ...others]) {
        await store.update({ endpoint, workspaceGroup: group }, (tier) => withPromotion(tier ?? emptyTier(endpoint, group, now), recorded, now));
      }
    });
  }

  async flush(): Promise<void> {
    await Promise.all([...this.writing]);
  }

  async recordRecalled(facts: readonly RecalledFact[], fetchedAt: Date, sessionId?: string): Promise<void> {
    if (facts.length === 0) return;
    await this.quietly('recording recalled facts', async (store, endpoint) => {
      const resolved = await this.groups.resolveMany(SCOPE_ORDER, sessionId === undefined ? {} : { sessionId });
      const groupOf = new Map(resolved.map((group) => [group.scope, group.groupId]));
      const workspace = groupOf.get('workspace');
      if (workspace === undefined) return;
      // A fact is cached only with its group: without it, a session fact could not be kept to its session.
      const grouped = facts.flatMap((fact) => {
        const groupId = groupOf.get(fact.scope);
        return groupId === undefined ? [] : [{ ...fact, groupId }];
      });
      const now = this.now();
      await store.update({ endpoint, workspaceGroup: workspace }, (tier) => withRecalledFacts(tier ?? emptyTier(endpoint, workspace, now), grouped, now, fetchedAt));
    });
  }

  async recordDigests(sources: readonly EpisodeSource[]): Promise<void> {
    const digests = sources.filter((source) => source.session !== undefined);
    if (digests.length === 0) return;
    await this.quietly('recording a session digest', async (store, endpoint) => {
      const now = this.now();
      for (const group of await store.workspaceGroups(endpoint)) {
        // The workspace copy makes the session this workspace's; any other copy (its session group) joins a session known here.
        const relevant = digests.filter((digest) => digest.groupId === group);
        const copies = digests.filter((digest) => digest.groupId !== group);
        await store.update({ endpoint, workspaceGroup: group }, (current) => {
          let tier = current ?? emptyTier(endpoint, group, now);
          for (const digest of relevant) tier = withSession(tier, digestOf(digest), now);
          for (const digest of copies) {
            if (tier.sessions?.some((session) => session.session === digest.session) === true) tier = withSession(tier, digestOf(digest), now);
          }
          return tier;
        });
      }
    });
  }

  async forgetGroups(groupIds: readonly string[]): Promise<void> {
    if (groupIds.length === 0) return;
    await this.quietly('removing forgotten groups', async (store, endpoint) => {
      const now = this.now();
      for (const group of await store.workspaceGroups(endpoint)) {
        await store.update({ endpoint, workspaceGroup: group }, (tier) => withoutGroups(tier ?? emptyTier(endpoint, group, now), groupIds, now));
      }
    });
  }

  async forgetEpisodes(episodes: readonly string[], deletedFacts: readonly string[] = [], episodeNames: readonly string[] = []): Promise<void> {
    if (episodes.length === 0 && deletedFacts.length === 0 && episodeNames.length === 0) return;
    await this.quietly('removing a forgotten source', async (store, endpoint) => {
      const now = this.now();
      for (const group of await store.workspaceGroups(endpoint)) {
        await store.update({ endpoint, workspaceGroup: group }, (tier) => withoutEpisodes(tier ?? emptyTier(endpoint, group, now), episodes, deletedFacts, now, episodeNames));
      }
    });
  }

  async read(): Promise<TierContent | undefined> {
    const workspace = await this.groups.resolve('workspace');
    const endpoint = this.endpoint();
    return workspace === undefined || endpoint === undefined ? undefined : this.store?.read({ endpoint, workspaceGroup: workspace });
  }

  async refresh(signal?: AbortSignal): Promise<TierContent | undefined> {
    const groups = await this.briefGroups();
    const key = this.keyOf(groups);
    if (groups === undefined || key === undefined || this.store === undefined) return undefined;
    return this.refreshed(this.store, key, groups, await this.store.read(key), signal);
  }

  async brief(options: BriefOptions = {}): Promise<TierBrief | undefined> {
    try {
      return await this.briefUnsafe(options);
    } catch (error) {
      this.logger.warn('local tier: the brief could not be read', { errorClass: errorClassOf(error) });
      return undefined;
    }
  }

  async cachedRecall(query: string, options: CachedRecallOptions = {}): Promise<CachedRecall | undefined> {
    try {
      const groups = await this.briefGroups(options.sessionId);
      const key = this.keyOf(groups);
      if (groups === undefined || key === undefined || this.store === undefined) return undefined;
      const tier = await this.store.read(key);
      if (tier === undefined) return undefined;
      const settings = this.configuration.current().recall;
      // The scopes this query would have searched (recall's own selection), within what the tier may show.
      const scopes = typeof settings.scopes === 'string' ? selectScopes(query, settings.scopes, { team: this.configuration.current().team.consent }) : settings.scopes;
      const matching = factsMatching(tier, query, options.maxFacts ?? settings.maxFacts, this.now(), groups.session).filter(
        (fact) => scopes.includes(fact.scope) && groups.scopes.has(fact.scope),
      );
      const facts = await this.annotated(await unsaidFacts(matching, options.said ?? NOTHING_SAID));
      return facts.length === 0 ? undefined : { facts, cachedAt: tier.updatedAt };
    } catch (error) {
      this.logger.warn('local tier: no cached answer', { errorClass: errorClassOf(error) });
      return undefined;
    }
  }

  private async briefUnsafe(options: BriefOptions): Promise<TierBrief | undefined> {
    const groups = await this.briefGroups(options.sessionId);
    const key = this.keyOf(groups);
    if (groups === undefined || key === undefined) return undefined;
    let tier = await this.store?.read(key);
    const now = this.now();
    let refreshDue = tier?.refreshedAt === undefined || now.getTime() - Date.parse(tier.refreshedAt) > TIER_STALE_MS;
    let unavailable = false;
    if (tier?.refreshedAt === undefined && options.refreshWithinMs !== undefined && this.store !== undefined) {
      // Cold: one bounded read now, so the brief says what memory holds, not only what was done here.
      try {
        tier = await this.refreshed(this.store, key, groups, tier, AbortSignal.timeout(Math.max(1, options.refreshWithinMs)));
        refreshDue = false;
      } catch {
        unavailable = true;
      }
    }
    if (tier === undefined) return { found: false, updatedAt: now.toISOString(), promoted: [], facts: [], refreshDue: true, unavailable };
    const view = await tierView(tier, { scopes: groups.scopes, ...(groups.session === undefined ? {} : { sessionGroup: groups.session }), ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }), said: options.said ?? NOTHING_SAID }, now);
    const [annotatedPromotions, annotatedFacts] = await Promise.all([this.annotatedPromotions(view.promoted), this.annotated(view.facts)]);
    const bridge = view.bridge;
    return {
      found: true,
      updatedAt: tier.updatedAt,
      promoted: annotatedPromotions,
      facts: annotatedFacts,
      ...(bridge === undefined ? {} : { bridge }),
      refreshDue,
      unavailable,
    };
  }

  /** Reads Graphiti for the tier and writes what it read; waits for the write only briefly (the content is returned either way). */
  private async refreshed(store: LocalTierStore, key: TierKey, groups: BriefGroups, current: TierContent | undefined, signal?: AbortSignal): Promise<TierContent> {
    const api = this.connection.current();
    if (api === undefined) throw new Error('local tier: no Graphiti endpoint is configured, so the tier cannot be read from it.');
    const readable = await this.readableGroups(groups);
    if (readable === undefined) throw new Error('local tier: the workspace group was forgotten and its delete is still owed; nothing is read from it.');
    const refresh = await refreshTier(api, this.guard, readable, () => this.now(), signal);
    const now = this.now();
    const write = store.update(key, (tier) => withRefresh(tier ?? emptyTier(key.endpoint, key.workspaceGroup, now), refresh, now));
    const stop = new AbortController();
    const written = await Promise.race([write.catch(() => undefined), this.clock.sleep(WRITE_WAIT_MS, stop.signal).then(() => undefined)]);
    stop.abort();
    return written ?? withRefresh(current ?? emptyTier(key.endpoint, key.workspaceGroup, now), refresh, now);
  }

  /** The tier's groups a refresh may read: not one whose delete a forget still owes (what it holds was forgotten). */
  private async readableGroups(groups: BriefGroups): Promise<TierGroups | undefined> {
    let owed: Set<string>;
    try {
      owed = new Set(((await this.forgotten?.read())?.groups ?? []).filter((group) => group.deletionOwed).map((group) => group.groupId));
    } catch {
      // Unknown: reading nothing is the safe side.
      return undefined;
    }
    if (owed.has(groups.workspace) || !groups.scopes.has('workspace')) return undefined;
    const allowed = (scope: 'user' | 'team', groupId: string | undefined): boolean => groupId !== undefined && groups.scopes.has(scope) && !owed.has(groupId);
    return {
      workspace: groups.workspace,
      ...(allowed('user', groups.user) && groups.user !== undefined ? { user: groups.user } : {}),
      ...(allowed('team', groups.team) && groups.team !== undefined ? { team: groups.team } : {}),
    };
  }

  /**
   * The tier's groups and the scopes the brief may show: those `recall.scopes` allows (`auto` may
   * pick any of them), the team's only with consent to the team scope, the session's when named.
   */
  private async briefGroups(sessionId?: string): Promise<BriefGroups | undefined> {
    const settings = this.configuration.current();
    const team = settings.team.consent;
    const setting = settings.recall.scopes;
    const allowed: readonly MemoryScope[] =
      setting === 'auto' ? ['session', 'workspace', 'user', ...(team ? (['team'] as const) : [])] : typeof setting === 'string' ? selectScopes('', setting, { team }) : setting;
    const scopes = new Set(allowed.filter((scope) => scope !== 'team' || team));
    const wanted: MemoryScope[] = ['workspace', ...SCOPE_ORDER.filter((scope) => scope !== 'workspace' && scopes.has(scope) && (scope !== 'session' || sessionId !== undefined))];
    const resolved = await this.groups.resolveMany(wanted, sessionId === undefined ? {} : { sessionId });
    const groupOf = (scope: MemoryScope): string | undefined => resolved.find((group) => group.scope === scope)?.groupId;
    const workspace = groupOf('workspace');
    if (workspace === undefined) return undefined;
    const [user, teamGroup, session] = [groupOf('user'), groupOf('team'), groupOf('session')];
    return { workspace, scopes, ...(user === undefined ? {} : { user }), ...(teamGroup === undefined ? {} : { team: teamGroup }), ...(session === undefined ? {} : { session }) };
  }

  private keyOf(groups: BriefGroups | undefined): TierKey | undefined {
    const endpoint = this.endpoint();
    return groups === undefined || endpoint === undefined ? undefined : { endpoint, workspaceGroup: groups.workspace };
  }

  private endpoint(): string | undefined {
    const endpoint = normaliseEndpoint(this.configuration.current().endpoint);
    return endpoint === undefined || endpoint === '' ? undefined : endpoint;
  }

  /** Recall's sources and stale check (`recall.stale`), on the tier's facts. */
  private annotated(facts: readonly RecalledFact[]): Promise<RecalledFact[]> {
    return annotateFacts(facts, { sources: this.episodeSources, files: this.workspaceFiles }, this.configuration.current().recall.stale);
  }

  /** Promotions checked and cited as facts are: their episode's source when known here, else who promoted them and when. */
  private async annotatedPromotions(promoted: readonly TierPromotion[]): Promise<BriefPromotion[]> {
    // Ranked uuids, so each annotated fact maps back to its promotion.
    const asFacts: RecalledFact[] = promoted.map((promotion, rank) => ({ ...promotionAsFact(promotion), uuid: `promotion-${rank}`, rank }));
    const annotated = new Map((await this.annotated(asFacts)).map((fact) => [fact.uuid, fact]));
    return promoted.flatMap((promotion, rank) => {
      const fact = annotated.get(`promotion-${rank}`);
      // `recall.stale: drop` left it out.
      if (fact === undefined) return [];
      const sources = fact.sources ?? [{ tool: promotion.tool ?? 'promoted', session: null, title: null, at: promotion.createdAt, episode: promotion.episodeUuid ?? '' }];
      return [{ ...promotion, sources, ...(fact.stale === undefined ? {} : { stale: fact.stale }) }];
    });
  }

  /** Runs a tier update; the tier is a cache, so a failure is logged (no content) and never reaches the caller. */
  private async quietly(what: string, update: (store: LocalTierStore, endpoint: string) => Promise<void>): Promise<void> {
    const endpoint = this.endpoint();
    const store = this.store;
    if (store === undefined || endpoint === undefined) return;
    const write = update(store, endpoint).catch((error: unknown) => {
      this.logger.warn(`local tier: ${what} failed; the next refresh reads it from Graphiti`, { errorClass: errorClassOf(error) });
    });
    this.writing.add(write);
    try {
      await write;
    } finally {
      this.writing.delete(write);
    }
  }

  private now(): Date {
    return new Date(this.clock.now());
  }
}

/** Which part of a tier a session is shown. */
export interface TierViewOptions {
  /** The scopes `recall.scopes` allows; every scope by default. */
  readonly scopes?: ReadonlySet<MemoryScope>;
  /** The session's own group: its facts alone of all session facts are shown. */
  readonly sessionGroup?: string;
  /** The session (its own last session is not "where we left off"). */
  readonly sessionId?: string;
  /** What the session was given already. */
  readonly said?: SaidInSession;
}

/**
 * What the brief shows of `tier`, before the stale check and citations: promotions of the allowed
 * scopes, then the current facts no promotion already says, then the bridge — each only when the
 * session was not given it.
 */
export async function tierView(tier: TierContent, options: TierViewOptions, now: Date): Promise<{ promoted: TierPromotion[]; facts: RecalledFact[]; bridge?: TierBridge }> {
  const said = options.said ?? NOTHING_SAID;
  const shown = (scope: MemoryScope): boolean => options.scopes === undefined || options.scopes.has(scope);
  const promoted = briefPromotions(tier).filter((promotion) => shown(promotion.scope));
  const facts = visibleFacts(tier, now, options.sessionGroup).filter((fact) => shown(fact.scope) && !repeatsAPromotion(fact, promoted));
  const bridge = shown('workspace') ? await unsaidBridge(bridgeOf(tier, options.sessionId), said) : undefined;
  return { promoted: await unsaidPromotions(promoted, said), facts: await unsaidFacts(facts, said), ...(bridge === undefined ? {} : { bridge }) };
}

async function unsaidPromotions(promoted: readonly TierPromotion[], said: SaidInSession): Promise<TierPromotion[]> {
  if (said.texts.length === 0 && said.episodes.length === 0) return [...promoted];
  const texts = new Set(said.texts);
  const episodes = new Set(said.episodes);
  const kept = await Promise.all(promoted.map(async (promotion) => !(promotion.episodeUuid !== undefined && episodes.has(promotion.episodeUuid)) && !texts.has(await saidTextHash(promotion.text))));
  return promoted.filter((_, index) => kept[index] === true);
}

async function unsaidBridge(bridge: TierBridge | undefined, said: SaidInSession): Promise<TierBridge | undefined> {
  if (bridge === undefined) return undefined;
  return said.texts.includes(await saidTextHash(bridge.saidKey)) ? undefined : bridge;
}

function digestOf(source: EpisodeSource): { session: string; tool: string; title?: string; at: string; episode: string; groupId: string } {
  return { session: source.session ?? '', tool: source.tool, ...(source.title === undefined ? {} : { title: source.title }), at: source.at, episode: source.episode, groupId: source.groupId };
}

function validTime(value: unknown): string | undefined {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : undefined;
}
