// Staging: `enqueue` pushes onto an array and returns; a macrotask later the staged turns are
// planned (mapping, secret guard, scopes) and admitted to the outbox, which checks the delivery
// ledger and appends as one step for every process sharing it. Off the chat path, never lossy:
// messages the outbox refuses wait here and are admitted later. The storage is opened here on
// first need (planned messages to admit); until it is open, staging is the one, bounded, buffer.
import { isDigestMessageName } from '../digest/digest-format.js';
import type { SessionDigests } from '../digest/session-digests.js';
import type { TurnPlanner } from '../planning/index.js';
import { isAllowedInGroup } from '../scopes/team-scope.js';
import type { ChatTurn, Clock, IngestionStore, Logger, OutboxEntry, TelemetrySink } from '../ports.js';
import type { AcceptedEntry } from '../registry/group-recorder.js';
import { errorClassOf } from '../errors/graphiti-failure.js';
import type { DeliveryState } from './delivery-state.js';
import { deliveryKey } from './in-memory-delivery-ledger.js';
import type { IngestionOptions } from './ingestion-options.js';

/** More staged items than this while storage opens means something is wrong: the oldest are dropped. */
export const MAX_STAGED_WHILE_OPENING = 1000;

export type StagedItem =
  | { readonly turn: ChatTurn }
  /** Ready messages; `turns`: those planned from a turn (session digests gather them), when re-staged. */
  | { readonly entries: readonly OutboxEntry[]; readonly turns?: ReadonlyMap<OutboxEntry, ChatTurn> }
  /** Close the digests that are due; `sessionId`: that session ended, its segments close now. */
  | { readonly close: { readonly sessionId?: string } };

export interface StagingHooks {
  /** New messages are in the outbox: the drain loop should look. */
  admitted(): void;
  /** A staging round ended: stats may have changed. */
  changed(): void;
  /** Entries this admission accepted (new to the ledger), with the turns they were planned from. */
  accepted?(accepted: readonly AcceptedEntry[]): Promise<void>;
  /** The entries with their source (tool, session) attached, kept on the outbox record until confirmation. */
  stamp?(entries: readonly OutboxEntry[], turn?: ChatTurn): Promise<readonly OutboxEntry[]>;
}

/** Ingestion's storage as staging sees it: opened on first need. */
export interface StagingStorage {
  /** The store once open, else `undefined`. */
  readonly store: IngestionStore | undefined;
  open(): Promise<IngestionStore>;
}

export class TurnStaging {
  #staged: StagedItem[] = [];
  #run: Promise<void> | undefined;
  /** Admission failed (the outbox could not be written): staging waits until then before trying again. */
  #retryAt = 0;
  #failing = false;

  constructor(
    private readonly planner: TurnPlanner,
    private readonly storage: StagingStorage,
    private readonly state: DeliveryState,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly logger: Logger,
    private readonly telemetry: TelemetrySink,
    private readonly options: Pick<IngestionOptions, 'idleRecheckMs'>,
    private readonly hooks: StagingHooks,
    private readonly digests?: SessionDigests,
  ) {}

  push(item: StagedItem): void {
    this.#staged.push(item);
    if (this.storage.store === undefined && this.#staged.length > MAX_STAGED_WHILE_OPENING) {
      this.#staged.shift();
      this.logger.warn('ingestion: dropped a staged item while storage was opening', { staged: this.#staged.length });
    }
    if (this.#run === undefined) this.#schedule();
  }

  /** Items waiting (a turn counts once). */
  get length(): number {
    return this.#staged.length;
  }

  /** A round is scheduled or running. */
  get busy(): boolean {
    return this.#run !== undefined;
  }

  /** Messages waiting, a turn counted as one. */
  messageEstimate(): number {
    let count = 0;
    for (const item of this.#staged) count += 'turn' in item ? 1 : 'entries' in item ? item.entries.length : 0;
    return count;
  }

  /** Resolves when staged items are in the outbox, or admission is failing (retried in the background). */
  async settled(): Promise<void> {
    while (this.#run !== undefined && !this.#failing) await this.#run;
  }

  #schedule(): void {
    // A macrotask, not a microtask: the chat path that enqueued gets to run on first.
    const delay = Math.max(0, this.#retryAt - this.clock.now());
    this.#run = new Promise<void>((resolve) => setTimeout(resolve, delay))
      .then(() => this.#process())
      .catch((error: unknown) => {
        this.logger.error('ingestion: staging failed', { errorClass: errorClassOf(error) });
      })
      .finally(() => {
        this.#run = undefined;
        if (this.#staged.length > 0) this.#schedule();
        this.hooks.changed();
      });
  }

  async #process(): Promise<void> {
    while (this.#staged.length > 0) {
      const batch = this.#staged;
      this.#staged = [];
      const entries: OutboxEntry[] = [];
      const turnOf = new Map<OutboxEntry, ChatTurn>();
      const endedSessions = new Set<string>();
      let closeDue = false;
      let turns = 0;
      for (const item of batch) {
        if ('close' in item) {
          closeDue = true;
          if (item.close.sessionId !== undefined) endedSessions.add(item.close.sessionId);
        } else if ('turn' in item) {
          turns++;
          try {
            const planned = await this.#stamp(await this.planner.plan(item.turn), item.turn);
            for (const entry of planned) turnOf.set(entry, item.turn);
            entries.push(...planned);
          } catch (error) {
            this.logger.error('ingestion: planning a turn failed; the turn is skipped', {
              errorClass: errorClassOf(error),
            });
          }
        } else {
          if (item.turns === undefined) entries.push(...(await this.#stamp(item.entries)));
          else {
            // Re-staged after a refused admission: stamped already, with the turns they came from.
            entries.push(...item.entries);
            for (const [entry, turn] of item.turns) turnOf.set(entry, turn);
          }
        }
      }
      if (turns > 0) this.telemetry.emit({ type: 'enqueued', turns });
      const refused = entries.filter((entry) => !isAllowedInGroup(entry));
      if (refused.length > 0) {
        // Whatever asked for it (a setting, a tool, a bug), raw chat never reaches the shared team group.
        this.logger.error('ingestion: messages for the team group that are not promoted memories were refused', { messages: refused.length });
        entries.splice(0, entries.length, ...entries.filter(isAllowedInGroup));
      }
      // Nothing to admit or close (the gate was closed, every turn empty): storage is not opened for it.
      if (entries.length === 0 && !closeDue) continue;
      let unknown: OutboxEntry[] = [];
      let gathered = false;
      let admit: readonly OutboxEntry[] = entries;
      try {
        const store = await this.storage.open();
        let collected: Awaited<ReturnType<SessionDigests['collect']>> | undefined;
        if (this.digests !== undefined) {
          collected = await this.digests.collect(entries, turnOf, store, this.clock.now(), { endedSessions, closeDue });
          // From here the turn messages wait in their segments: a failure below re-stages only the rest.
          gathered = true;
          admit = collected.admit;
        }
        // What the ledger does not know before admission is what admission accepts.
        if (this.hooks.accepted !== undefined) unknown = this.#unknown(admit, store);
        await this.#admit(admit, store);
        if (collected !== undefined) {
          await this.digests?.closed(collected.closing, store);
          await this.hooks.accepted?.(collected.added);
        }
      } catch (error) {
        // Nothing accepted is lost: the planned messages wait here and are admitted later.
        const rest = gathered ? admit.filter((entry) => !isDigestMessageName(entry.message.name ?? '')) : entries;
        if (rest.length > 0) this.#staged.unshift({ entries: rest, turns: turnOf });
        for (const sessionId of endedSessions) this.#staged.push({ close: { sessionId } });
        if (gathered || closeDue) this.#staged.push({ close: {} });
        this.#retryAt = this.clock.now() + this.options.idleRecheckMs;
        this.#failing = true;
        this.logger.error('ingestion: the outbox refused new messages; trying again later', { errorClass: errorClassOf(error) });
        return;
      }
      await this.hooks.accepted?.(unknown.map((entry) => ({ entry, turn: turnOf.get(entry) })));
    }
  }

  /** Entries with their source; without it (no stamp bound, or it failed) as they are: a citation is never worth a message. */
  async #stamp(entries: readonly OutboxEntry[], turn?: ChatTurn): Promise<readonly OutboxEntry[]> {
    if (this.hooks.stamp === undefined || entries.length === 0) return entries;
    try {
      return await this.hooks.stamp(entries, turn);
    } catch (error) {
      this.logger.warn('ingestion: the source of captured messages could not be recorded', { errorClass: errorClassOf(error) });
      return entries;
    }
  }

  /** The entries whose key neither the ledger nor an earlier entry of the batch has. */
  #unknown(entries: readonly OutboxEntry[], store: IngestionStore): OutboxEntry[] {
    const seen = new Set<string>();
    return entries.filter((entry) => {
      if (!entry.message.name) return false;
      const key = deliveryKey(entry.groupId, entry.message.name);
      if (seen.has(key) || store.ledger.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  async #admit(entries: readonly OutboxEntry[], store: IngestionStore): Promise<void> {
    const named = entries.filter((entry) => {
      if (entry.message.name) return true;
      this.logger.error('ingestion: a planned message has no name and was skipped');
      return false;
    });
    if (named.length === 0) return;
    const result = await store.outbox.admit(named, store.ledger);
    this.#failing = false;
    const counters = this.state.counters;
    counters.duplicates += result.duplicates;
    if (result.accepted + result.dropped === 0) return;
    counters.enqueued += result.accepted;
    if (result.dropped > 0) {
      counters.dropped += result.dropped;
      this.telemetry.emit({ type: 'dropped', messages: result.dropped, reason: 'overflow' });
      this.logger.warn('ingestion: queue full, oldest pending messages dropped', {
        messages: result.dropped,
      });
    }
    this.hooks.admitted();
  }
}
