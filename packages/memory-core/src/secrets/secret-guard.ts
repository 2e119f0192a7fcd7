// The secret guard's contract. Everything memory sends (turns, promotions, imported transcripts)
// passes through `redact` first; a directive whose text contained a secret is not promoted.

/** How many secrets of one kind were replaced. Content-free: no values, no positions. */
export interface RedactionFinding {
  /** The marker kind, e.g. `github-token`, `private-key`, `high-entropy`. */
  readonly kind: string;
  readonly count: number;
}

export interface RedactionResult {
  /** The text with every secret replaced by `[REDACTED:<kind>]`; the input itself when nothing was found. */
  readonly text: string;
  /** One entry per kind found, sorted by kind; empty when nothing was redacted. */
  readonly findings: readonly RedactionFinding[];
}

/**
 * Replaces credentials, tokens, private keys and connection strings in text with typed markers
 * (`[REDACTED:github-token]`). Fails closed: a broken detector never lets text through unscanned.
 */
export interface SecretGuard {
  redact(text: string): Promise<RedactionResult>;
}
export const SecretGuard = Symbol.for('graphiti-memory.SecretGuard');

/** A detected secret: the half-open span `[start, end)` of the text to replace. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
  readonly kind: string;
  /** Higher wins the marker kind when spans overlap: a specific rule beats a generic one. */
  readonly priority: number;
}

/** Priorities of the detectors, highest first. */
export const SPAN_PRIORITY = {
  provider: 4,
  structure: 3,
  assignment: 2,
  entropy: 1,
} as const;

/** The marker that replaces a secret of `kind`. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}
