/**
 * The secret guard: nothing leaves the machine before it has run.
 *
 * `SecretlintSecretGuard.redact(text)` replaces credentials, tokens, private keys and connection
 * strings with typed markers such as `[REDACTED:github-token]`, `[REDACTED:private-key]`,
 * `[REDACTED:connection-string]`, `[REDACTED:password]` or `[REDACTED:high-entropy]`, and returns
 * content-free counts per kind. Detectors, all run on every text and merged:
 * - secretlint's recommended preset (`@secretlint/secretlint-rule-preset-recommend`), loaded lazily
 *   (`secretlint-disable` comments in the text are ignored);
 * - provider token shapes (58 rules: AWS, GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic, …);
 * - structure: PEM private keys, URLs with passwords, `Bearer`/`Authorization` values, JWTs,
 *   `--password …` and `curl -u user:pass` arguments;
 * - values assigned to secret-sounding names (`DB_PASSWORD=…`, `"apiKey": "…"`, `?token=…`);
 * - high-entropy tokens (32+ random characters). Hex strings (commit ids, digests, UUIDs),
 *   integrity hashes, SSH public keys, certificates and URL paths are left alone by design.
 * Fails closed: if secretlint fails the own rules still run; if those fail, the whole text becomes
 * `[REDACTED:unscanned]`. `redact` never rejects. Redaction is idempotent.
 */
export { SecretGuard, type RedactionFinding, type RedactionResult } from './secret-guard.js';
export { containsSecret, SecretlintSecretGuard, UNSCANNED_KIND } from './secretlint-secret-guard.js';
