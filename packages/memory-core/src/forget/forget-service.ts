// Forget: the groups a request covers (forget-policy) are recorded as forgotten first (durably,
// per endpoint: no process sends what was queued for them, their turns are never planned again,
// and their delete is owed), their queued messages dequeued and their pending memories dropped —
// all before the network is touched, so a forget works offline — then each group is deleted on
// the server and dropped from the registry. A delete that fails stays owed: the next drain pass,
// `forget --retry` or any later forget carries it out. The group stays in the registry until then.
import { inject, injectable, optional } from 'inversify';
import { errorClassOf } from '../errors/graphiti-failure.js';
import { deliveryKey } from '../ingestion/in-memory-delivery-ledger.js';
import { Clock, GraphitiConnection, IngestionStorage, Logger, type GraphitiApi, type GraphitiCallOptions } from '../ports.js';
import { GroupRegistry } from '../registry/group-registry.js';
import { MemoryConfiguration } from '../settings/memory-configuration.js';
import { GroupIdResolver } from '../scopes/group-id-resolver.js';
import { forgetTargets, type CurrentGroups, type ForgetRequest, type ForgetTarget } from './forget-policy.js';
import { PendingMemoryStore } from '../review/pending-memory-store.js';
import { forgetEpisode } from './episode-forgetting.js';
import { ForgetLedger, forgottenTurnKeyOfName } from './forget-ledger.js';
import { OwedDeletions, type OwedDeletionsResult } from './owed-deletions.js';
import { QueuedGroups } from './queued-groups.js';
import { EpisodeSources } from '../sources/episode-sources.js';
import { groupsDeliveredTo, relatedGroups, sourceCopies } from './source-copies.js';
import { LocalTier } from '../tier/local-tier.js';
import { forgottenLoop } from '../loops/loop-policy.js';
import { LoopStore } from '../loops/open-loop.js';
import { InstructionImports } from '../instructions/instruction-imports.js';

import type { ForgetFailure } from './owed-deletions.js';
export type { ForgetFailure } from './owed-deletions.js';

/** Episodes of the team group listed to find this user's (the newest first on neither face: enough for years of promotions). */
const TEAM_FORGET_LISTING = 10_000;

export interface ForgetResult {
  /** Groups deleted on the server (and dropped from the registry). */
  readonly deletedGroups: readonly string[];
  /** A team forget of this user's part: the episodes of theirs deleted from the shared group. */
  readonly deletedEpisodes?: number;
  /** Messages taken out of the outbox before they were sent. */
  readonly dequeued: number;
  /** Pending memories (waiting for review) of those groups, dropped unsent. */
  readonly droppedPending: number;
  /** Loops of those groups (and of a forgotten session), dropped from the state folder. */
  readonly droppedLoops: number;
  /** Groups whose delete failed; they stay in the registry. */
  readonly failed: readonly ForgetFailure[];
  /**
   * Groups whose delete is recorded as owed (they failed now): carried out when Graphiti is back
   * (the next drain pass, `forget --retry`). Empty where no forget ledger is bound.
   */
  readonly owed: readonly string[];
  /** Turns of those groups recorded as forgotten (never planned again, under any session id). */
  readonly forgottenTurns: number;
  /** Deletes an earlier forget owed, carried out now. */
  readonly earlierDeleted: readonly string[];
}

/** What forgetting one source deleted: every copy of it, and (REST) the facts only they supported. */
export interface SourceForgetResult {
  readonly face: 'rest' | 'mcp';
  /** The episodes deleted: the one named and its copies in the other groups it was sent to. */
  readonly episodes: readonly { readonly episode: string; readonly groupId: string }[];
  /** Facts deleted because only these episodes supported them (REST); `undefined` on MCP, which removes them itself without saying how many. */
  readonly deletedFacts: readonly string[] | undefined;
  /** Facts other episodes support too: kept. */
  readonly keptFacts: number;
  /** Facts whose server did not say which episodes support them: kept. */
  readonly unknownFacts: number;
}

/** What forgetting a source did, in the words every tool shows (what was really deleted, counted). */
export function sourceForgetSummary(result: SourceForgetResult): string {
  const episodes = `${result.episodes.length} ${result.episodes.length === 1 ? 'episode' : 'episodes'}`;
  const groups = new Set(result.episodes.map((copy) => copy.groupId)).size;
  const where = groups === 1 ? '1 group' : `${groups} groups`;
  if (result.deletedFacts === undefined) {
    return `forgot the source: ${episodes} deleted from ${where}; the server removed the facts only they supported (its MCP face does not say how many)`;
  }
  const facts = `${result.deletedFacts.length} ${result.deletedFacts.length === 1 ? 'fact' : 'facts'}`;
  return `forgot the source: ${episodes} deleted from ${where}, with ${facts} only they supported`;
}

@injectable()
export class ForgetService {
  constructor(
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(GraphitiConnection) private readonly connection: GraphitiConnection,
    @inject(QueuedGroups) private readonly queued: QueuedGroups,
    @inject(Logger) private readonly logger: Logger,
    @inject(GroupRegistry) @optional() private readonly registry?: GroupRegistry,
    @inject(PendingMemoryStore) @optional() private readonly pending?: PendingMemoryStore,
    @inject(OwedDeletions) @optional() private readonly owedDeletions?: OwedDeletions,
    @inject(ForgetLedger) @optional() private readonly ledger?: ForgetLedger,
    @inject(IngestionStorage) @optional() private readonly storage?: IngestionStorage,
    @inject(Clock) @optional() private readonly clock?: Pick<Clock, 'now'>,
    @inject(EpisodeSources) @optional() private readonly sources?: EpisodeSources,
    @inject(LocalTier) @optional() private readonly tier?: Pick<LocalTier, 'forgetGroups' | 'forgetEpisodes'>,
    @inject(MemoryConfiguration) @optional() private readonly configuration?: MemoryConfiguration,
    @inject(LoopStore) @optional() private readonly loops?: LoopStore,
    @inject(InstructionImports) @optional() private readonly imports?: InstructionImports,
  ) {}

  /** The groups `request` covers; nothing is changed. */
  async plan(request: ForgetRequest): Promise<ForgetTarget[]> {
    if (!('all' in request) && request.scope === 'session' && request.sessionId.trim() === '') {
      throw new Error('forget: a session forget needs the session id; pass the id of the chat session to forget.');
    }
    await this.registry?.flush();
    const records = (await this.registry?.list()) ?? [];
    return forgetTargets(request, records, await this.current(request));
  }

  /**
   * Records the forget, dequeues and drops locally, then deletes every group `request` covers.
   * Throws only when there is no connection (nothing changed then); a delete that fails is reported
   * in `failed` and, with a forget ledger, stays owed (`owed`) until Graphiti is back.
   */
  async forget(request: ForgetRequest, options: GraphitiCallOptions = {}): Promise<ForgetResult> {
    const api = this.connection.current();
    if (api === undefined) throw new Error('forget: no Graphiti endpoint is configured, so nothing can be deleted; set the endpoint first.');
    const targets = await this.plan(request);
    const groupIds = targets.map((target) => target.groupId);
    // A team forget of this user's part deletes their episodes, never the shared group: it is not
    // owed as a group delete (a later retry would delete every author's memories).
    const ownTeam = targets.filter((target) => target.scope === 'team' && !('all' in request) && request.scope === 'team' && request.allAuthors !== true);
    const wholeGroups = groupIds.filter((groupId) => !ownTeam.some((target) => target.groupId === groupId));
    // Durable before anything else: a live process re-reads it before each send, and a crash
    // from here on still leaves the delete owed.
    await this.owedDeletions?.owe(wholeGroups, this.clock?.now() ?? Date.now());
    // Out of every tool's brief and cached answers at once, Graphiti up or down.
    await this.tier?.forgetGroups(groupIds);
    const dequeued = await this.queued.dequeue(groupIds);
    // After the dequeue: it took over dead processes' journals, whose keys count too.
    // The record of delivered episodes lets go of them (and of the forgotten session's first prompt
    // line); the content keys it held are forgotten with the turns.
    const sessions = !('all' in request) && request.scope === 'session' ? [request.sessionId] : [];
    const removedSources = (await this.sources?.forgetGroups(groupIds, sessions).catch(() => [])) ?? [];
    const forgottenTurns = await this.forgetTurns(groupIds, removedSources.flatMap((source) => source.contents ?? []));
    const droppedPending = await this.forgetPending(targets);
    const droppedLoops = await this.forgetLoops(groupIds, sessions);
    // A later import-instructions sends those lines again: their memories are gone.
    await this.imports?.forgetGroups(groupIds).catch((error: unknown) => this.logger.warn('forget: the instruction import record was not updated', { errorClass: errorClassOf(error) }));
    const earlier = (await this.owedDeletions?.owed())?.filter((groupId) => !groupIds.includes(groupId)) ?? [];
    const now = await this.deleteGroups(api, wholeGroups, options);
    const deletedGroups = [...now.deleted];
    const failed = [...now.failed];
    let deletedEpisodes: number | undefined;
    for (const { groupId } of ownTeam) {
      try {
        const own = await this.forgetOwnTeamEpisodes(api, groupId, options);
        deletedEpisodes = own.deleted;
        if (own.complete) deletedGroups.push(groupId);
        else failed.push({ groupId, errorClass: 'PartialForget', message: 'some of your team episodes could not be deleted; run forget --scope team again' });
      } catch (error) {
        failed.push({ groupId, errorClass: errorClassOf(error), message: error instanceof Error ? error.message : String(error) });
      }
    }
    const ownDeleted = deletedGroups.filter((groupId) => !now.deleted.includes(groupId));
    await this.registry?.remove(ownDeleted);
    const earlierDeleted = earlier.length > 0 && deletedGroups.length > 0 ? (await this.deleteGroups(api, earlier, options)).deleted : [];
    const owed = this.owedDeletions?.recorded === true ? now.failed.map((failure) => failure.groupId) : [];
    this.logger.info('forget: groups deleted', { deleted: deletedGroups.length, failed: failed.length, owed: owed.length, dequeued, droppedPending, forgottenTurns });
    return {
      deletedGroups,
      dequeued,
      droppedPending,
      droppedLoops,
      failed,
      owed,
      forgottenTurns,
      earlierDeleted,
      ...(deletedEpisodes === undefined ? {} : { deletedEpisodes }),
    };
  }

  /** Drops the loops of the forgotten groups, and those said in a forgotten session. */
  private async forgetLoops(groupIds: readonly string[], sessions: readonly string[]): Promise<number> {
    if (this.loops === undefined) return 0;
    const groups = new Set(groupIds);
    const sessionIds = new Set(sessions);
    return this.loops.update((current) => {
      const kept = current.filter((loop) => !forgottenLoop(loop, groups, sessionIds));
      return kept.length === current.length ? { result: 0 } : { next: kept, result: current.length - kept.length };
    });
  }

  /**
   * Drops the pending memories of the forgotten groups. A record kept before pending memories named
   * their groups goes with a forgotten session it was said in and, failing that, with any forget of
   * its scope: it cannot be shown to belong elsewhere (the pending file is shared by every workspace).
   */
  private async forgetPending(targets: readonly ForgetTarget[]): Promise<number> {
    if (this.pending === undefined) return 0;
    // Pending memories are promotions: none is ever kept for the mirror.
    const scopes = [...new Set(targets.flatMap((target) => (target.scope === 'session' || target.scope === 'mirror' ? [] : [target.scope])))];
    const sessions = targets.flatMap((target) => (target.sessionId === undefined ? [] : [target.sessionId]));
    return this.pending.forgetGroups(
      targets.map((target) => target.groupId),
      scopes,
      sessions,
    );
  }

  /**
   * Forgets one source (`forget --episode`, "Forget This Source", a citation) in every group it was
   * sent to: the episode, its copies of the same name in its other groups (its session's and its
   * workspace's, found through the delivery ledger, else the group registry) and, on REST, the facts
   * only those episodes support. A captured turn is also recorded as forgotten, so no capture sends it
   * again. `groupId`: the episode's group when this machine did not deliver it.
   */
  async forgetSource(episode: string, options: { readonly groupId?: string; readonly callOptions?: GraphitiCallOptions } = {}): Promise<SourceForgetResult> {
    const api = this.connection.current();
    if (api === undefined) throw new Error('forget: no Graphiti endpoint is configured, so nothing can be deleted; set the endpoint first.');
    const call = options.callOptions ?? {};
    const groupId = options.groupId ?? (await this.sources?.find([episode]))?.get(episode)?.groupId;
    if (groupId === undefined) {
      throw new Error(
        `The group of episode ${episode} is not known on this machine (it was not delivered from here). Pass its group id (--group GROUP_ID): its copies and its facts are found through its group.`,
      );
    }
    const { name, copies } = await sourceCopies(api, { episode, groupId, callOptions: call, candidates: (candidate) => this.copyGroups(candidate, groupId) });
    const uuids = copies.map((copy) => copy.episode);
    let face: 'rest' | 'mcp' = 'rest';
    const deletedFacts: string[] = [];
    let keptFacts = 0;
    let unknownFacts = 0;
    const deleted: { episode: string; groupId: string }[] = [];
    for (const copy of copies) {
      try {
        const result = await forgetEpisode(api, copy.episode, {
          groupId: copy.groupId,
          callOptions: call,
          alsoForgotten: uuids,
          ...(name === undefined ? {} : { episodeName: name }),
          ...(copy.entityEdges === undefined ? {} : { entityEdges: copy.entityEdges }),
          ...(this.sources === undefined ? {} : { sources: this.sources }),
          // Out of every tool's brief and cached answers at once, Graphiti up or down.
          ...(this.tier === undefined ? {} : { tier: this.tier }),
        });
        face = result.face;
        deletedFacts.push(...result.deletedFacts);
        keptFacts += result.keptFacts;
        unknownFacts += result.unknownFacts;
        deleted.push({ episode: copy.episode, groupId: copy.groupId });
      } catch (error) {
        // A copy already gone (another tool's forget) is not counted as deleted now; the one named must exist.
        if ((error as { status?: number }).status !== 404 || copy.episode === episode) throw error;
      }
    }
    if (name !== undefined) {
      await this.forgetTurnsOfNames([name]);
      // An imported instruction line whose memory this was is imported again by the next import.
      await this.imports?.forgetEpisodes([name]).catch((error: unknown) => this.logger.warn('forget: the instruction import record was not updated', { errorClass: errorClassOf(error) }));
    }
    this.logger.info('forget: source forgotten', { episodes: deleted.length, facts: deletedFacts.length, face });
    return { face, episodes: deleted, deletedFacts: face === 'mcp' ? undefined : deletedFacts, keptFacts, unknownFacts };
  }

  /** The groups a source named `name` may have copies in: the delivery ledger's, else the registry's relations. */
  private async copyGroups(name: string, groupId: string): Promise<string[]> {
    const store = this.storage === undefined ? undefined : (this.storage.current() ?? (await this.storage.open().catch(() => undefined)));
    const delivered = groupsDeliveredTo((await store?.ledger.keys?.()) ?? [], name);
    if (delivered.length > 0) return delivered.filter((candidate) => candidate !== groupId);
    return relatedGroups((await this.registry?.list()) ?? [], groupId);
  }

  /** A forgotten turn (by its episode's name) is never planned again under any session id. */
  private async forgetTurnsOfNames(names: readonly string[]): Promise<void> {
    if (this.ledger === undefined) return;
    const keys = (await Promise.all(names.map((name) => forgottenTurnKeyOfName(name)))).filter((key): key is string => key !== undefined);
    if (keys.length > 0) await this.ledger.forgetTurns(keys);
  }

  /** Carries out the deletes earlier forgets owe (`forget --retry`); what fails stays owed. */
  async retryOwed(options: GraphitiCallOptions = {}): Promise<OwedDeletionsResult> {
    const api = this.connection.current();
    if (api === undefined) throw new Error('forget: no Graphiti endpoint is configured, so nothing can be deleted; set the endpoint first.');
    return this.owedDeletions?.carryOut(api, options) ?? { deleted: [], failed: [] };
  }

  /** The groups whose delete is owed. */
  async owed(): Promise<string[]> {
    return (await this.owedDeletions?.owed()) ?? [];
  }

  private async deleteGroups(api: GraphitiApi, groupIds: readonly string[], options: GraphitiCallOptions): Promise<OwedDeletionsResult> {
    return (this.owedDeletions ?? new OwedDeletions(this.logger, undefined, this.registry)).carryOut(api, options, groupIds);
  }

  /**
   * The turns the delivery ledger knows for these groups (sent or queued, by any process of this
   * endpoint), recorded as forgotten by the hash of their id, and `contentKeys` (the content
   * hashes the record of delivered episodes held for them): a resumed transcript that carries them
   * under a new session id, or with new message ids, plans nothing for them.
   */
  private async forgetTurns(groupIds: readonly string[], contentKeys: readonly string[]): Promise<number> {
    if (this.ledger === undefined || groupIds.length === 0) return 0;
    if (this.storage === undefined) {
      if (contentKeys.length > 0) await this.ledger.forgetTurns([...new Set(contentKeys)]);
      return 0;
    }
    const store = await this.storage.open();
    const keys = (await store.ledger.keys?.()) ?? [];
    const prefixes = groupIds.map((groupId) => deliveryKey(groupId, ''));
    const turnKeys = new Set<string>();
    for (const key of keys) {
      const prefix = prefixes.find((candidate) => key.startsWith(candidate));
      if (prefix === undefined) continue;
      const turnKey = await forgottenTurnKeyOfName(key.slice(prefix.length));
      if (turnKey !== undefined) turnKeys.add(turnKey);
    }
    // Content keys beside the id keys: the same turn under new message ids is forgotten too.
    const all = new Set([...turnKeys, ...contentKeys]);
    if (all.size > 0) await this.ledger.forgetTurns([...all]);
    return turnKeys.size;
  }

  /**
   * Deletes the episodes of the team group whose names this user's registry holds (found by listing
   * the group once), each as `forgetEpisode` forgets one source: on REST with the facts only it
   * supports (REST keeps a deleted episode's facts), on MCP the episode alone (it cascades).
   */
  private async forgetOwnTeamEpisodes(api: GraphitiApi, groupId: string, options: GraphitiCallOptions): Promise<{ deleted: number; complete: boolean }> {
    const record = ((await this.registry?.list()) ?? []).find((candidate) => candidate.groupId === groupId);
    const names = new Set(record?.episodeNames ?? []);
    if (names.size === 0) return { deleted: 0, complete: true };
    const episodes = await api.getEpisodes(groupId, { lastN: TEAM_FORGET_LISTING }, options);
    let deleted = 0;
    let complete = true;
    for (const episode of episodes.filter((candidate) => names.has(candidate.name))) {
      try {
        await forgetEpisode(api, episode.uuid, { groupId, entityEdges: episode.entity_edges, callOptions: options });
        deleted++;
      } catch (error) {
        // Already gone (another tool's forget) counts as deleted.
        if ((error as { status?: number }).status === 404) deleted++;
        else complete = false;
      }
    }
    return { deleted, complete };
  }

  private async current(request: ForgetRequest): Promise<CurrentGroups> {
    const sessionId = !('all' in request) && request.scope === 'session' ? request.sessionId : undefined;
    // Resolving the user scope may create the user key: only when the user scope is named.
    const namesUser = 'all' in request ? request.includeUser === true : request.scope === 'user';
    const namesTeam = !('all' in request) && request.scope === 'team';
    const [workspace, user, session, team, mirror] = await Promise.all([
      this.groups.resolve('workspace'),
      namesUser ? this.groups.resolve('user') : Promise.resolve(undefined),
      sessionId === undefined ? Promise.resolve(undefined) : this.groups.resolve('session', { sessionId }),
      namesTeam ? this.groups.resolve('team') : Promise.resolve(undefined),
      // A workspace forget takes its mirror group too: while the mirror is on, and whenever the
      // registry knows it was written (forget-policy.ts). Resolving it sends nothing.
      this.configuration?.current().mirror.enabled === true ? this.groups.resolve('mirror') : Promise.resolve(undefined),
    ]);
    return {
      ...(workspace === undefined ? {} : { workspace }),
      ...(mirror === undefined ? {} : { mirror }),
      ...(user === undefined ? {} : { user }),
      ...(team === undefined ? {} : { team }),
      ...(session === undefined ? {} : { session }),
    };
  }
}
