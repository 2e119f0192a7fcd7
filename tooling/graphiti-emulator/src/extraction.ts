// Stand-in for Graphiti's LLM extraction. Deliberately simple and predictable, so tests can
// reason about it:
// - Each sentence of a message (split on . ! ? and line breaks) with at least two words is a fact;
//   a line that is only a tag (`<graphiti_episode …>`) frames the text and is none.
// - Subject: the first word, or the first two when the first is a determiner ("the build").
// - Relation (`name`): the first following word that is not an auxiliary or a change marker,
//   uppercased ("Alice no longer likes tea" → LIKES); RELATES_TO when there is none.
// - Object: the words after the relation; the source and target nodes are named by subject and
//   object (the target is the subject again when there is no object).
// - Contradiction: a newer fact in the same group with the same subject invalidates an older,
//   still-valid one (valid_at not after the newer one's) when the newer sentence
//     * has a replacement marker (instead, switched, changed to, moved to, migrated to, replaced):
//       every such older fact; or
//     * has a negation (not, n't, never, no longer, anymore): older facts sharing a content word.
//   The older fact gets `invalid_at` = the newer fact's `valid_at` and `expired_at` = now.
import { createHash } from 'node:crypto';
import { searchTerms, words } from './text-tokens.js';

export interface Statement {
  readonly sentence: string;
  readonly subject: string;
  readonly relation: string;
  readonly object: string;
  readonly marker: 'replacement' | 'negation' | null;
}

const DETERMINERS = new Set(['the', 'a', 'an', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'their', 'his', 'her', 'its']);
const SKIPPED_BEFORE_RELATION = new Set([
  'no', 'longer', 'not', 'never', 'now', 'do', 'does', 'did', 'don\'t', 'doesn\'t', 'didn\'t', 'will', 'won\'t',
  'can', 'can\'t', 'cannot', 'should', 'shouldn\'t', 'has', 'have', 'had', 'also', 'still', 'always', 'really',
]);
const REPLACEMENT_PATTERN = /\b(instead|switched|changed to|moved to|migrated to|replaced)\b/i;
const NEGATION_PATTERN = /\b(not|never|no longer|anymore)\b|n['’]t\b/i;
const MARKER_WORDS = new Set(['not', 'never', 'no', 'longer', 'anymore', 'instead', 'now']);

export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|[\r\n]+/)
    .map((sentence) => sentence.trim().replace(/[.!?]+$/, '').trim())
    .filter((sentence) => words(sentence).length >= 2 && !MARKUP_LINE.test(sentence));
}

/** A line that is only an XML-like tag (`<graphiti_episode kind="decision" …>`, `</…>`): framing, not a statement. */
const MARKUP_LINE = /^<\/?[A-Za-z_][\w.-]*(?:\s[^<>]*)?\/?>$/;

export function extractStatements(text: string): Statement[] {
  return splitSentences(text).map((sentence) => {
    const sentenceWords = words(sentence);
    const first = sentenceWords[0] ?? '';
    const subjectLength = DETERMINERS.has(first.toLowerCase()) && sentenceWords.length > 2 ? 2 : 1;
    const subject = sentenceWords.slice(0, subjectLength).join(' ');
    let relationIndex = subjectLength;
    while (relationIndex < sentenceWords.length && SKIPPED_BEFORE_RELATION.has((sentenceWords[relationIndex] ?? '').toLowerCase())) {
      relationIndex++;
    }
    const relationWord = sentenceWords[relationIndex];
    const relation = relationWord === undefined ? 'RELATES_TO' : relationWord.toUpperCase().replace(/[^\p{L}\p{N}]+/gu, '_');
    const object = sentenceWords
      .slice(relationIndex + 1)
      .filter((word) => !MARKER_WORDS.has(word.toLowerCase()))
      .join(' ');
    const marker = REPLACEMENT_PATTERN.test(sentence) ? 'replacement' : NEGATION_PATTERN.test(sentence) ? 'negation' : null;
    return { sentence, subject, relation, object, marker };
  });
}

export interface ExistingFact {
  readonly subject: string;
  readonly sentence: string;
  readonly validAtMs: number;
}

/** Whether `newer` (with its own valid time) invalidates `older`, per the rules above. */
export function contradicts(newer: Statement, newerValidAtMs: number, older: ExistingFact): boolean {
  if (newer.marker === null) return false;
  if (newer.subject.toLowerCase() !== older.subject.toLowerCase()) return false;
  if (older.validAtMs > newerValidAtMs) return false;
  if (newer.marker === 'replacement') return true;
  const subjectTerms = new Set(searchTerms(newer.subject));
  const contentTerms = (text: string) =>
    new Set(searchTerms(text).filter((term) => !subjectTerms.has(term) && !MARKER_WORDS.has(term) && !/n['’]t$/.test(term)));
  const newerTerms = contentTerms(newer.sentence);
  return [...contentTerms(older.sentence)].some((term) => newerTerms.has(term));
}

/** A small deterministic unit vector standing in for an embedding model. */
export function nameEmbedding(name: string, dimensions = 8): number[] {
  const digest = createHash('sha256').update(name.toLowerCase()).digest();
  const raw = Array.from({ length: dimensions }, (_, index) => (digest[index] ?? 0) / 255 - 0.5);
  const length = Math.hypot(...raw) || 1;
  return raw.map((value) => Math.round((value / length) * 1e6) / 1e6);
}
