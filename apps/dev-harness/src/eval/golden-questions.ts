// The golden questions of `graphiti-harness eval`: one per memory the workspace promoted (the
// product's own record of promotions, the local tier), each asking about that memory, and the
// user's own `.graphiti-memory/eval.jsonl` (`{"question": …, "expected": …}` per line).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { normaliseFactText } from '@graphiti-memory/memory-core';
import { HarnessError } from '../cli/harness-errors.js';

export interface GoldenQuestion {
  /** `promotion` (generated) or `file` (the user's eval.jsonl). */
  readonly source: 'promotion' | 'file';
  /** eval.jsonl's line number (1-based). */
  readonly line?: number;
  readonly question: string;
  /** The text a recalled fact must say for a hit. */
  readonly expected: string;
  /** The promotion's episode, when known: a fact extracted from it is a hit. */
  readonly episode?: string;
}

/** A promoted memory as the local tier records it. */
export interface PromotedMemory {
  readonly kind: string;
  readonly text: string;
  readonly episodeUuid?: string;
}

/** Where the user's golden questions live, relative to the workspace. */
export const EVAL_FILE = path.join('.graphiti-memory', 'eval.jsonl');

const QUESTION_OPENINGS: Readonly<Record<string, string>> = {
  decision: 'What did we decide about',
  preference: 'What is the preference about',
  procedure: 'How do we handle',
  terminology: 'What do we mean by',
};

const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'what', 'which', 'that', 'this', 'from', 'have', 'does', 'how', 'our', 'you', 'are', 'was', 'use', 'we', 'always', 'never', 'only', 'every']);
/** Topic words a generated question keeps: enough to be about the memory, not a copy of it. */
const TOPIC_WORDS = 4;

/** Content words of `text`, in order, each once. */
export function contentWords(text: string): string[] {
  const words = normaliseFactText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 2 && !STOP_WORDS.has(word));
  return [...new Set(words)];
}

/** A question about a promoted memory: its kind's opening and the memory's first topic words. */
export function questionAbout(memory: PromotedMemory): GoldenQuestion {
  const opening = QUESTION_OPENINGS[memory.kind] ?? 'What do we know about';
  const topic = contentWords(memory.text).slice(0, TOPIC_WORDS).join(' ');
  return {
    source: 'promotion',
    question: `${opening} ${topic === '' ? memory.text.trim() : topic}?`,
    expected: memory.text.trim(),
    ...(memory.episodeUuid === undefined ? {} : { episode: memory.episodeUuid }),
  };
}

/**
 * The user's golden questions; `[]` when the file does not exist. Every bad line is named with
 * its number, what is wrong and what to write; one bad line fails the whole file.
 */
export async function readEvalFile(file: string): Promise<GoldenQuestion[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new HarnessError(`${file} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, { hint: 'Check its permissions, or pass another file with --file.' });
  }
  const questions: GoldenQuestion[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const parsed = parseLine(raw);
    if (typeof parsed === 'string') problems.push(`line ${line}: ${parsed}`);
    else questions.push({ source: 'file', line, ...parsed });
  });
  if (problems.length > 0) {
    throw new HarnessError(`${file} has ${problems.length} bad line${problems.length === 1 ? '' : 's'}: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? '; …' : ''}`, {
      hint: 'Each line must be one JSON object: {"question": "How do we deploy?", "expected": "Fly.io"}. Fix those lines and run eval again.',
      details: { file, badLines: problems.length },
    });
  }
  return questions;
}

function parseLine(raw: string): { question: string; expected: string } | string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return 'not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => key !== 'question' && key !== 'expected');
  if (unknown.length > 0) return `unknown key ${JSON.stringify(unknown[0])} (only "question" and "expected")`;
  for (const key of ['question', 'expected'] as const) {
    if (typeof record[key] !== 'string' || (record[key] as string).trim() === '') return `"${key}" must be a non-empty string`;
  }
  return { question: (record['question'] as string).trim(), expected: (record['expected'] as string).trim() };
}

/**
 * Whether a recalled fact answers a golden question: it was extracted from the promoted memory's
 * episode, or says the expected text (contains it, or is contained in it, normalised), or shares
 * at least 60 % of its content words (Graphiti rephrases what it extracts).
 */
export function answers(fact: { readonly fact: string; readonly episodes?: readonly string[] | undefined }, question: GoldenQuestion): boolean {
  if (question.episode !== undefined && fact.episodes?.includes(question.episode) === true) return true;
  const said = normaliseFactText(fact.fact);
  const expected = normaliseFactText(question.expected);
  if (said === '' || expected === '') return false;
  // A fact inside the expected text must be most of it: a fragment is not an answer.
  if (said.includes(expected) || (expected.includes(said) && said.length * 2 >= expected.length)) return true;
  const wanted = contentWords(question.expected);
  if (wanted.length === 0) return false;
  const present = new Set(contentWords(fact.fact));
  return wanted.filter((word) => present.has(word)).length / wanted.length >= 0.6;
}
