// Memory directives: lines of a user message that ask for something to be remembered, such as
// `preference: use pnpm` or `decision (workspace): adopt zod`. Deliberately strict, because a
// false positive writes a wrong long-lived memory: the keyword must open a line (after optional
// indentation, `>` quote markers and one list bullet), and fenced code blocks are ignored.
// `my preference: …` or `… and the decision: …` inside a sentence are not directives.
import { type PromotionKind, type PromotionScope } from '../promotion/episode-format.js';

export interface MemoryDirective {
  readonly kind: PromotionKind;
  /** The scope asked for; `workspace` when none or an unknown one was given. */
  readonly scope: PromotionScope;
  /** The text after the colon, trimmed; never empty. */
  readonly text: string;
  /** Whether the line named the scope (`(workspace)`, `(user)`, `(team)` or an alias). */
  readonly scopeWasExplicit: boolean;
}

// Keyword spellings → kind. Separators between words may be a space, `_` or `-`.
const KEYWORD_KINDS: ReadonlyArray<readonly [RegExp, PromotionKind]> = [
  [/^preference$/i, 'preference'],
  [/^decision$/i, 'decision'],
  [/^terminology$/i, 'terminology'],
  [/^lessons?[ _-]learned$/i, 'lesson_learned'],
  [/^procedure$/i, 'procedure'],
  [/^task[ _-]update$/i, 'task_update'],
];

const SCOPE_ALIASES: ReadonlyMap<string, PromotionScope> = new Map([
  ['workspace', 'workspace'],
  ['project', 'workspace'],
  ['repo', 'workspace'],
  ['user', 'user'],
  ['personal', 'user'],
  ['me', 'user'],
  // Shared with the team: taken only with the user's consent to the team scope (the promotion checks it).
  ['team', 'team'],
]);

// After the line prefix: the keyword, an optional parenthesised scope, a colon, the text. No two
// adjacent unbounded whitespace runs, so a long line cannot make the match backtrack.
const DIRECTIVE_BODY =
  /^(preference|decision|terminology|lessons?[ _-]learned|procedure|task[ _-]update)[ \t]*(?:\(([^()\n]*)\)[ \t]*)?:(.*)$/i;

const FENCE_OPEN = /^[ ]{0,3}(?:>[ \t]?)*[ ]{0,3}(`{3,}|~{3,})(.*)$/;

/**
 * Finds the memory directives of a user message, in order. Never throws; returns `[]` for text
 * without directives. Only the rest of the directive's own line is its text.
 */
export function parseDirectives(text: string): MemoryDirective[] {
  const directives: MemoryDirective[] = [];
  for (const body of markedLines(text)) {
    const directive = parseDirectiveBody(body);
    if (directive) directives.push(directive);
  }
  return directives;
}

/**
 * The lines of `text` that may carry a marker (a directive, a loop's `TODO:`), each with its line
 * prefix (indentation, `>` quote markers, one list bullet) removed; fenced code blocks and
 * indented code lines are left out. Never throws.
 */
export function markedLines(text: string): string[] {
  if (typeof text !== 'string' || text === '') return [];
  const lines: string[] = [];
  let fence: { char: string; length: number } | undefined;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const fenceMatch = FENCE_OPEN.exec(line);
    if (fence) {
      // A closing fence: same character, at least as long, nothing but spaces after it.
      if (fenceMatch?.[1]?.[0] === fence.char && fenceMatch[1].length >= fence.length && fenceMatch[2]?.trim() === '') {
        fence = undefined;
      }
      continue;
    }
    if (fenceMatch?.[1] !== undefined) {
      // Backtick fences may not have a backtick in their info string (CommonMark).
      if (!(fenceMatch[1][0] === '`' && fenceMatch[2]?.includes('`'))) {
        fence = { char: fenceMatch[1][0] ?? '`', length: fenceMatch[1].length };
        continue;
      }
    }
    const body = stripLinePrefix(line);
    if (body !== undefined) lines.push(body);
  }
  return lines;
}

function parseDirectiveBody(body: string): MemoryDirective | undefined {
  const match = DIRECTIVE_BODY.exec(body);
  if (!match) return undefined;
  const [, keyword = '', scopeText, rest = ''] = match;
  const kind = KEYWORD_KINDS.find(([pattern]) => pattern.test(keyword))?.[1];
  const directiveText = rest.trim();
  if (kind === undefined || directiveText === '') return undefined;
  const scope = scopeText === undefined ? undefined : SCOPE_ALIASES.get(scopeText.trim().toLowerCase());
  return { kind, scope: scope ?? 'workspace', text: directiveText, scopeWasExplicit: scope !== undefined };
}

/**
 * Skips indentation, `>` quote markers and one list bullet (`-`, `*`, `+`, `1.`, `1)`).
 * `undefined` for an indented code line: four or more columns of indentation and no bullet.
 */
function stripLinePrefix(line: string): string | undefined {
  let index = 0;
  let indentation = 0;
  while (line[index] === ' ' || line[index] === '\t') {
    indentation += line[index] === '\t' ? 4 : 1;
    index += 1;
  }
  for (;;) {
    if (line[index] === '>') {
      index += 1;
    } else if (line[index] === ' ' || line[index] === '\t') {
      index += 1;
    } else {
      break;
    }
  }
  const bullet = /^(?:[-*+]|\d{1,9}[.)])[ \t]+/.exec(line.slice(index, index + 16));
  if (bullet) {
    index += bullet[0].length;
    while (line[index] === ' ' || line[index] === '\t') index += 1;
  } else if (indentation > 3) {
    return undefined;
  }
  return line.slice(index);
}
