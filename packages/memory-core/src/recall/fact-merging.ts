// Merging per-scope search results into one ranked list: stable scope order, duplicates dropped
// (the same edge from two groups, or the same sentence extracted twice), facts that are no longer
// valid dropped or marked, and the list cut at `maxFacts`.
import type { FactResult } from '@graphiti-memory/graphiti-client';
import { SCOPE_ORDER, type MemoryScope, type RecalledFact } from '../ports.js';

export interface ScopeFacts {
  readonly scope: MemoryScope;
  readonly facts: readonly FactResult[];
}

export interface MergeOptions {
  readonly maxFacts: number;
  /** Milliseconds since the epoch: facts invalid or expired at or before it are superseded. */
  readonly now: number;
  /** Keep superseded facts, marked `superseded: true`, instead of dropping them. */
  readonly keepSuperseded: boolean;
}

/** Fact text compared for duplicates: case, whitespace and a final full stop do not matter. */
export function normaliseFactText(fact: string): string {
  return fact.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim().replace(/[.!]+$/, '');
}

/** Milliseconds of a wire timestamp; one without an offset is UTC. `undefined` when unreadable. */
export function wireTime(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const withZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(value) || !value.includes('T') ? value : `${value}Z`;
  const time = Date.parse(withZone);
  return Number.isNaN(time) ? undefined : time;
}

export function isSuperseded(fact: FactResult, now: number): boolean {
  for (const value of [fact.invalid_at, fact.expired_at]) {
    const time = wireTime(value);
    if (time !== undefined && time <= now) return true;
  }
  return false;
}

export function mergeFacts(results: readonly ScopeFacts[], options: MergeOptions): RecalledFact[] {
  const ordered = [...results].sort((a, b) => SCOPE_ORDER.indexOf(a.scope) - SCOPE_ORDER.indexOf(b.scope));
  const seenIds = new Set<string>();
  const seenTexts = new Set<string>();
  const merged: RecalledFact[] = [];
  for (const { scope, facts } of ordered) {
    for (const fact of facts) {
      if (merged.length >= options.maxFacts) return merged;
      const text = normaliseFactText(fact.fact);
      if (seenIds.has(fact.uuid) || seenTexts.has(text)) continue;
      const superseded = isSuperseded(fact, options.now);
      if (superseded && !options.keepSuperseded) continue;
      seenIds.add(fact.uuid);
      seenTexts.add(text);
      const recalled: RecalledFact = { ...fact, scope, rank: merged.length };
      merged.push(superseded ? { ...recalled, superseded: true } : recalled);
    }
  }
  return merged;
}
