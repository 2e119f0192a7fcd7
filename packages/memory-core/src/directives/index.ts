/**
 * Memory directives: lines in a user message that ask for something to be remembered.
 *
 * `parseDirectives(text)` finds lines that open with a promotion keyword and a colon —
 * `preference: use pnpm`, `decision (workspace): adopt zod`, `terminology (user): "ADR" means …`,
 * `lesson learned:` / `lesson_learned:`, `procedure:`, `task update:` — case-insensitively, after
 * optional indentation, `>` quote markers and one list bullet. Scope aliases: `workspace`,
 * `project`, `repo` → workspace; `user`, `personal`, `me` → user; none or anything else →
 * workspace with `scopeWasExplicit: false`. Lines inside fenced code blocks, indented code lines and
 * keywords in the middle of a sentence (`my preference: …`) are not directives. The text is the
 * rest of the line. Callers must run the secret guard on directives before promoting them.
 */
export { parseDirectives, type MemoryDirective } from './directive-parser.js';
