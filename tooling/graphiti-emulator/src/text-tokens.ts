// Word handling shared by the stand-in extraction and the lexical search.

const WORD_PATTERN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by do does did for from had has have he her his i if in into is it its ' +
    'me my of on or our she so than that the their them then there these they this those to too us was we ' +
    'were what when where which who will with would you your user assistant system'
  ).split(' '),
);

/** Words as written (case kept), apostrophes inside words kept (`don't`). */
export function words(text: string): string[] {
  return text.match(WORD_PATTERN) ?? [];
}

/** Lowercased words without stop words: the terms search scores on. */
export function searchTerms(text: string): string[] {
  return words(text)
    .map((word) => word.toLowerCase())
    .filter((word) => !STOP_WORDS.has(word));
}
