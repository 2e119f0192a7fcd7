// Forget: the groups a request covers (forget-policy) are recorded as forgotten first (durably,
// per endpoint: no process sends what was queued for them, their turns are never planned again,
// and their delete is owed), their queued messages dequeued and their pending memories dropped —
// all before the network is touched, so a forget works offline — then each group is deleted on
// the server and dropped from the registry. A delete that fails stays owed: the next drain pass,
// `forget --retry` or any later forget carries it out. The group stays in the registry until then.
import { inject, injectable, optional } from 'inversify';
import { deliveryKey } from '../ingestion/in-memory-delivery-ledger.js';
import { Clock, GraphitiConnection, IngestionStorage, Logger, type GraphitiApi, type GraphitiCallOptions } from '../ports.js';
import { GroupRegistry } from '../registry/group-registry.js';
import { GroupIdResolver } from '../scopes/group-id-resolver.js';
import { forgetTargets, type CurrentGroups, type ForgetRequest, type ForgetTarget } from './forget-policy.js';
import { PendingMemoryStore } from '../review/pending-memory-store.js';
import { ForgetLedger, forgottenTurnKeyOfName } from './forget-ledger.js';
import { OwedDeletions, type OwedDeletionsResult } from './owed-deletions.js';
import { QueuedGroups } from './queued-groups.js';

import type { ForgetFailure } from './owed-deletions.js';
export type { ForgetFailure } from './owed-deletions.js';

export interface ForgetResult {
  /** Groups deleted on the server (and dropped from the registry). */
  readonly deletedGroups: readonly string[];
  /** Messages taken out of the outbox before they were sent. */
  readonly dequeued: number;
  /** Pending memories (waiting for review) of those groups, dropped unsent. */
  readonly droppedPending: number;
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
    // Durable before anything else: a live process re-reads it before each send, and a crash
    // from here on still leaves the delete owed.
    await this.owedDeletions?.owe(groupIds, this.clock?.now() ?? Date.now());
    const dequeued = await this.queued.dequeue(groupIds);
    // After the dequeue: it took over dead processes' journals, whose keys count too.
    const forgottenTurns = await this.forgetTurns(groupIds);
    // Pending memories kept before they named their group: only the user scope has one group to match.
    const droppedPending = (await this.pending?.forgetGroups(groupIds, targets.some((target) => target.scope === 'user') ? ['user'] : [])) ?? 0;
    const earlier = (await this.owedDeletions?.owed())?.filter((groupId) => !groupIds.includes(groupId)) ?? [];
    const now = await this.deleteGroups(api, groupIds, options);
    const earlierDeleted = earlier.length > 0 && now.deleted.length > 0 ? (await this.deleteGroups(api, earlier, options)).deleted : [];
    const owed = this.owedDeletions?.recorded === true ? now.failed.map((failure) => failure.groupId) : [];
    this.logger.info('forget: groups deleted', { deleted: now.deleted.length, failed: now.failed.length, owed: owed.length, dequeued, droppedPending, forgottenTurns });
    return { deletedGroups: now.deleted, dequeued, droppedPending, failed: now.failed, owed, forgottenTurns, earlierDeleted };
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
   * endpoint), recorded as forgotten by the hash of their id: a resumed transcript that carries
   * them under a new session id plans nothing for them.
   */
  private async forgetTurns(groupIds: readonly string[]): Promise<number> {
    if (this.ledger === undefined || this.storage === undefined || groupIds.length === 0) return 0;
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
    if (turnKeys.size > 0) await this.ledger.forgetTurns([...turnKeys]);
    return turnKeys.size;
  }

  private async current(request: ForgetRequest): Promise<CurrentGroups> {
    const sessionId = !('all' in request) && request.scope === 'session' ? request.sessionId : undefined;
    // Resolving the user scope may create the user key: only when the user scope is named.
    const namesUser = 'all' in request ? request.includeUser === true : request.scope === 'user';
    const [workspace, user, session] = await Promise.all([
      this.groups.resolve('workspace'),
      namesUser ? this.groups.resolve('user') : Promise.resolve(undefined),
      sessionId === undefined ? Promise.resolve(undefined) : this.groups.resolve('session', { sessionId }),
    ]);
    return {
      ...(workspace === undefined ? {} : { workspace }),
      ...(user === undefined ? {} : { user }),
      ...(session === undefined ? {} : { session }),
    };
  }
}
