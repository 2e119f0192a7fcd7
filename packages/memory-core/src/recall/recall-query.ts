// The search query a recall sends for a prompt: a bounded slice of it, whatever the prompt's size.
// A pasted log or file of megabytes would otherwise go whole to every scope's search (uploaded once
// per scope, and far past the recall deadline); its start says what is asked, its end usually holds
// the question. So: the first RECALL_QUERY_HEAD_CHARS characters, a marker, the last
// RECALL_QUERY_TAIL_CHARS. Every tool's recall goes through the recall service, which applies it, so
// the hooks, `@memory` and the CLI send the same query for the same prompt.

/** Characters of a long prompt's start that a recall query keeps. */
export const RECALL_QUERY_HEAD_CHARS = 2_048;
/** Characters of a long prompt's end that a recall query keeps. */
export const RECALL_QUERY_TAIL_CHARS = 1_024;
/** Stands for the middle a long prompt's query leaves out. */
export const RECALL_QUERY_GAP_MARKER = '\n[…]\n';
/** The longest query a recall sends, in characters (head + marker + tail). */
export const MAX_RECALL_QUERY_CHARS = RECALL_QUERY_HEAD_CHARS + RECALL_QUERY_GAP_MARKER.length + RECALL_QUERY_TAIL_CHARS;

/**
 * The query a recall sends for `prompt`: the prompt itself (trimmed) when it fits, else its first
 * 2,048 and last 1,024 characters joined by `[…]` on a line of its own. Never splits a surrogate
 * pair. Cheap on any size: only the two ends are read.
 */
export function recallQueryOf(prompt: string): string {
  const text = prompt.trim();
  if (text.length <= MAX_RECALL_QUERY_CHARS) return text;
  const head = withoutBrokenPair(text.slice(0, RECALL_QUERY_HEAD_CHARS), 'end');
  const tail = withoutBrokenPair(text.slice(text.length - RECALL_QUERY_TAIL_CHARS), 'start');
  return `${head.trimEnd()}${RECALL_QUERY_GAP_MARKER}${tail.trimStart()}`;
}

/** `slice` without the half of a surrogate pair the cut left at its `side`. */
function withoutBrokenPair(slice: string, side: 'start' | 'end'): string {
  if (side === 'end') {
    const last = slice.charCodeAt(slice.length - 1);
    return last >= 0xd800 && last <= 0xdbff ? slice.slice(0, -1) : slice;
  }
  const first = slice.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? slice.slice(1) : slice;
}
