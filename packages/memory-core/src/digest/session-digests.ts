// Session digests (capture.granularity `session`): the turn messages planning made are not sent one
// by one but gathered per group and session into an open segment, which closes into one digest
// message when the session ends, after `capture.idleMinutes` without a new turn, or every
// `capture.digestTurns` turns; and a digest never spans an idle gap of more than
// `capture.idleMinutes` between its own turns' timestamps (its reference time is its last turn's). Each turn still counts once: its per-message delivery keys are
// checked before it joins a segment and recorded in the ledger when its digest is admitted (or the
// group forgotten), so neither a resumed session nor a switch of granularity sends a turn twice.
// Closing is two steps (admit the digest, then drop its turns from the segment) so a crash in
// between sends nothing twice: the same segment closes to the same name, which the ledger refuses.
import { deliveryKey } from '../ingestion/in-memory-delivery-ledger.js';
import { APP_NAME, parseTurnMessageName } from '../mapping/turn-mapping.js';
import type { ChatTurn, DeliveryLedger, OutboxEntry } from '../ports.js';
import type { AcceptedEntry } from '../registry/group-recorder.js';
import type { MemorySettings } from '../settings/memory-settings.js';
import { MAX_SOURCE_CONTENTS } from '../sources/episode-sources.js';
import { digestMessage } from './digest-format.js';
import type { DigestWriting } from './digest-writing.js';
import type { ClosedSessionDigest, LoopProposals } from '../loops/loop-proposals.js';
import { InMemoryDigestSegmentStore, type DigestSegment, type DigestSegmentStore, type DigestTurn } from './digest-segment-store.js';

/** A digest to admit, with the turns it carries (dropped from their segment once it is admitted). */
export interface ClosingDigest {
  readonly entry: OutboxEntry;
  readonly sessionId: string;
  readonly keys: readonly string[];
  /** How many turns it holds. */
  readonly turns: number;
}

export interface CollectedTurns {
  /** What goes to the outbox now: entries that are not turn messages, and the digests that closed. */
  readonly admit: readonly OutboxEntry[];
  readonly closing: readonly ClosingDigest[];
  /** Turn messages that joined a segment (the group registry learns of them now, so forget covers them). */
  readonly added: readonly AcceptedEntry[];
}

/** What makes segments close in a collection round besides their own size and idle time. */
export interface CloseRequest {
  /** Sessions that ended: their segments close now, whatever their size. */
  readonly endedSessions: ReadonlySet<string>;
}

type CaptureSettings = Pick<MemorySettings, 'maxMessageChars'> & { readonly capture: Pick<MemorySettings['capture'], 'granularity' | 'idleMinutes' | 'digestTurns'> };

export class SessionDigests {
  readonly #fallback = new InMemoryDigestSegmentStore();
  /** When the earliest open segment falls idle (clock time); `undefined` when none is known to be open. */
  #nextDueAt: number | undefined;

  constructor(
    private readonly settings: () => CaptureSettings,
    /** Rewrites closing digests with the host's chat model when configured (outside the segment store's lock). */
    private readonly writing?: DigestWriting,
    /** Aborted when the host shuts down: a digest's writer is no longer waited for. */
    private readonly stopping?: AbortSignal,
    /** Asks the chat model about the closing sessions' loops (`loops.proposeWithModel`), in the background. */
    private readonly proposals?: Pick<LoopProposals, 'offer'>,
  ) {}

  /** Milliseconds until an open segment falls idle (0: now); `undefined` when none is known. */
  nextDueIn(now: number): number | undefined {
    return this.#nextDueAt === undefined ? undefined : Math.max(0, this.#nextDueAt - now);
  }

  /**
   * Routes planned entries: with digests on, the turn messages join their segment (unless the
   * ledger or a segment already has the turn); segments that are full, idle or whose session
   * ended close into digests. Everything else passes through.
   */
  async collect(
    entries: readonly OutboxEntry[],
    turnOf: ReadonlyMap<OutboxEntry, ChatTurn>,
    store: { readonly ledger: DeliveryLedger; readonly segments?: DigestSegmentStore | undefined },
    now: number,
    request: CloseRequest & { readonly closeDue: boolean },
  ): Promise<CollectedTurns> {
    // Ready messages only (promotions, imports) and nothing to close: no segment is touched.
    if (turnOf.size === 0 && !request.closeDue) return { admit: entries, closing: [], added: [] };
    const settings = this.settings();
    const digesting = settings.capture.granularity === 'session';
    const admit: OutboxEntry[] = [];
    const offered = new Map<string, { turn: ChatTurn; groupId: string; entries: OutboxEntry[] }>();
    for (const entry of entries) {
      const turn = turnOf.get(entry);
      if (!digesting || turn === undefined || parseTurnMessageName(entry.message.name ?? '')?.app !== APP_NAME) {
        admit.push(entry);
        continue;
      }
      const key = `${entry.groupId}\n${turn.sessionId}\n${turn.id}`;
      const known = offered.get(key);
      if (known === undefined) offered.set(key, { turn, groupId: entry.groupId, entries: [entry] });
      else known.entries.push(entry);
    }
    const segments = store.segments ?? this.#fallback;
    const idleMs = settings.capture.idleMinutes * 60_000;
    const digestTurns = settings.capture.digestTurns;
    const { added, closing, nextDueAt } = await segments.update((current) => {
      const next = current.map((segment) => ({ ...segment, turns: [...segment.turns] }));
      const held = new Set(next.flatMap((segment) => segment.turns.flatMap((turn) => turn.keys)));
      const joined: AcceptedEntry[] = [];
      for (const { turn, groupId, entries: turnEntries } of offered.values()) {
        const keys = turnEntries.map((entry) => deliveryKey(groupId, entry.message.name ?? ''));
        // Sent before (per message or in a digest), forgotten, or already waiting in a segment.
        if (keys.some((key) => store.ledger.has(key) || held.has(key))) continue;
        for (const key of keys) held.add(key);
        let segment = next.find((candidate) => candidate.groupId === groupId && candidate.sessionId === turn.sessionId);
        if (segment === undefined) {
          segment = { groupId, sessionId: turn.sessionId, lastTurnAt: now, turns: [] };
          next.push(segment);
        }
        segment.turns.push({ id: turn.id, keys, messages: turnEntries.map((entry) => entry.message), ...extraOf(turnEntries[0]) });
        (segment as { lastTurnAt: number }).lastTurnAt = now;
        for (const entry of turnEntries) joined.push({ entry, turn });
      }
      const closed: ClosingDigest[] = [];
      let due: number | undefined;
      for (const segment of next) {
        const ends = request.endedSessions.has(segment.sessionId) || now - segment.lastTurnAt >= idleMs;
        const chunks = closingChunks(segment.turns, digestTurns, idleMs, ends);
        for (const chunk of chunks.closing) closed.push(this.#digest(segment, chunk, settings.maxMessageChars));
        if (chunks.open) due = Math.min(due ?? Number.POSITIVE_INFINITY, segment.lastTurnAt + idleMs);
      }
      return { ...(joined.length > 0 ? { next } : {}), result: { added: joined, closing: closed, nextDueAt: due } };
    });
    this.#nextDueAt = nextDueAt;
    // The filtered text, not the chat model's digest: the turns as said, for the loops they hold.
    if (closing.length > 0) this.proposals?.offer(closing.map(proposalDigest), this.stopping);
    const written = await this.#written(closing);
    return { admit: [...admit, ...written.map((digest) => digest.entry)], closing: written, added };
  }

  /**
   * Reads the open segments (another process's, a crashed session's too) and learns when the first
   * falls idle; returns whether one is due now.
   */
  async refresh(store: { readonly segments?: DigestSegmentStore | undefined }, now: number): Promise<boolean> {
    const segments = await (store.segments ?? this.#fallback).read();
    if (segments.length === 0) {
      this.#nextDueAt = undefined;
      return false;
    }
    const idleMs = this.settings().capture.idleMinutes * 60_000;
    this.#nextDueAt = Math.min(...segments.map((segment) => segment.lastTurnAt)) + idleMs;
    return this.#nextDueAt !== undefined && this.#nextDueAt <= now;
  }

  /** The digests are in the outbox: their turns become ledger keys and leave their segments. */
  async closed(closing: readonly ClosingDigest[], store: { readonly ledger: DeliveryLedger; readonly segments?: DigestSegmentStore | undefined }): Promise<void> {
    if (closing.length === 0) return;
    const done = new Set(closing.flatMap((digest) => digest.keys));
    for (const key of done) store.ledger.add(key);
    await this.#drop(store.segments ?? this.#fallback, (turn) => turn.keys.some((key) => done.has(key)));
  }

  /**
   * Forget: the open segments of these groups are dropped unsent, their turns kept in the ledger
   * as forgotten (no capture offers them again). Returns how many turns were dropped.
   */
  async forgetGroups(groupIds: readonly string[], store: { readonly ledger: DeliveryLedger; readonly segments?: DigestSegmentStore | undefined }): Promise<number> {
    const groups = new Set(groupIds);
    const segments = store.segments ?? this.#fallback;
    const forgotten = (await segments.read()).filter((segment) => groups.has(segment.groupId)).flatMap((segment) => segment.turns);
    for (const turn of forgotten) for (const key of turn.keys) store.ledger.add(key);
    await segments.update((current) => ({ next: current.filter((segment) => !groups.has(segment.groupId)), result: undefined }));
    return forgotten.length;
  }

  #digest(segment: DigestSegment, turns: readonly DigestTurn[], maxMessageChars: number): ClosingDigest {
    return {
      // The first turn's extra fields (source metadata) describe the digest: one session, one tool;
      // the content keys of every turn it carries go with it (a forget records them).
      entry: { ...withAllContents(turns), groupId: segment.groupId, message: digestMessage(segment.sessionId, turns, maxMessageChars) },
      sessionId: segment.sessionId,
      keys: turns.flatMap((turn) => turn.keys),
      turns: turns.length,
    };
  }

  /** The closing digests with their text as the configured writer wrote it (same names: exactly-once holds). */
  async #written(closing: readonly ClosingDigest[]): Promise<readonly ClosingDigest[]> {
    if (this.writing === undefined || closing.length === 0) return closing;
    const messages = await this.writing.write(
      closing.map((digest) => ({ message: digest.entry.message, turns: digest.turns })),
      this.stopping,
    );
    return closing.map((digest, index) => ({ ...digest, entry: { ...digest.entry, message: messages[index] ?? digest.entry.message } }));
  }

  async #drop(segments: DigestSegmentStore, sent: (turn: DigestTurn) => boolean): Promise<void> {
    await segments.update((current) => ({
      next: current.map((segment) => ({ ...segment, turns: segment.turns.filter((turn) => !sent(turn)) })).filter((segment) => segment.turns.length > 0),
      result: undefined,
    }));
  }
}

/**
 * The chunks of a segment's turns that close now: every full `digestTurns`, every run of turns
 * followed by an idle gap of more than `idleMs` between the turns' own times (an import or a
 * resumed transcript is segmented by when it was said, not by when it was read), and the rest too
 * when the segment ends (session end or idle). `open`: turns stay in the segment after these.
 */
export function closingChunks(
  turns: readonly DigestTurn[],
  digestTurns: number,
  idleMs: number,
  ends: boolean,
): { readonly closing: DigestTurn[][]; readonly open: boolean } {
  const chunks: DigestTurn[][] = [];
  let chunk: DigestTurn[] = [];
  let lastAt: number | undefined;
  for (const turn of turns) {
    const at = turnTime(turn);
    const gap = at !== undefined && lastAt !== undefined && at - lastAt > idleMs;
    if (chunk.length > 0 && (gap || chunk.length === digestTurns)) {
      chunks.push(chunk);
      chunk = [];
    }
    chunk.push(turn);
    if (at !== undefined) lastAt = at;
  }
  if (chunk.length === 0) return { closing: chunks, open: false };
  if (ends || chunk.length === digestTurns) return { closing: [...chunks, chunk], open: false };
  return { closing: chunks, open: true };
}

/** When a turn was said: its newest message timestamp (ms); `undefined` when none can be read. */
export function turnTime(turn: DigestTurn): number | undefined {
  let newest: number | undefined;
  for (const message of turn.messages) {
    const at = message.timestamp === undefined || message.timestamp === null ? Number.NaN : Date.parse(message.timestamp);
    if (!Number.isNaN(at)) newest = Math.max(newest ?? at, at);
  }
  return newest;
}

/** What the loop proposals read of a closing digest. */
function proposalDigest(digest: ClosingDigest): ClosedSessionDigest {
  const { message } = digest.entry;
  const tool = digest.entry.source?.tool;
  return {
    name: message.name ?? `${digest.entry.groupId}\n${digest.sessionId}`,
    sessionId: digest.sessionId,
    groupId: digest.entry.groupId,
    transcript: message.content,
    turns: digest.turns,
    ...(typeof message.timestamp === 'string' ? { at: message.timestamp } : {}),
    ...(tool === undefined ? {} : { tool }),
  };
}

/** An entry's fields besides the group and the message, when it has any. */
function extraOf(entry: OutboxEntry | undefined): { extra?: Record<string, unknown> } {
  if (entry === undefined) return {};
  const { groupId: _groupId, message: _message, ...extra } = entry as OutboxEntry & Record<string, unknown>;
  return Object.keys(extra).length === 0 ? {} : { extra };
}

/** The first turn's extra fields, its source carrying the content keys of every turn (bounded). */
function withAllContents(turns: readonly DigestTurn[]): Record<string, unknown> {
  const extra = turns[0]?.extra;
  const source = extra?.['source'];
  if (extra === undefined || typeof source !== 'object' || source === null) return extra ?? {};
  const contents = [...new Set(turns.flatMap((turn) => {
    const keys = (turn.extra?.['source'] as { contents?: unknown } | undefined)?.contents;
    return Array.isArray(keys) ? keys.filter((key): key is string => typeof key === 'string') : [];
  }))].slice(0, MAX_SOURCE_CONTENTS);
  return contents.length === 0 ? extra : { ...extra, source: { ...source, contents } };
}
