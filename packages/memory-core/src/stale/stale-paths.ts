// Which words of a recalled fact look like workspace paths (`src/x.ts`, `packages/core/`,
// `./scripts/build.sh`): at least two segments, relative, no URL, no `..`. Bare file names are left
// alone (where they live is unknown); what is "of the workspace" the WorkspaceFiles port decides.

/** Paths checked per recall, over every fact: the check stays within a few milliseconds. */
export const MAX_STALE_CHECKS = 32;
/** Longer words are not taken for paths. */
const MAX_PATH_CHARS = 256;

const SEGMENT = String.raw`[\w@+-][\w@.+-]*`;
const PATH = new RegExp(String.raw`^(?:\./)?${SEGMENT}(?:/${SEGMENT})+/?$`, 'u');
// Quotes and brackets around a path, the guillemets and curly quotes as escapes: a bundle with one non-ASCII
// character is read into a two-byte string, and the hook reads its 1.4 MB core on every cold start.
const EDGES = /^[\s"'`([{<\u00ab\u201c\u2018*_]+|[\s"'`)\]}>\u00bb\u201d\u2019*_.,;:!?]+$/gu;

/** The path-like words of `text`, normalised (`./` and a trailing `/` dropped), each once, in order. */
export function pathsNamedIn(text: string): string[] {
  const found = new Set<string>();
  for (const word of text.split(/\s+/u)) {
    const candidate = word.replace(EDGES, '');
    if (candidate.length === 0 || candidate.length > MAX_PATH_CHARS || candidate.includes('://') || !PATH.test(candidate)) continue;
    const path = candidate.replace(/^\.\//u, '').replace(/\/$/u, '');
    if (path.split('/').some((segment) => segment === '..' || segment === '.' || /^\.+$/u.test(segment))) continue;
    found.add(path);
  }
  return [...found];
}
