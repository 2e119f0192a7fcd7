// What this machine keeps of memory, for the view: the local tier's promotions Graphiti did not
// show (yet) — waiting to be sent, or all of them while Graphiti cannot be reached — and when a
// captured conversation's digest will be sent. Pure: no VS Code, no network.
import type { TierPromotion } from '@graphiti-memory/memory-core';
import type { CuratedMemory } from './memory-tree.js';

/** A memory the view knows from this machine only. */
export interface LocalMemory {
  readonly promotion: TierPromotion;
  /** `waiting`: queued here, not read back from Graphiti yet; `cached`: Graphiti has it, it could not be asked now. */
  readonly state: 'waiting' | 'cached';
}

/**
 * The tier's promotions the view does not already show from Graphiti (matched by the promotion's
 * episode name), newest first. With Graphiti reachable only those not stored yet are left: a
 * promotion read back from Graphiti (`episodeUuid`) that Graphiti no longer lists was forgotten elsewhere.
 */
export function localMemories(promoted: readonly TierPromotion[], shown: readonly CuratedMemory[], reachable: boolean): LocalMemory[] {
  const names = new Set(shown.map((memory) => memory.episode.name));
  return promoted
    .filter((promotion) => promotion.scope !== 'team' || promotion.author === undefined)
    .filter((promotion) => promotion.episodeName === undefined || !names.has(promotion.episodeName))
    .filter((promotion) => !reachable || promotion.episodeUuid === undefined)
    .map((promotion): LocalMemory => ({ promotion, state: promotion.episodeUuid === undefined ? 'waiting' : 'cached' }))
    .sort((a, b) => Date.parse(b.promotion.createdAt) - Date.parse(a.promotion.createdAt));
}

/** A clock time as people read it, in the local time zone. */
export function localTime(at: Date): string {
  return at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/**
 * What a conversation with nothing in Graphiti yet says: when its digest is sent (its last turn plus
 * the idle while), or that it was sent and Graphiti is still processing it.
 */
export function waitingConversation(lastWriteAt: number, options: { readonly idleMinutes: number; readonly granularity: 'session' | 'turn'; readonly now: number }): string {
  if (options.granularity === 'turn') return 'Its turns are on their way to Graphiti: they show here once Graphiti has stored them.';
  const due = lastWriteAt + options.idleMinutes * 60_000;
  if (due > options.now) {
    return `Waiting: its turns are sent as one digest at about ${localTime(new Date(due))}, ${options.idleMinutes} minute${options.idleMinutes === 1 ? '' : 's'} after the last turn (sooner when the conversation ends).`;
  }
  return 'Its digest was sent: it shows here once Graphiti has stored it.';
}
