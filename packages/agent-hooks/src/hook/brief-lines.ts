// The SessionStart brief as lines: memory-core's `LocalTier.brief` decides what it holds (recall's
// scopes, validity, stale check, citations, said once); this renders it as one `<graphiti_memory>`
// block within the budget, the "where we left off" bridge last, and says what made it in.
import { describeAge, tokenEstimate, type BriefPromotion, type CachedRecall, type RecalledFact, type SaidMemory, type TierBridge, type TierBrief } from '@graphiti-memory/memory-core';
import { scopeLabel } from '@graphiti-memory/memory-core/episode-format';
import { factLineSuffix, fitMemoryLines, formatDay, formatFactLine, orderByRank, sanitiseFactText } from '@graphiti-memory/prompt-elements';

/** The token count the hooks budget with (memory-core's estimate: a real tokenizer would cost the hook its start). */
export function estimateTokens(text: string): number {
  return tokenEstimate(text.length);
}

/** An open loop as the brief names it (memory-core's `loopNudges` chose it; `describeLoop` said its age and source). */
export interface BriefLoop {
  readonly id: string;
  readonly text: string;
  /** `open for 3 days, Claude Code`. */
  readonly description: string;
}

/** What say-it-once records for a loop the brief named: a resumed session is not told it again. */
export function loopSaidKey(loop: Pick<BriefLoop, 'id'>): string {
  return `open loop ${loop.id}`;
}

/** `- Open loop: add a migration test for the retry budget (open for 3 days, Claude Code)`. */
export function loopLine(loop: BriefLoop): string {
  return `- Open loop: ${sanitiseFactText(loop.text)} (${sanitiseFactText(loop.description)})`;
}

/** A rendered brief and what it gave the session (for say-it-once). */
export interface RenderedBrief {
  readonly text: string;
  readonly said: SaidMemory;
}

/** `- [workspace decision] Text (may be stale: src/x.ts is gone) (graphiti-harness, 2026-11-20)`. */
export function promotionLine(promotion: BriefPromotion): string {
  const asFact = { stale: promotion.stale, sources: promotion.sources } as Pick<RecalledFact, 'stale' | 'sources'> as RecalledFact;
  return `- [${sanitiseFactText(scopeLabel(promotion))} ${promotion.kind}] ${sanitiseFactText(promotion.text)}${factLineSuffix(asFact)}`;
}

/** `- Where we left off: 2026-11-27 in Claude Code, "fix the login redirect"; decided: … (Claude Code, 2026-11-27)`. */
export function bridgeLine(bridge: TierBridge): string {
  const { session } = bridge;
  const title = session.title === undefined ? '' : `, asked "${sanitiseFactText(session.title)}"`;
  const decided = bridge.decisions.length === 0 ? '' : `; decided: ${bridge.decisions.map((decision) => sanitiseFactText(decision.text)).join('; ')}`;
  const tool = sanitiseFactText(session.tool);
  return `- Where we left off: the last session here ended ${formatDay(session.endedAt) ?? 'recently'} in ${tool}${title}${decided} (${tool}, ${formatDay(session.endedAt) ?? ''})`;
}

/**
 * The brief within `budget` tokens: promoted memories, then the open loops, then facts, then the
 * bridge; `undefined` when nothing fits. The loops and the bridge are kept before the facts when
 * the budget is short. A brief with no tier found (`brief.found` false) holds the loops alone.
 */
export async function renderBrief(brief: TierBrief, budget: number, now: Date, loops: readonly BriefLoop[] = []): Promise<RenderedBrief | undefined> {
  const header = [brief.found ? `Workspace brief from the local memory cache (updated ${describeAge(brief.updatedAt, now)} ago).` : 'Workspace brief (open loops kept on this machine).'];
  const facts = brief.found ? orderByRank(brief.facts) : [];
  const promotions = brief.found ? brief.promoted : [];
  const promoted = promotions.map(promotionLine);
  const loopLines = loops.map(loopLine);
  const factLines = facts.map(formatFactLine);
  const bridge = brief.found && brief.bridge !== undefined ? [bridgeLine(brief.bridge)] : [];
  // What is kept: promotions first, then loops, then the bridge, then facts; shown with the bridge last.
  const byPriority = [...promoted, ...loopLines, ...bridge, ...factLines];
  const chosen = await fitMemoryLines(byPriority, budget, estimateTokens, { header, overflow: 'skip' });
  if (chosen === undefined) return undefined;
  const kept = new Set(chosen.keptIndexes);
  const keptPromotions = promotions.filter((_, index) => kept.has(index));
  const keptLoops = loops.filter((_, index) => kept.has(promoted.length + index));
  const bridgeKept = bridge.length > 0 && kept.has(promoted.length + loopLines.length);
  const keptFacts = facts.filter((_, index) => kept.has(promoted.length + loopLines.length + bridge.length + index));
  const lines = [...keptPromotions.map(promotionLine), ...keptLoops.map(loopLine), ...keptFacts.map(formatFactLine), ...(bridgeKept ? bridge : [])];
  const fitted = await fitMemoryLines(lines, budget, estimateTokens, { header, overflow: 'skip' });
  if (fitted === undefined) return undefined;
  return {
    text: fitted.text,
    said: {
      facts: keptFacts,
      texts: [...keptPromotions.map((promotion) => promotion.text), ...keptLoops.map(loopSaidKey), ...(bridgeKept && brief.bridge !== undefined ? [brief.bridge.saidKey] : [])],
      episodes: keptPromotions.flatMap((promotion) => (promotion.episodeUuid === undefined ? [] : [promotion.episodeUuid])),
    },
  };
}

/** Recall's fallback in a hook: the tier's facts, labelled as cached with their age; `undefined` when none fit. */
export async function renderCachedRecall(cached: CachedRecall, reason: string, budget: number, now: Date): Promise<string | undefined> {
  const header = `${reason}: these facts are from the local memory cache (cached ${describeAge(cached.cachedAt, now)} ago).`;
  return (await fitMemoryLines(orderByRank(cached.facts).map(formatFactLine), budget, estimateTokens, { header: [header], overflow: 'skip' }))?.text;
}
