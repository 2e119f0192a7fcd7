// Loops through memory: a finished turn's markers change the workspace's loops in the shared store
// (the turn planner calls `captureTurn` after its gate check, so every assistant's capture path
// does it), each change goes to Graphiti as a `task_update` episode for teammates' tools, and the
// brief, `@memory` and `graphiti-harness loops` read and close them here. A marker whose text holds
// a secret is left out whole: a loop is long-lived, like a promotion.
import { inject, injectable, optional } from 'inversify';
import { isoTimestamp } from '../mapping/turn-mapping.js';
import { Clock, type ChatTurn, type OutboxEntry } from '../ports.js';
import { PromotionService } from '../promotion/promotion-service.js';
import type { PendingLoop } from '../review/pending-memory-store.js';
import { GroupRecorderOptions } from '../registry/group-recorder.js';
import { GroupIdResolver } from '../scopes/group-id-resolver.js';
import { SecretGuard } from '../secrets/secret-guard.js';
import { MemoryConfiguration } from '../settings/memory-configuration.js';
import { toolLabel } from '../sources/message-source-stamp.js';
import { MAX_LOOP_TEXT_CHARS, parseLoopMarkers, type LoopMarker } from './loop-markers.js';
import { applyLoopMarkers, boundedLoops, closeLoop, loopEpisodeText, loopNudges, type LoopChange, type LoopNudges } from './loop-policy.js';
import { LoopStore, type LoopEvidence, type OpenLoop } from './open-loop.js';

/** Why an approved loop proposal changed nothing. */
export type LoopProposalMiss = 'no-workspace' | 'other-workspace' | 'not-open' | 'already-open' | 'secret' | 'empty';

/** What approving a loop proposal did. */
export type LoopProposalApplied =
  | { readonly ok: true; readonly loop: OpenLoop; readonly entries: readonly OutboxEntry[] }
  | { readonly ok: false; readonly reason: LoopProposalMiss };

/** What closing a loop by hand did. */
export type LoopClosing =
  | { readonly ok: true; readonly loop: OpenLoop; readonly entries: readonly OutboxEntry[] }
  | { readonly ok: false; readonly reason: 'no-workspace' | 'not-found' | 'ambiguous' | 'not-open'; readonly matches?: readonly OpenLoop[] };

@injectable()
export class LoopService {
  private readonly tool: string;

  constructor(
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(PromotionService) private readonly promotion: PromotionService,
    @inject(SecretGuard) private readonly secretGuard: SecretGuard,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(Clock) private readonly clock: Pick<Clock, 'now'>,
    @inject(GroupRecorderOptions) @optional() recorder?: GroupRecorderOptions,
    @inject(LoopStore) @optional() private readonly store?: LoopStore,
  ) {
    this.tool = recorder?.tool ?? 'unknown';
  }

  /**
   * The loop markers of a finished turn (its user text and its reply) applied to the workspace's
   * loops; returns the `task_update` entries of what changed (a loop said again sends nothing).
   * Without a store or a workspace, nothing. The caller checked the gate.
   */
  async captureTurn(turn: ChatTurn): Promise<OutboxEntry[]> {
    if (this.store === undefined) return [];
    const found = [...parseLoopMarkers(turn.user.text), ...parseLoopMarkers(turn.assistant?.text ?? '')];
    if (found.length === 0) return [];
    const markers = await this.withoutSecrets(found);
    if (markers.length === 0) return [];
    const groupId = await this.groups.resolve('workspace');
    if (groupId === undefined) return [];
    const at = isoTimestamp(turn.assistant?.timestamp) ?? isoTimestamp(turn.user.timestamp) ?? new Date(this.clock.now()).toISOString();
    const evidence = { tool: toolLabel(this.tool, turn.participant), sessionId: turn.sessionId, turnId: turn.id, at };
    // Hashing is asynchronous and a store's change runs synchronously under its lock: the markers are
    // applied to what is kept now, and the loops they changed are put into the file as it is then.
    const applied = await applyLoopMarkers(await this.store.list(), markers, groupId, evidence);
    const written = await this.store.update((current) => {
      // Re-applied on what is there now: another process may have changed the file meanwhile.
      const merged = mergeChanges(current, applied.changes);
      return { next: boundedLoops(merged, new Date(this.clock.now())), result: applied.changes };
    });
    return this.entriesOf(written.filter((change) => change.change !== 'repeated'));
  }

  /** The loops of this workspace (open ones only unless `all`), newest first; `undefined` without a workspace. */
  async list(options: { readonly all?: boolean } = {}): Promise<{ readonly groupId: string; readonly loops: readonly OpenLoop[] } | undefined> {
    const groupId = await this.groups.resolve('workspace');
    if (groupId === undefined) return undefined;
    const loops = ((await this.store?.list()) ?? []).filter((loop) => loop.groupId === groupId && (options.all === true || loop.status === 'open'));
    return { groupId, loops: [...loops].sort((left, right) => right.updatedAt.localeCompare(left.updatedAt) || left.id.localeCompare(right.id)) };
  }

  /** What a brief says of this workspace's loops (`loops.expireDays` from the settings); `undefined` without a workspace. */
  async nudges(options: { readonly max?: number } = {}): Promise<(LoopNudges & { readonly expireDays: number }) | undefined> {
    const listed = await this.list();
    if (listed === undefined) return undefined;
    const expireDays = this.configuration.current().loops.expireDays;
    return { ...loopNudges(listed.loops, listed.groupId, new Date(this.clock.now()), { expireDays, ...(options.max === undefined ? {} : { max: options.max }) }), expireDays };
  }

  /**
   * Closes (`done`) or drops the open loop of this workspace whose id starts with `idPrefix`; the
   * `task_update` entry returned says so to Graphiti (hand it to ingestion; none when the gate is closed).
   */
  async close(idPrefix: string, status: 'done' | 'dropped', tool?: string): Promise<LoopClosing> {
    return this.#close(idPrefix, status, { tool: tool ?? toolLabel(this.tool), at: new Date(this.clock.now()).toISOString(), marker: 'hand' });
  }

  /**
   * Applies a loop proposal the user approved (the chat model's, `loops.proposeWithModel`): opens
   * the loop (`text`: the user's edit, else the proposal's) or closes the loop it names as done,
   * with the proposal's evidence (tool, session, date; marker `model`). Returns the `task_update`
   * entries to hand to ingestion. Only in the workspace it was proposed for (`groupId`).
   */
  async applyProposal(proposal: PendingLoop, groupId: string | undefined, text?: string): Promise<LoopProposalApplied> {
    const current = await this.groups.resolve('workspace');
    if (current === undefined || this.store === undefined) return { ok: false, reason: 'no-workspace' };
    if (groupId !== undefined && groupId !== current) return { ok: false, reason: 'other-workspace' };
    const evidence = { ...proposal.evidence, marker: 'model' as const };
    if (proposal.action === 'done') {
      const closed = await this.#close(proposal.loopId ?? '', 'done', evidence);
      if (closed.ok) return closed;
      return { ok: false, reason: closed.reason === 'no-workspace' ? 'no-workspace' : 'not-open' };
    }
    const loopText = oneLine((text ?? proposal.text).replace(/^\s*open loop\s*:/i, ''));
    if (loopText === '') return { ok: false, reason: 'empty' };
    if ((await this.secretGuard.redact(loopText)).findings.length > 0) return { ok: false, reason: 'secret' };
    const marker = { action: 'open' as const, marker: 'task_update' as const, text: loopText };
    const applied = await applyLoopMarkers(await this.store.list(), [marker], current, evidence);
    const written = await this.store.update((loops) => ({ next: boundedLoops(mergeChanges(loops, applied.changes), new Date(this.clock.now())), result: applied.changes }));
    const [change] = written;
    if (change === undefined) return { ok: false, reason: 'empty' };
    if (change.change === 'repeated') return { ok: false, reason: 'already-open' };
    return { ok: true, loop: change.loop, entries: await this.entriesOf([change]) };
  }

  async #close(idPrefix: string, status: 'done' | 'dropped', evidence: LoopEvidence): Promise<LoopClosing> {
    const store = this.store;
    const groupId = await this.groups.resolve('workspace');
    if (groupId === undefined || store === undefined) return { ok: false, reason: 'no-workspace' };
    const wanted = idPrefix.trim().toLowerCase();
    const outcome = await store.update<LoopClosing | { ok: true; loop: OpenLoop }>((current) => {
      const matches = wanted === '' ? [] : current.filter((loop) => loop.groupId === groupId && loop.id.startsWith(wanted));
      if (matches.length === 0) return { result: { ok: false, reason: 'not-found' } };
      if (matches.length > 1) return { result: { ok: false, reason: 'ambiguous', matches } };
      const [target] = matches as [OpenLoop];
      if (target.status !== 'open') return { result: { ok: false, reason: 'not-open', matches } };
      const closed = closeLoop(target, status, evidence);
      return { next: current.map((loop) => (loop.id === closed.id ? closed : loop)), result: { ok: true, loop: closed } };
    });
    if (!outcome.ok) return outcome;
    return { ok: true, loop: outcome.loop, entries: await this.entriesOf([{ change: status, loop: outcome.loop }]) };
  }

  private async withoutSecrets(markers: readonly LoopMarker[]): Promise<LoopMarker[]> {
    const scanned = await Promise.all(markers.map(async (marker) => ((await this.secretGuard.redact(marker.text)).findings.length === 0 ? marker : undefined)));
    return scanned.filter((marker): marker is LoopMarker => marker !== undefined);
  }

  private async entriesOf(changes: readonly LoopChange[]): Promise<OutboxEntry[]> {
    const entries: OutboxEntry[] = [];
    for (const { loop } of changes) {
      const at = loop.status === 'open' ? loop.updatedAt : (loop.closed?.at ?? loop.updatedAt);
      const planned = await this.promotion.plan({ kind: 'task_update', scope: 'workspace', text: loopEpisodeText(loop), now: new Date(at) });
      if (planned.ok) entries.push(planned.entry);
    }
    return entries;
  }
}

/** `current` with each changed loop put in (by id), the changes applied in order. */
function mergeChanges(current: readonly OpenLoop[], changes: readonly LoopChange[]): OpenLoop[] {
  const byId = new Map(current.map((loop) => [loop.id, loop]));
  for (const { loop } of changes) byId.set(loop.id, loop);
  return [...byId.values()];
}

/** `text` as one loop line: spaces collapsed, cut as a marker's text is. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_LOOP_TEXT_CHARS ? `${line.slice(0, MAX_LOOP_TEXT_CHARS - 1)}…` : line;
}
