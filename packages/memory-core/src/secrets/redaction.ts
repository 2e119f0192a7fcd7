// Applies detected spans to a text: overlapping spans merge into one marker (the kind of the
// most specific detector wins), so a secret found by several rules is replaced once.
import { redactionMarker, type RedactionFinding, type RedactionResult, type SecretSpan } from './secret-guard.js';

export function applyRedactions(text: string, spans: readonly SecretSpan[]): RedactionResult {
  const valid = spans
    .filter((span) => span.start >= 0 && span.end <= text.length && span.start < span.end)
    .sort((left, right) => left.start - right.start || right.end - left.end);
  if (valid.length === 0) return { text, findings: [] };

  const merged: SecretSpan[] = [];
  for (const span of valid) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start < last.end) {
      const winner = span.priority > last.priority ? span : last;
      merged[merged.length - 1] = {
        start: last.start,
        end: Math.max(last.end, span.end),
        kind: winner.kind,
        priority: winner.priority,
      };
    } else {
      merged.push(span);
    }
  }

  const parts: string[] = [];
  const counts = new Map<string, number>();
  let position = 0;
  for (const span of merged) {
    parts.push(text.slice(position, span.start), redactionMarker(span.kind));
    counts.set(span.kind, (counts.get(span.kind) ?? 0) + 1);
    position = span.end;
  }
  parts.push(text.slice(position));
  return { text: parts.join(''), findings: findingsOf(counts) };
}

/** The findings of several redactions of one text, counted per kind. */
export function addFindings(...lists: readonly (readonly RedactionFinding[])[]): RedactionFinding[] {
  const counts = new Map<string, number>();
  for (const finding of lists.flat()) counts.set(finding.kind, (counts.get(finding.kind) ?? 0) + finding.count);
  return findingsOf(counts);
}

/** One finding per kind, sorted by kind (the order `RedactionResult` promises). */
function findingsOf(counts: ReadonlyMap<string, number>): RedactionFinding[] {
  return [...counts]
    .map(([kind, count]) => ({ kind, count }))
    .sort((left, right) => (left.kind < right.kind ? -1 : left.kind > right.kind ? 1 : 0));
}
