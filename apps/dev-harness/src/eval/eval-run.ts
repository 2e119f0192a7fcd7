// One eval run: each golden question through memory-core's recall (as a prompt would get it, at
// most k facts), the block a prompt would get rendered and counted with the real tokenizer, and
// the figures: hit rate at k, tokens injected and recall latency (p50/p95), stale share.
import type { RecallOptions, RecallResult } from '@graphiti-memory/memory-core';
import { round } from '../benchmark/benchmark-result.js';
import { renderMemoryPrompt } from '../prompt/render-memory-prompt.js';
import { answers, type GoldenQuestion } from './golden-questions.js';

export interface EvalRecall {
  recall(query: string, options?: RecallOptions): Promise<RecallResult>;
}

export interface QuestionResult {
  readonly source: GoldenQuestion['source'];
  readonly line: number | null;
  readonly question: string;
  readonly hit: boolean;
  /** 1-based rank of the first answering fact; null on a miss. */
  readonly rank: number | null;
  readonly facts: number;
  readonly tokens: number;
  readonly latencyMs: number;
  readonly outcome: RecallResult['outcome'];
}

export interface EvalReport {
  readonly k: number;
  readonly questions: { readonly total: number; readonly fromPromotions: number; readonly fromFile: number };
  readonly hits: number;
  /** Hits ÷ questions (0 when there are none). */
  readonly hitRate: number;
  readonly tokens: { readonly p50: number; readonly p95: number };
  readonly latencyMs: { readonly p50: number; readonly p95: number };
  readonly stale: { readonly share: number; readonly marked: number; readonly recalled: number; readonly note: string | null };
  readonly results: readonly QuestionResult[];
}

export interface EvalRunOptions {
  readonly k: number;
  readonly timeoutMs: number;
  readonly budget: number;
  readonly scopes?: RecallOptions['scopes'];
  readonly sessionId?: string;
  readonly onProgress?: (done: number) => void;
}

/** Questions run one after another: each latency is that of a recall alone. */
export async function runEval(memory: EvalRecall, questions: readonly GoldenQuestion[], options: EvalRunOptions): Promise<EvalReport> {
  const results: QuestionResult[] = [];
  let recalled = 0;
  let marked = 0;
  for (const [index, question] of questions.entries()) {
    const started = performance.now();
    const result = await memory.recall(question.question, {
      maxFacts: options.k,
      timeoutMs: options.timeoutMs,
      ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    });
    const latencyMs = performance.now() - started;
    const facts = result.facts.slice(0, options.k);
    const answering = facts.findIndex((fact) => answers(fact, question));
    const prompt = await renderMemoryPrompt(facts, options.budget);
    recalled += facts.length;
    // memory-core's stale check sets `stale` (the paths that are gone) only on a fact it marked.
    marked += facts.filter((fact) => (fact.stale?.length ?? 0) > 0).length;
    results.push({
      source: question.source,
      line: question.line ?? null,
      question: question.question,
      hit: answering >= 0,
      rank: answering >= 0 ? answering + 1 : null,
      facts: facts.length,
      tokens: prompt.tokenCount,
      latencyMs: round(latencyMs, 1),
      outcome: result.outcome,
    });
    options.onProgress?.(index + 1);
  }
  const hits = results.filter((result) => result.hit).length;
  return {
    k: options.k,
    questions: { total: questions.length, fromPromotions: questions.filter((question) => question.source === 'promotion').length, fromFile: questions.filter((question) => question.source === 'file').length },
    hits,
    hitRate: questions.length === 0 ? 0 : round(hits / questions.length),
    tokens: { p50: percentile(results.map((result) => result.tokens), 50), p95: percentile(results.map((result) => result.tokens), 95) },
    latencyMs: { p50: percentile(results.map((result) => result.latencyMs), 50), p95: percentile(results.map((result) => result.latencyMs), 95) },
    stale: {
      share: recalled === 0 ? 0 : round(marked / recalled),
      marked,
      recalled,
      note: marked > 0 || recalled === 0 ? null : 'no recalled fact carried a stale mark (none is stale, or this build has no stale check, recall.stale): share reported as 0',
    },
    results,
  };
}

/** Nearest-rank percentile; 0 for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? 0;
}
