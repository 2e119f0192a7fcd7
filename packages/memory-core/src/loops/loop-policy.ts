// The policy of loops, pure: what a marker does to the loops of a workspace (open, say again,
// close the best match, drop), which open loops a brief nudges about (newest and most salient
// first, a few at most) and which are stale (untouched for `loops.expireDays`), and how many a
// store keeps. No I/O: the capture service and the stores call it.
import { sha256Hex } from '../scopes/sha256.js';
import { describeAge } from '../tier/tier-content.js';
import type { LoopMarker } from './loop-markers.js';
import type { LoopEvidence, LoopStatus, OpenLoop } from './open-loop.js';

/** `loops.expireDays` when no setting says otherwise. */
export const DEFAULT_LOOP_EXPIRE_DAYS = 30;
/** Open loops a brief names at most. */
export const MAX_NUDGED_LOOPS = 3;
/** Loops one store keeps at most: closed ones go first, then the oldest stale ones. */
export const MAX_KEPT_LOOPS = 500;
/** How long a closed loop is kept (for `loops list --all`) before it is let go. */
const CLOSED_KEPT_DAYS = 90;
const DAY_MS = 24 * 60 * 60_000;
/** Words a match ignores: they say nothing about which loop is meant. */
const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'why', 'that', 'this', 'from', 'into', 'check', 'add', 'fix', 'make', 'done', 'now', 'has', 'was', 'are', 'its', 'our']);

/** The words a loop is matched by: lower case, letters and digits, stop words left out. */
export function loopWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3 && !STOP_WORDS.has(word));
}

/** The text a loop's id is made of: its words in order, so spacing and punctuation do not make two loops. */
export function normalisedLoopText(text: string): string {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '').join(' ');
}

/** The id of the loop `text` in `groupId`: 12 hex characters, short enough to type (`loops done ID`). */
export async function loopId(groupId: string, text: string): Promise<string> {
  return (await sha256Hex(`loop\n${groupId}\n${normalisedLoopText(text)}`)).slice(0, 12);
}

/**
 * The open loop of `groupId` that `text` ("done: the migration test") closes: the one sharing the
 * largest part of the shorter one's words (at least 60 %, and two words or all of a short one),
 * the newest on a tie; `undefined` when none is close enough.
 */
export function matchOpenLoop(loops: readonly OpenLoop[], groupId: string, text: string): OpenLoop | undefined {
  const wanted = new Set(loopWords(text));
  if (wanted.size === 0) return undefined;
  let best: { loop: OpenLoop; score: number } | undefined;
  for (const loop of loops) {
    if (loop.groupId !== groupId || loop.status !== 'open') continue;
    const words = new Set(loopWords(loop.text));
    if (words.size === 0) continue;
    const shared = [...wanted].filter((word) => words.has(word)).length;
    const shorter = Math.min(words.size, wanted.size);
    const score = shared / shorter;
    if (score < 0.6 || shared < Math.min(2, shorter)) continue;
    if (best === undefined || score > best.score || (score === best.score && loop.updatedAt > best.loop.updatedAt)) best = { loop, score };
  }
  return best?.loop;
}

/** What one marker did. */
export interface LoopChange {
  readonly change: 'opened' | 'reopened' | 'repeated' | 'done' | 'dropped';
  readonly loop: OpenLoop;
}

/**
 * `loops` after the markers of one turn in `groupId`: an open marker opens a loop (or counts one
 * said again, or reopens a closed one), a done or drop marker closes the open loop it matches. A
 * close that matches nothing changes nothing. Returns the new list and what changed, in order.
 */
export async function applyLoopMarkers(
  loops: readonly OpenLoop[],
  markers: readonly LoopMarker[],
  groupId: string,
  evidence: LoopEvidence,
): Promise<{ readonly loops: OpenLoop[]; readonly changes: LoopChange[] }> {
  let current = [...loops];
  const changes: LoopChange[] = [];
  for (const marker of markers) {
    if (marker.action === 'open') {
      const id = await loopId(groupId, marker.text);
      const known = current.find((loop) => loop.id === id);
      // Evidence that names its marker (`model`: an approved proposal) keeps it.
      const said = { ...evidence, marker: evidence.marker ?? marker.marker };
      if (known === undefined) {
        const loop: OpenLoop = { id, text: marker.text, scope: 'workspace', groupId, status: 'open', evidence: said, createdAt: evidence.at, updatedAt: evidence.at, mentions: 1 };
        current.push(loop);
        changes.push({ change: 'opened', loop });
      } else {
        const reopened = known.status !== 'open';
        const { closed: _closed, ...rest } = known;
        const loop: OpenLoop = reopened
          ? { ...rest, status: 'open', evidence: said, createdAt: evidence.at, updatedAt: evidence.at, mentions: 1 }
          : { ...known, updatedAt: laterOf(known.updatedAt, evidence.at), mentions: known.mentions + 1 };
        current = current.map((candidate) => (candidate.id === id ? loop : candidate));
        changes.push({ change: reopened ? 'reopened' : 'repeated', loop });
      }
      continue;
    }
    const target = matchOpenLoop(current, groupId, marker.text);
    if (target === undefined) continue;
    const closed = closeLoop(target, marker.action === 'done' ? 'done' : 'dropped', { ...evidence, marker: marker.marker });
    current = current.map((candidate) => (candidate.id === target.id ? closed : candidate));
    changes.push({ change: closed.status === 'done' ? 'done' : 'dropped', loop: closed });
  }
  return { loops: current, changes };
}

/** `loop` closed (`done`) or dropped, with where. */
export function closeLoop(loop: OpenLoop, status: Exclude<LoopStatus, 'open'>, evidence: LoopEvidence): OpenLoop {
  return { ...loop, status, updatedAt: laterOf(loop.updatedAt, evidence.at), closed: evidence };
}

/** Whether an open loop went untouched for `expireDays`: no longer nudged, shown as stale. */
export function isStaleLoop(loop: OpenLoop, now: Date, expireDays: number): boolean {
  return loop.status === 'open' && now.getTime() - Date.parse(loop.updatedAt) > expireDays * DAY_MS;
}

export interface LoopNudges {
  /** The open loops to name, newest and most salient first, `max` at most. */
  readonly nudged: readonly OpenLoop[];
  /** Open loops of the workspace not named: more than `max`. */
  readonly more: number;
  /** Open loops untouched for `expireDays`: never nudged. */
  readonly stale: readonly OpenLoop[];
}

/**
 * The loops a brief of `groupId` nudges about: open, not stale, newest first by day, then the most
 * salient (said more often; a `TODO:` or `task_update` over a `next:`), then the most recently touched.
 */
export function loopNudges(loops: readonly OpenLoop[], groupId: string, now: Date, options: { readonly expireDays: number; readonly max?: number }): LoopNudges {
  const open = loops.filter((loop) => loop.groupId === groupId && loop.status === 'open');
  const stale = open.filter((loop) => isStaleLoop(loop, now, options.expireDays));
  const live = open.filter((loop) => !isStaleLoop(loop, now, options.expireDays)).sort((left, right) => compareForNudge(left, right, now));
  const max = options.max ?? MAX_NUDGED_LOOPS;
  return { nudged: live.slice(0, max), more: Math.max(0, live.length - max), stale };
}

function compareForNudge(left: OpenLoop, right: OpenLoop, now: Date): number {
  const day = (loop: OpenLoop): number => Math.floor((now.getTime() - Date.parse(loop.updatedAt)) / DAY_MS);
  return day(left) - day(right) || salience(right) - salience(left) || right.updatedAt.localeCompare(left.updatedAt) || left.id.localeCompare(right.id);
}

function salience(loop: OpenLoop): number {
  const explicit = loop.evidence.marker === 'todo' || loop.evidence.marker === 'task_update' || loop.evidence.marker === 'hand' ? 1 : 0;
  return loop.mentions + explicit;
}

/** `open for 3 days, Claude Code` (or `stale: untouched for 40 days, Claude Code`). */
export function describeLoop(loop: OpenLoop, now: Date, expireDays: number): string {
  if (loop.status !== 'open') return `${loop.status} ${describeAge(loop.closed?.at ?? loop.updatedAt, now)} ago, ${loop.closed?.tool ?? loop.evidence.tool}`;
  if (isStaleLoop(loop, now, expireDays)) return `stale: untouched for ${describeAge(loop.updatedAt, now)}, ${loop.evidence.tool}`;
  return `open for ${describeAge(loop.createdAt, now)}, ${loop.evidence.tool}`;
}

/**
 * The loops a store keeps: closed loops older than 90 days go; beyond `MAX_KEPT_LOOPS`, closed
 * loops go first (oldest first), then the open ones touched longest ago.
 */
export function boundedLoops(loops: readonly OpenLoop[], now: Date): OpenLoop[] {
  const kept = loops.filter((loop) => loop.status === 'open' || now.getTime() - Date.parse(loop.updatedAt) <= CLOSED_KEPT_DAYS * DAY_MS);
  if (kept.length <= MAX_KEPT_LOOPS) return kept;
  const byKeep = [...kept].sort((left, right) => Number(left.status === 'open') - Number(right.status === 'open') || left.updatedAt.localeCompare(right.updatedAt));
  const dropped = new Set(byKeep.slice(0, kept.length - MAX_KEPT_LOOPS).map((loop) => loop.id));
  return kept.filter((loop) => !dropped.has(loop.id));
}

/** What one forget covers, for loops: its groups, and the sessions it forgets. */
export function forgottenLoop(loop: OpenLoop, groupIds: ReadonlySet<string>, sessionIds: ReadonlySet<string>): boolean {
  return groupIds.has(loop.groupId) || (loop.evidence.sessionId !== undefined && sessionIds.has(loop.evidence.sessionId));
}

/** The `task_update` episode text of a loop's state: what teammates' tools see. */
export function loopEpisodeText(loop: OpenLoop): string {
  switch (loop.status) {
    case 'open':
      return `Open loop (${loop.evidence.tool}): ${loop.text}`;
    case 'done':
      return `Loop done (${loop.closed?.tool ?? loop.evidence.tool}): ${loop.text}`;
    case 'dropped':
      return `Loop dropped (${loop.closed?.tool ?? loop.evidence.tool}): ${loop.text}`;
  }
}

function laterOf(left: string, right: string): string {
  return Date.parse(right) > Date.parse(left) ? right : left;
}
