// Unknown keys in a config file are errors, never silently ignored: a misspelt `endpiont` would
// otherwise leave the endpoint at its default without a word. Each problem names the file, the key
// (as a dotted path) and the nearest valid key.

/** The keys a config object may hold; a nested object has its own tree, a leaf is `null`. */
export interface KeyTree {
  readonly [key: string]: KeyTree | null;
}

/** Names people bring from elsewhere (VS Code's settings), mapped to the config file's key. */
const KNOWN_ALIASES: Readonly<Record<string, string>> = { serverKind: 'server' };

/** One problem per unknown key at any depth of `raw`, each naming `origin` and the nearest valid key. */
export function unknownKeyProblems(raw: Record<string, unknown>, tree: KeyTree, origin: string): string[] {
  return unknownKeys(raw, tree).map(({ key, hint }) => `${origin}: unknown key \`${key}\`; ${hint}`);
}

/** An unknown key (dotted path), its parts, and the hint naming the nearest valid key. */
export interface UnknownKey {
  readonly key: string;
  readonly path: readonly string[];
  /** `did you mean \`endpoint\`?`, or the valid keys at its place. */
  readonly hint: string;
}

/** Every unknown key at any depth of `raw`. */
export function unknownKeys(raw: Record<string, unknown>, tree: KeyTree): UnknownKey[] {
  const known = leafAndObjectPaths(tree);
  const problems: UnknownKey[] = [];
  const visit = (value: Record<string, unknown>, node: KeyTree, prefix: readonly string[]): void => {
    for (const [key, child] of Object.entries(value)) {
      const keyPath = [...prefix, key];
      if (!Object.hasOwn(node, key)) {
        problems.push({ key: keyPath.join('.'), path: keyPath, hint: suggestion(keyPath, known, Object.keys(node)) });
        continue;
      }
      const childTree = node[key];
      if (childTree !== null && childTree !== undefined && child !== null && typeof child === 'object' && !Array.isArray(child)) {
        visit(child as Record<string, unknown>, childTree, keyPath);
      }
    }
  };
  visit(raw, tree, []);
  return problems;
}

function suggestion(keyPath: readonly string[], known: readonly string[], siblings: readonly string[]): string {
  const nearest = nearestKey(keyPath, known);
  if (nearest !== undefined) return `did you mean \`${nearest}\`?`;
  return `valid keys here are ${siblings.map((key) => `\`${[...keyPath.slice(0, -1), key].join('.')}\``).join(', ')}`;
}

/**
 * The valid dotted key nearest to `keyPath` by edit distance: on the whole path, or on its last
 * part when the key sits at the wrong depth (`maxFacts` → `recall.maxFacts`). `undefined` when
 * nothing is close enough to be a plausible typo.
 */
export function nearestKey(keyPath: readonly string[], known: readonly string[]): string | undefined {
  const leaf = keyPath[keyPath.length - 1] ?? '';
  const alias = KNOWN_ALIASES[leaf];
  const full = keyPath.join('.');
  const parent = keyPath.slice(0, -1).join('.');
  if (alias !== undefined && known.includes([...keyPath.slice(0, -1), alias].join('.'))) return [...keyPath.slice(0, -1), alias].join('.');
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const split = candidate.lastIndexOf('.');
    const candidateLeaf = candidate.slice(split + 1);
    const sameParent = (split < 0 ? '' : candidate.slice(0, split)) === parent;
    // Case slips (`EndPoint`) count as one edit, not one per letter.
    const caseOnly = candidate.toLowerCase() === full.toLowerCase() ? 1 : Number.POSITIVE_INFINITY;
    // A shortened name (`backfill` for `backfillTurns`) is one slip, not one per missing letter.
    const shortened = sameParent && leaf.length >= 4 && candidateLeaf.toLowerCase().startsWith(leaf.toLowerCase()) ? 2 : Number.POSITIVE_INFINITY;
    const distance = Math.min(caseOnly, shortened, levenshtein(full, candidate), levenshtein(leaf, candidateLeaf) + (sameParent ? 0 : 1));
    if (best === undefined || distance < best.distance) best = { key: candidate, distance };
  }
  if (best === undefined) return undefined;
  const allowed = Math.max(2, Math.floor(leaf.length / 3));
  return best.distance <= allowed ? best.key : undefined;
}

function leafAndObjectPaths(tree: KeyTree, prefix = ''): string[] {
  const paths: string[] = [];
  for (const [key, child] of Object.entries(tree)) {
    const keyPath = prefix === '' ? key : `${prefix}.${key}`;
    paths.push(keyPath);
    if (child !== null) paths.push(...leafAndObjectPaths(child, keyPath));
  }
  return paths;
}

/** Edit distance (insertions, deletions, substitutions), two rows at a time. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
