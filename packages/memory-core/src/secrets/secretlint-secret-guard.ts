// The secret guard memory uses: secretlint's recommended preset plus this package's own rules
// (provider tokens, structural secrets, secret assignments, high-entropy tokens). Every detector
// runs on every text and their findings are merged, so a secret any one of them knows is replaced.
import { injectable } from 'inversify';
import { findSecretAssignments } from './assignment-rule.js';
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
    ...findHighEntropyTokens(text),
  ];
}

/**
 * Redacts with secretlint's recommended rules, this package's rules and an entropy check.
 * Fails closed: when secretlint cannot load or throws, the own rules still run; if those fail
 * too, the whole text is replaced by `[REDACTED:unscanned]`. Never rejects.
 */
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
    let result = await this.redactOnce(text);
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
      return applyRedactions(text, [...librarySpans, ...findSecretsWithOwnRules(text)]);
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
