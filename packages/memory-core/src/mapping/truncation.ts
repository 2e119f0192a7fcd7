// Truncation keeps a message within `maxMessageChars` and says so in the text, so neither Graphiti
// nor a reader mistakes a cut message for the whole one.

/** The visible marker that ends a truncated text. */
export function truncationMarker(removed: number): string {
  return `… [truncated ${removed} characters]`;
}

const SEPARATOR = '\n';

/**
 * `text` unchanged when it fits in `maxChars` (UTF-16 code units), else its start followed by a
 * line with `… [truncated N characters]`, N being exactly the number of characters cut, the whole
 * at most `maxChars` long. A surrogate pair is never split. `maxChars` must leave room for the
 * marker (the settings allow 200 and more).
 */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const longestTail = SEPARATOR.length + truncationMarker(text.length).length;
  if (maxChars < longestTail) {
    throw new RangeError(
      `truncateText: maxChars ${maxChars} leaves no room for the truncation marker; use at least ${longestTail}.`,
    );
  }
  // The marker for the most characters that could be cut is the longest, so this always fits.
  let keep = maxChars - longestTail;
  // Fewer characters cut can mean a shorter count in the marker: use the room it frees.
  const tailLength = (kept: number): number => SEPARATOR.length + truncationMarker(text.length - kept).length;
  while (keep + 1 + tailLength(keep + 1) <= maxChars) keep += 1;
  const last = text.charCodeAt(keep - 1);
  if (keep > 0 && last >= 0xd800 && last <= 0xdbff) keep -= 1;
  return text.slice(0, keep) + SEPARATOR + truncationMarker(text.length - keep);
}
