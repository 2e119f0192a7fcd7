// The secret guard memory uses: secretlint's recommended preset plus this package's own rules
// (provider tokens, structural secrets, secret assignments, high-entropy tokens). Every detector
// runs on every text and their findings are merged, so a secret any one of them knows is replaced.
import { injectable } from 'inversify';
import { foldForReading, joinAcrossLineBreaks } from '../text/reading-text.js';
import { findPasswordsInWords, findSecretAssignments } from './assignment-rule.js';
import { findHighEntropyTokens } from './entropy-rule.js';
import { findProviderTokens } from './provider-token-rules.js';
import { addFindings, applyRedactions } from './redaction.js';
import { scanWithSecretlint } from './secretlint-scanner.js';
import { redactionMarker, type RedactionResult, type SecretGuard, type SecretSpan } from './secret-guard.js';
import { findAuthorizationTokens, findCommandLineSecrets, findCredentialUrls, findPrivateKeys } from './structure-rules.js';

/** Kind of the marker that replaces a whole text the guard could not scan. */
export const UNSCANNED_KIND = 'unscanned';

/** This package's own detectors, without secretlint. Exposed for tests and benchmarks. */
export function findSecretsWithOwnRules(text: string): SecretSpan[] {
  return [
    ...findProviderTokens(text),
    ...findPrivateKeys(text),
    ...findCredentialUrls(text),
    ...findAuthorizationTokens(text),
    ...findCommandLineSecrets(text),
    ...findSecretAssignments(text),
    ...findPasswordsInWords(text),
    ...findHighEntropyTokens(text),
  ];
}

/**
 * Provider tokens split over lines (`AKIA…` on one, the rest on the next): found in the text joined
 * across its line breaks, and kept only when they span one (the others are found in place). Only
 * the provider shapes: their prefixes and lengths make a chance match of two lines' ends unlikely.
 */
export function findTokensAcrossLineBreaks(text: string): SecretSpan[] {
  if (!text.includes('\n')) return [];
  const { joined, origins } = joinAcrossLineBreaks(text);
  // A token found whole on its line is not also the start of one that runs into the next line.
  const inPlace = findProviderTokens(text);
  const spans: SecretSpan[] = [];
  for (const span of findProviderTokens(joined)) {
    const start = origins[span.start];
    const last = origins[span.end - 1];
    if (start === undefined || last === undefined || last - start + 1 === span.end - span.start) continue;
    if (inPlace.some((found) => found.start <= last && start < found.end)) continue;
    spans.push({ ...span, start, end: last + 1 });
  }
  return spans;
}

// Replacing a secret changes what its neighbours look like (a token that ran into a PEM header
// ends at a marker instead), so a redacted text can hold something the guard would now find. The
// result is scanned again until nothing changes, which makes redaction idempotent and means stored
// text never holds anything the guard detects. Text with no secret, the common case, is scanned once.
const MAXIMUM_PASSES = 4;

/**
 * Redacts with secretlint's recommended rules, this package's rules and an entropy check.
 * Fails closed: when secretlint cannot load or throws, the own rules still run; if those fail
 * too, the whole text is replaced by `[REDACTED:unscanned]`. Never rejects.
 */
@injectable()
export class SecretlintSecretGuard implements SecretGuard {
  async redact(text: string): Promise<RedactionResult> {
    if (typeof text !== 'string' || text === '') return { text: typeof text === 'string' ? text : '', findings: [] };
    // The guard judges the text as it will be read (recall folds it the same way), so a key with a
    // zero-width space inside or in full-width letters is found. Text with no secret is kept as
    // typed; text with one goes out folded, with the secret replaced.
    const folded = foldForReading(text);
    let result = await this.redactOnce(folded);
    if (result.findings.length === 0) {
      if (folded === text) return { text, findings: [] };
      // Folding can also join what a rule needs apart; the text as typed is checked as well.
      result = await this.redactOnce(text);
      if (result.findings.length === 0) return { text, findings: [] };
    }
    for (let pass = 1; pass < MAXIMUM_PASSES && result.findings.length > 0; pass += 1) {
      const next = await this.redactOnce(result.text);
      if (next.text === result.text) break;
      result = { text: next.text, findings: addFindings(result.findings, next.findings) };
    }
    return result;
  }

  /** The secretlint pass; a seam so tests can prove the guard survives its failure. */
  protected scanWithLibrary(text: string): Promise<SecretSpan[]> {
    return scanWithSecretlint(text);
  }

  private async redactOnce(text: string): Promise<RedactionResult> {
    let librarySpans: SecretSpan[] = [];
    try {
      librarySpans = await this.scanWithLibrary(text);
    } catch {
      // secretlint failed to load or run: the own rules below still cover every format it knows.
    }
    try {
      return applyRedactions(text, [...librarySpans, ...findSecretsWithOwnRules(text), ...findTokensAcrossLineBreaks(text)]);
    } catch {
      return { text: redactionMarker(UNSCANNED_KIND), findings: [{ kind: UNSCANNED_KIND, count: 1 }] };
    }
  }
}

let sharedGuard: SecretGuard | undefined;

/** Whether `text` holds anything the guard would redact (by default with a shared `SecretlintSecretGuard`). */
export async function containsSecret(text: string, guard?: SecretGuard): Promise<boolean> {
  const scanner = guard ?? (sharedGuard ??= new SecretlintSecretGuard());
  return (await scanner.redact(text)).findings.length > 0;
}
