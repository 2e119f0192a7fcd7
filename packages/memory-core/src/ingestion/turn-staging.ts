// Staging: `enqueue` pushes onto an array and returns; a macrotask later the staged turns are
// planned (mapping, secret guard, scopes) and admitted to the outbox, which checks the delivery
// ledger and appends as one step for every process sharing it. Off the chat path, never lossy:
// messages the outbox refuses wait here and are admitted later. The storage is opened here on
// first need (planned messages to admit); until it is open, staging is the one, bounded, buffer.
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

export type StagedItem = { readonly turn: ChatTurn } | { readonly entries: readonly OutboxEntry[] };

export interface StagingHooks {
  /** New messages are in the outbox: the drain loop should look. */
  admitted(): void;
  /** A staging round ended: stats may have changed. */
  changed(): void;
  /** Entries this admission accepted (new to the ledger), with the turns they were planned from. */
  accepted?(accepted: readonly AcceptedEntry[]): Promise<void>;
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
    for (const item of this.#staged) count += 'turn' in item ? 1 : item.entries.length;
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
      let turns = 0;
      for (const item of batch) {
        if ('turn' in item) {
          turns++;
          try {
            const planned = await this.planner.plan(item.turn);
            for (const entry of planned) turnOf.set(entry, item.turn);
            entries.push(...planned);
          } catch (error) {
            this.logger.error('ingestion: planning a turn failed; the turn is skipped', {
              errorClass: errorClassOf(error),
            });
          }
        } else {
          entries.push(...item.entries);
        }
      }
      if (turns > 0) this.telemetry.emit({ type: 'enqueued', turns });
      const refused = entries.filter((entry) => !isAllowedInGroup(entry));
      if (refused.length > 0) {
        // Whatever asked for it (a setting, a tool, a bug), raw chat never reaches the shared team group.
        this.logger.error('ingestion: messages for the team group that are not promoted memories were refused', { messages: refused.length });
        entries.splice(0, entries.length, ...entries.filter(isAllowedInGroup));
      }
      // Nothing to admit (the gate was closed, every turn empty): storage is not opened for it.
      if (entries.length === 0) continue;
      let unknown: OutboxEntry[] = [];
      try {
        const store = await this.storage.open();
        // What the ledger does not know before admission is what admission accepts.
        if (this.hooks.accepted !== undefined) unknown = this.#unknown(entries, store);
        await this.#admit(entries, store);
      } catch (error) {
        // Nothing accepted is lost: the planned messages wait here and are admitted later.
        this.#staged.unshift({ entries });
        this.#retryAt = this.clock.now() + this.options.idleRecheckMs;
        this.#failing = true;
        this.logger.error('ingestion: the outbox refused new messages; trying again later', { errorClass: errorClassOf(error) });
        return;
      }
      await this.hooks.accepted?.(unknown.map((entry) => ({ entry, turn: turnOf.get(entry) })));
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
