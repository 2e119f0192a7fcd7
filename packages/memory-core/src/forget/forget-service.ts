// Forget: the groups a request covers (forget-policy), their queued messages dequeued first (so the
// drain cannot send them after the delete) and their pending memories dropped, then each group
// deleted on the server and dropped from the registry. A group whose delete failed stays in the registry, so forgetting again retries it.
import { inject, injectable, optional } from 'inversify';
import { errorClassOf } from '../errors/graphiti-failure.js';
import { GraphitiConnection, Logger, type GraphitiApi, type GraphitiCallOptions } from '../ports.js';
import { GroupRegistry } from '../registry/group-registry.js';
import { GroupIdResolver } from '../scopes/group-id-resolver.js';
import { forgetTargets, type CurrentGroups, type ForgetRequest, type ForgetTarget } from './forget-policy.js';
import { PendingMemoryStore } from '../review/pending-memory-store.js';
import { QueuedGroups } from './queued-groups.js';

/** Episodes of the team group listed to find this user's (the newest first on neither face: enough for years of promotions). */
const TEAM_FORGET_LISTING = 10_000;

export interface ForgetFailure {
  readonly groupId: string;
  readonly errorClass: string;
  readonly message: string;
}

export interface ForgetResult {
  /** Groups deleted on the server (and dropped from the registry). */
  readonly deletedGroups: readonly string[];
  /** A team forget of this user's part: the episodes of theirs deleted from the shared group. */
  readonly deletedEpisodes?: number;
  /** Messages taken out of the outbox before they were sent. */
  readonly dequeued: number;
  /** Pending memories (waiting for review) of those groups, dropped unsent. */
  readonly droppedPending: number;
  /** Groups whose delete failed; they stay in the registry. */
  readonly failed: readonly ForgetFailure[];
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
   * Dequeues and deletes every group `request` covers. Throws only when there is no connection
   * (nothing changed then); per-group delete failures are reported in `failed`.
   */
  async forget(request: ForgetRequest, options: GraphitiCallOptions = {}): Promise<ForgetResult> {
    const api = this.connection.current();
    if (api === undefined) throw new Error('forget: no Graphiti endpoint is configured, so nothing can be deleted; set the endpoint first.');
    const targets = await this.plan(request);
    const groupIds = targets.map((target) => target.groupId);
    const dequeued = await this.queued.dequeue(groupIds);
    // Pending memories kept before they named their group: only the user scope has one group to match.
    const droppedPending = (await this.pending?.forgetGroups(groupIds, targets.some((target) => target.scope === 'user') ? ['user'] : [])) ?? 0;
    const deletedGroups: string[] = [];
    const failed: ForgetFailure[] = [];
    let deletedEpisodes: number | undefined;
    for (const target of targets) {
      const { groupId } = target;
      try {
        if (target.scope === 'team' && !('all' in request) && request.scope === 'team' && request.allAuthors !== true) {
          // The group is shared: delete only this user's episodes; the record goes once none is left.
          const own = await this.forgetOwnTeamEpisodes(api, groupId, options);
          deletedEpisodes = own.deleted;
          if (own.complete) deletedGroups.push(groupId);
          else failed.push({ groupId, errorClass: 'PartialForget', message: 'some of your team episodes could not be deleted; run forget --scope team again' });
          continue;
        }
        await api.deleteGroup(groupId, options);
        deletedGroups.push(groupId);
      } catch (error) {
        failed.push({ groupId, errorClass: errorClassOf(error), message: error instanceof Error ? error.message : String(error) });
      }
    }
    await this.registry?.remove(deletedGroups);
    this.logger.info('forget: groups deleted', { deleted: deletedGroups.length, failed: failed.length, dequeued, droppedPending });
    return { deletedGroups, dequeued, droppedPending, failed, ...(deletedEpisodes === undefined ? {} : { deletedEpisodes }) };
  }

  /**
   * Deletes the episodes of the team group whose names this user's registry holds (found by listing
   * the group), and on REST the facts only those episodes support (REST keeps a deleted episode's
   * facts; MCP removes them itself, so its edges are already gone and a 404 is expected).
   */
  private async forgetOwnTeamEpisodes(api: GraphitiApi, groupId: string, options: GraphitiCallOptions): Promise<{ deleted: number; complete: boolean }> {
    const record = ((await this.registry?.list()) ?? []).find((candidate) => candidate.groupId === groupId);
    const names = new Set(record?.episodeNames ?? []);
    if (names.size === 0) return { deleted: 0, complete: true };
    const episodes = await api.getEpisodes(groupId, { lastN: TEAM_FORGET_LISTING }, options);
    const own = episodes.filter((episode) => names.has(episode.name));
    const othersEdges = new Set(episodes.filter((episode) => !names.has(episode.name)).flatMap((episode) => episode.entity_edges));
    let deleted = 0;
    let complete = true;
    for (const episode of own) {
      try {
        await api.deleteEpisode(episode.uuid, options);
        deleted++;
      } catch (error) {
        // Already gone (another tool's forget) counts as deleted.
        if ((error as { status?: number }).status === 404) deleted++;
        else complete = false;
      }
      for (const edge of episode.entity_edges) {
        if (othersEdges.has(edge) || api.deleteEntityEdge === undefined) continue;
        try {
          await api.deleteEntityEdge(edge, options);
        } catch {
          // MCP's delete_episode removed it already, or the server no longer has it.
        }
      }
    }
    return { deleted, complete };
  }

  private async current(request: ForgetRequest): Promise<CurrentGroups> {
    const sessionId = !('all' in request) && request.scope === 'session' ? request.sessionId : undefined;
    // Resolving the user scope may create the user key: only when the user scope is named.
    const namesUser = 'all' in request ? request.includeUser === true : request.scope === 'user';
    const namesTeam = !('all' in request) && request.scope === 'team';
    const [workspace, user, session, team] = await Promise.all([
      this.groups.resolve('workspace'),
      namesUser ? this.groups.resolve('user') : Promise.resolve(undefined),
      sessionId === undefined ? Promise.resolve(undefined) : this.groups.resolve('session', { sessionId }),
      namesTeam ? this.groups.resolve('team') : Promise.resolve(undefined),
    ]);
    return {
      ...(workspace === undefined ? {} : { workspace }),
      ...(user === undefined ? {} : { user }),
      ...(team === undefined ? {} : { team }),
      ...(session === undefined ? {} : { session }),
    };
  }
}
