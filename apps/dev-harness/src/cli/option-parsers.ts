// Parsers for option values. Each throws a UsageError (exit code 2) that names the option, the
// value it got and what it accepts, so a typo is fixed from the message alone.
import { CAPTURE_GRANULARITIES, type CaptureGranularity } from '@graphiti-memory/memory-core';
import { UsageError } from './harness-errors.js';

export type HarnessScope = 'session' | 'workspace' | 'user' | 'team';
/** `team`: the repository's shared scope (promoted memories only; needs `team enable`). */
export const HARNESS_SCOPES: readonly HarnessScope[] = ['session', 'workspace', 'user', 'team'];

/** `mirror`: the structured mirror's group, searched only when named (`recall --scopes mirror`). */
export type ListedScope = HarnessScope | 'mirror';
export const LISTED_SCOPES: readonly ListedScope[] = [...HARNESS_SCOPES, 'mirror'];

/** `--scopes`: a comma-separated list of scopes, or `auto` / `all` (recall only picks per query). */
export type ScopeSelection = { readonly kind: 'list'; readonly scopes: readonly ListedScope[] } | { readonly kind: 'auto' } | { readonly kind: 'all' };

export const TRANSCRIPT_FORMAT_CHOICES = ['auto', 'claude-code', 'vscode-chat', 'jsonl'] as const;
export type TranscriptFormatChoice = (typeof TRANSCRIPT_FORMAT_CHOICES)[number];

function describe(value: string): string {
  return JSON.stringify(value);
}

/** `--scopes session,workspace` → the listed scopes in the fixed order session, workspace, user, team. */
export function parseScopeSelection(value: string, option = '--scopes'): ScopeSelection {
  const items = value
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '');
  if (items.length === 1 && (items[0] === 'auto' || items[0] === 'all')) return { kind: items[0] };
  if (items.length === 0) {
    throw new UsageError(`${option} needs at least one scope: a comma-separated list of ${HARNESS_SCOPES.join(', ')} (or "auto" / "all").`);
  }
  const unknown = items.filter((item) => !(LISTED_SCOPES as readonly string[]).includes(item));
  if (unknown.length > 0) {
    throw new UsageError(
      `${option} ${describe(value)}: unknown scope ${unknown.map(describe).join(', ')}; use a comma-separated list of ${LISTED_SCOPES.join(', ')} (or "auto" / "all").`,
    );
  }
  return { kind: 'list', scopes: LISTED_SCOPES.filter((scope) => items.includes(scope)) };
}

/** One scope (`--scope`), restricted to `allowed`. */
export function parseScope<const T extends HarnessScope>(value: string, allowed: readonly T[], option = '--scope'): T {
  const normalized = value.trim().toLowerCase();
  const match = allowed.find((scope) => scope === normalized);
  if (match === undefined) throw new UsageError(`${option} ${describe(value)} is not a scope here; use one of ${allowed.join(', ')}.`);
  return match;
}

/** A whole number within bounds (`--last`, `--timeout-ms`, `--max-facts`). */
export function parseInteger(value: string, option: string, bounds: { min: number; max: number }): number {
  const trimmed = value.trim();
  const number = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < bounds.min || number > bounds.max) {
    throw new UsageError(`${option} ${describe(value)} is not valid; use a whole number from ${bounds.min} to ${bounds.max}.`);
  }
  return number;
}

/** A duration in seconds, fractions allowed (`--wait 0.5`, `--idle 300`). */
export function parseSeconds(value: string, option: string, bounds: { min: number; max: number } = { min: 0, max: 86_400 }): number {
  const trimmed = value.trim();
  const number = /^\d+(?:\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!Number.isFinite(number) || number < bounds.min || number > bounds.max) {
    throw new UsageError(`${option} ${describe(value)} is not valid; use a number of seconds from ${bounds.min} to ${bounds.max}.`);
  }
  return number;
}

/** `--endpoint`: an absolute http(s) URL, normalised without a trailing slash. */
export function parseEndpoint(value: string, option = '--endpoint'): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new UsageError(`${option} ${describe(value)} is not a URL; write it like http://localhost:8000.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${option} ${describe(value)} must use http or https, like http://localhost:8000.`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError(`${option} ${describe(value)} must not have a query or fragment; give the service's base URL.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(`${option} must not contain credentials; pass the key with --api-key or GRAPHITI_API_KEY.`);
  }
  return url.href.replace(/\/+$/, '');
}

export function parseTranscriptFormat(value: string, option = '--format'): TranscriptFormatChoice {
  const normalized = value.trim().toLowerCase();
  const match = TRANSCRIPT_FORMAT_CHOICES.find((format) => format === normalized);
  if (match === undefined) {
    throw new UsageError(`${option} ${describe(value)} is not a transcript format; use one of ${TRANSCRIPT_FORMAT_CHOICES.join(', ')}.`);
  }
  return match;
}

/** A non-empty identifier such as `--session`: printable, no surrounding spaces, at most 200 characters. */
export function parseIdentifier(value: string, option: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 200 || /\p{Cc}/u.test(trimmed)) {
    throw new UsageError(`${option} ${describe(value)} is not valid; use 1 to 200 printable characters.`);
  }
  return trimmed;
}

/** A non-empty free text argument (a query, a memory to promote). */
export function parseText(value: string, name: string): string {
  if (value.trim() === '') throw new UsageError(`${name} is empty; give the text in quotes, e.g. "we use pnpm".`);
  return value;
}

/** `--granularity`: one of `capture.granularity`'s values. */
export function parseGranularity(value: string | undefined): CaptureGranularity | undefined {
  if (value === undefined) return undefined;
  const found = CAPTURE_GRANULARITIES.find((candidate) => candidate === value);
  if (found === undefined) throw new UsageError(`--granularity ${describe(value)} is not one of ${CAPTURE_GRANULARITIES.join(', ')}; use session (digests) or turn (one episode per message).`);
  return found;
}
