// What a reader (a model, a terminal, a person) takes from a text is not what its code points say:
// full-width letters read as ASCII, zero-width characters are not seen, a Cyrillic `а` reads as `a`.
// The secret guard checks the text as it will be read and recall shows it that way, so both use the
// one folding here. No runtime imports: prompt-elements and the apps load this module directly.

// Invisible characters: format characters (Cf: zero-width space/joiners, soft hyphen, bidi controls,
// BOM, tag characters) and the blanks NFKC keeps (combining grapheme joiner, variation selectors,
// Hangul fillers, braille blank). A reader does not see them, so they can hide a secret or a tag.
// eslint-disable-next-line no-misleading-character-class -- the marks are listed to be removed, not combined
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0]|\udb40[\udd00-\uddef]/gu;
// Control characters (C0 and C1: ESC, BEL, the 8-bit CSI …) except newline and tab.
const CONTROL = /[^\P{Cc}\n\t]/gu;
// Terminal escape sequences as a whole, so no `[2J` is left behind: CSI (ESC [ or 8-bit 0x9b) with
// its parameters, OSC/DCS/APC/PM/SOS strings up to BEL or ST (or the end), and two-character escapes.
const ESCAPE_SEQUENCE =
  // eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/gu;

/**
 * The text as it will be read: look-alikes folded (NFKC: full-width, ligatures, mathematical letters)
 * and invisible characters removed. Line breaks are kept. What the secret guard scans, and the first
 * step of what recall shows.
 */
export function foldForReading(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

/**
 * `text` folded for reading with every line break (and the blanks around it) removed, and for each
 * character of the result its index in `text`: a secret split over two lines is found whole.
 */
export function joinAcrossLineBreaks(text: string): { readonly joined: string; readonly origins: readonly number[] } {
  const origins: number[] = [];
  let joined = '';
  const pattern = /[ \t]*\r?\n[ \t]*/g;
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    for (let index = from; index < match.index; index += 1) origins.push(index);
    joined += text.slice(from, match.index);
    from = match.index + match[0].length;
  }
  for (let index = from; index < text.length; index += 1) origins.push(index);
  joined += text.slice(from);
  return { joined, origins };
}

// Letters that read as the Latin letters of the block tags (`graphiti_memory`, `graphiti_episode`):
// Cyrillic, Greek, Armenian and small capitals. Each maps one UTF-16 unit to one, keeping positions.
const CONFUSABLES: Readonly<Record<string, string>> = {
  а: 'a', А: 'a', α: 'a', Α: 'a', ᴀ: 'a', ɑ: 'a',
  в: 'b', В: 'b', β: 'b', Β: 'b', ʙ: 'b',
  с: 'c', С: 'c', ϲ: 'c', Ϲ: 'c', ᴄ: 'c',
  ԁ: 'd', ᴅ: 'd',
  е: 'e', Е: 'e', ё: 'e', Ё: 'e', ε: 'e', Ε: 'e', ᴇ: 'e', ҽ: 'e',
  ɡ: 'g', ɢ: 'g', ց: 'g', ԍ: 'g',
  һ: 'h', Һ: 'h', н: 'h', Н: 'h', Η: 'h', ʜ: 'h', հ: 'h',
  і: 'i', І: 'i', ї: 'i', Ї: 'i', ι: 'i', Ι: 'i', ɪ: 'i', ı: 'i', ɩ: 'i', ӏ: 'i', Ӏ: 'i', l: 'i', '|': 'i', '1': 'i',
  ј: 'j', Ј: 'j',
  к: 'k', К: 'k', κ: 'k', Κ: 'k', ᴋ: 'k',
  м: 'm', М: 'm', μ: 'm', Μ: 'm', ᴍ: 'm',
  п: 'n', η: 'n', ո: 'n', ɴ: 'n', Ν: 'n',
  о: 'o', О: 'o', ο: 'o', Ο: 'o', σ: 'o', օ: 'o', ᴏ: 'o', '0': 'o',
  р: 'p', Р: 'p', ρ: 'p', Ρ: 'p', ᴘ: 'p',
  г: 'r', ʀ: 'r', ᴦ: 'r',
  ѕ: 's', Ѕ: 's', ꜱ: 's',
  т: 't', Т: 't', τ: 't', Τ: 't', ᴛ: 't',
  у: 'y', У: 'y', ү: 'y', Ү: 'y', γ: 'y', υ: 'y', Υ: 'y', ʏ: 'y',
  х: 'x', Х: 'x', χ: 'x', Χ: 'x',
};

/** `text` with each character replaced by the lower-case Latin letter it reads as (same length). */
function tagSkeleton(text: string): string {
  let skeleton = '';
  for (let index = 0; index < text.length; index += 1) {
    const unit = text[index] ?? '';
    const mapped = CONFUSABLES[unit];
    if (mapped !== undefined) skeleton += mapped;
    else {
      const lower = unit.toLowerCase();
      skeleton += lower.length === 1 ? lower : unit;
    }
  }
  return skeleton;
}

// `<` and what reads as it once NFKC has folded full-width `＜` and small `﹤`: angle brackets,
// arrowheads, ornaments, the single guillemet, Canadian syllabics.
const OPENERS = '<\u2039\u2329\u3008\u27e8\u27ea\u02c2\u276e\u276c\u29fc\u1438\u00ab\u227a\u2264';
/** Between two letters of a tag name: anything not a letter or digit, a few at most (`g r a p h`). */
const GAP = '[^\\p{L}\\p{N}]{0,3}';
const spelled = (word: string): string => [...word].join(GAP);
// An opener, optional blanks and slashes, `graphiti`, any separator (`_`, `.`, `-`, spaces),
// `memory` or `episode`: every opening or closing of a block, on the skeleton of the text.
const BLOCK_TAG = new RegExp(
  `[${OPENERS}](?=[\\s/\\\\\u2044\u2215\u29f8]{0,8}${spelled('graphiti')}[^\\p{L}\\p{N}]{0,8}(?:${spelled('memory')}|${spelled('episode')}))`,
  'gu',
);

/** Every opener of a memory block or episode tag, however spelled, turned into `‹`: it can neither close nor open a block. */
export function neutraliseBlockTags(text: string): string {
  const skeleton = tagSkeleton(text);
  let result = '';
  let from = 0;
  for (const match of skeleton.matchAll(BLOCK_TAG)) {
    result += `${text.slice(from, match.index)}‹`;
    from = match.index + match[0].length;
  }
  return from === 0 ? text : result + text.slice(from);
}

/**
 * The one sanitiser for text from a server or a user that is shown or injected: terminal escape
 * sequences and control characters (C0, C1) removed, look-alikes folded and invisible characters
 * (zero-width, bidi) removed, and every look-alike of a memory block tag neutralised. Lines are kept;
 * callers that need one line collapse whitespace themselves.
 */
export function sanitiseReadableText(text: string): string {
  return neutraliseBlockTags(foldForReading(text.replace(ESCAPE_SEQUENCE, '')).replace(CONTROL, ''));
}

/** `sanitiseReadableText` on one line: every run of whitespace becomes one space. */
export function sanitiseReadableLine(text: string): string {
  return sanitiseReadableText(text).replace(/\s+/g, ' ').trim();
}
