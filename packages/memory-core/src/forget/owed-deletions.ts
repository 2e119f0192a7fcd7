// The group deletes a forget still owes (it ran while Graphiti was unreachable, or a delete
// failed): carried out by whoever reaches Graphiti next — `forget` itself, `forget --retry`, and
// every drain pass before it sends anything (so a group is deleted before new messages go to it,
// never after). A group deleted here leaves the registry, as a forget's delete does.
import { inject, injectable, optional } from 'inversify';
import { classifyGraphitiError, type GraphitiFailureKind } from '../errors/graphiti-failure.js';
import { Logger, type GraphitiApi, type GraphitiCallOptions } from '../ports.js';
import { GroupRegistry } from '../registry/group-registry.js';
import { ForgetLedger } from './forget-ledger.js';

export interface ForgetFailure {
  readonly groupId: string;
  readonly errorClass: string;
  readonly message: string;
  /** What kind of failure (`connection`, `timeout`: Graphiti was unreachable). */
  readonly kind?: GraphitiFailureKind;
}

export interface OwedDeletionsResult {
  /** Groups deleted now. */
  readonly deleted: readonly string[];
  /** Groups whose delete failed again: still owed. */
  readonly failed: readonly ForgetFailure[];
}

@injectable()
export class OwedDeletions {
  constructor(
    @inject(Logger) private readonly logger: Logger,
    @inject(ForgetLedger) @optional() private readonly ledger?: ForgetLedger,
    @inject(GroupRegistry) @optional() private readonly registry?: GroupRegistry,
  ) {}

  /** Whether deletes can be owed at all (a durable or in-memory forget ledger is bound). */
  get recorded(): boolean {
    return this.ledger !== undefined;
  }

  /** The groups whose delete is owed now. */
  async owed(): Promise<string[]> {
    if (this.ledger === undefined) return [];
    return (await this.ledger.read()).groups.filter((group) => group.deletionOwed).map((group) => group.groupId);
  }

  /** Records `groupIds` as forgotten now (their queued records never sent) and their delete owed. */
  async owe(groupIds: readonly string[], at: number): Promise<void> {
    await this.ledger?.forgetGroups(groupIds, at);
  }

  /** Calls of `carryOut` in this process, one at a time (a drain pass may run while a forget deletes). */
  #queue: Promise<unknown> = Promise.resolve();

  /** Deletes `groupIds` (default: every owed group) on `api`; what succeeds is no longer owed. */
  carryOut(api: GraphitiApi, options: GraphitiCallOptions = {}, groupIds?: readonly string[]): Promise<OwedDeletionsResult> {
    const run = this.#queue.then(() => this.#carryOut(api, options, groupIds));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #carryOut(api: GraphitiApi, options: GraphitiCallOptions, groupIds: readonly string[] | undefined): Promise<OwedDeletionsResult> {
    let targets = groupIds ?? (await this.owed());
    // A forget records its groups owed before it deletes them; one the ledger shows forgotten and no
    // longer owed was deleted meanwhile (a drain pass, here or in another process): not deleted twice.
    let deletedBefore: string[] = [];
    if (groupIds !== undefined && this.ledger !== undefined) {
      const forgotten = new Map((await this.ledger.read()).groups.map((group) => [group.groupId, group]));
      deletedBefore = targets.filter((groupId) => forgotten.get(groupId)?.deletionOwed === false);
      targets = targets.filter((groupId) => !deletedBefore.includes(groupId));
    }
    const deleted: string[] = [];
    const failed: ForgetFailure[] = [];
    for (const groupId of targets) {
      if (options.signal?.aborted === true) {
        failed.push({ groupId, errorClass: 'AbortError', kind: 'abort', message: 'the delete was not tried: the caller stopped' });
        continue;
      }
      try {
        await api.deleteGroup(groupId, options);
        deleted.push(groupId);
      } catch (error) {
        const failure = classifyGraphitiError(error);
        failed.push({ groupId, errorClass: failure.errorClass, kind: failure.kind, message: error instanceof Error ? error.message : String(error) });
      }
    }
    if (deleted.length > 0) {
      await this.ledger?.deleted(deleted);
      await this.registry?.remove(deleted);
    }
    if (groupIds === undefined && targets.length > 0) {
      this.logger.info('forget: owed group deletes carried out', { deleted: deleted.length, stillOwed: failed.length });
    }
    return { deleted: [...deletedBefore, ...deleted], failed };
  }
}
