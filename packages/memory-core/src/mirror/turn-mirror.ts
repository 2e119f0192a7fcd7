// The structured mirror's policy (seed 001): which finalized turns are mirrored, and into what.
// A turn is mirrored only while `mirror.enabled` is on and the gate is open for the `mirror`
// consent category (enabled, trusted workspace, consent for this endpoint that names the mirror).
// `offer` is O(1) on the chat path: the record is built (hashing, secret guard) later, off it, in a
// bounded queue whose overflow is dropped and counted, and handed to ingestion as a ready entry —
// the outbox then gives it what every write has (ledger de-duplication, so a replayed or resumed
// turn is written once; delivery confirmation by name; retries, dead letters, forget, audit).
import { inject, injectable, optional } from 'inversify';
import { MemoryGate } from '../gate/memory-gate.js';
import { Logger, type ChatTurn, type OutboxEntry } from '../ports.js';
import { GroupRecorderOptions } from '../registry/group-recorder.js';
import { GroupIdResolver } from '../scopes/group-id-resolver.js';
import { SecretGuard } from '../secrets/secret-guard.js';
import { MemoryConfiguration } from '../settings/memory-configuration.js';
import { toolLabel } from '../sources/message-source-stamp.js';
import { resolveTranscriptFilter } from '../transcripts/transcript-filter.js';
import { mirrorEpisodeName } from './mirror-ids.js';
import { buildMirrorRecord } from './mirror-record.js';
import { mirrorStructure } from './mirror-structure.js';

/** Turns waiting to be recorded at once; more are dropped (counted) rather than held. */
export const MIRROR_QUEUE_LIMIT = 500;

/** The mirror's counters: content-free. */
export interface MirrorStats {
  readonly offered: number;
  readonly recorded: number;
  /** Turns not mirrored because the mirror is off or not allowed (no consent, untrusted, …). */
  readonly skipped: number;
  /** Turns dropped because the queue was full, or whose record could not be built. */
  readonly dropped: number;
}

@injectable()
export class TurnMirror {
  private readonly waiting: ChatTurn[] = [];
  private running: Promise<void> | undefined;
  private readonly counters = { offered: 0, recorded: 0, skipped: 0, dropped: 0 };
  private readonly tool: string;

  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(SecretGuard) private readonly secretGuard: SecretGuard,
    @inject(Logger) private readonly logger: Logger,
    @inject(GroupRecorderOptions) @optional() options?: GroupRecorderOptions,
  ) {
    this.tool = options?.tool ?? 'unknown';
  }

  /** Whether a turn offered now would be mirrored. Reads settings only: no I/O. */
  allowed(): boolean {
    return this.configuration.current().mirror.enabled && this.gate.evaluate('mirror').open;
  }

  /** Takes a finalized turn for the mirror, or ignores it when the mirror is off or not allowed. Never throws, never waits. */
  offer(turn: ChatTurn, admit: (entries: readonly OutboxEntry[]) => void): void {
    this.counters.offered += 1;
    if (!this.allowed()) {
      this.counters.skipped += 1;
      return;
    }
    if (this.waiting.length >= MIRROR_QUEUE_LIMIT) {
      this.counters.dropped += 1;
      this.logger.warn('mirror: queue full, a turn was not mirrored', { waiting: this.waiting.length });
      return;
    }
    this.waiting.push(turn);
    this.running ??= this.run(admit).finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves when every turn offered so far was recorded or dropped. */
  async settled(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  stats(): MirrorStats {
    return { ...this.counters };
  }

  /** The outbox entry of one turn (exported for the bench and tests): `undefined` when no mirror group can be known. */
  async entryOf(turn: ChatTurn): Promise<OutboxEntry | undefined> {
    const groupId = await this.groups.resolve('mirror');
    if (groupId === undefined) return undefined;
    const settings = this.configuration.current();
    const record = await buildMirrorRecord(turn, {
      tool: toolLabel(this.tool, turn.participant),
      maxNodeChars: settings.maxMessageChars,
      toolOutput: resolveTranscriptFilter(settings.filter).toolResults === 'full',
      secretGuard: this.secretGuard,
    });
    const content = JSON.stringify(record);
    return {
      groupId,
      message: {
        name: await mirrorEpisodeName(turn.id),
        role: 'graphiti-memory mirror',
        role_type: 'system',
        content,
        timestamp: record.turn.at,
        source_description: `graphiti-memory mirror record ${record.format}`,
      },
      mirror: await mirrorStructure(record, groupId),
    };
  }

  private async run(admit: (entries: readonly OutboxEntry[]) => void): Promise<void> {
    // Off the caller's stack: the chat path only pushed.
    await Promise.resolve();
    for (let turn = this.waiting.shift(); turn !== undefined; turn = this.waiting.shift()) {
      try {
        // Checked again: consent may have been revoked while the turn waited.
        if (!this.allowed()) {
          this.counters.skipped += 1;
          continue;
        }
        const entry = await this.entryOf(turn);
        if (entry === undefined) {
          this.counters.skipped += 1;
          continue;
        }
        admit([entry]);
        this.counters.recorded += 1;
      } catch (error) {
        this.counters.dropped += 1;
        this.logger.warn('mirror: a turn could not be recorded', { errorClass: error instanceof Error ? error.name : typeof error });
      }
    }
  }
}
