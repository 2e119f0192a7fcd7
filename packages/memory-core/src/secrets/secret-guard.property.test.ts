import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSecretCorpus } from '../../test-support/secret-corpus/secret-corpus.js';
import { SecretlintSecretGuard } from './secretlint-secret-guard.js';

const guard = new SecretlintSecretGuard();
const corpus = buildSecretCorpus();

// Fragments that look like parts of secrets, code and markers, to stress the rules' edges.
const fragment = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    'password', 'token', 'api_key', '=', ': ', '"', "'", '\n', ' ', 'Bearer ', 'ghp_', 'AKIA', 'sk-', 'eyJ', '.',
    '-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----', '-----BEGIN CERTIFICATE-----', 'https://',
    'postgres://', 'u:p@', '@', '[REDACTED:secret]', 'sha512-', '${', '}', '...', 'AccountKey=', '--password ',
  ),
  fc.stringMatching(/^[A-Za-z0-9+/]{20,60}$/),
);
const soup = fc.array(fragment, { maxLength: 25 }).map((parts) => parts.join(''));

describe('SecretlintSecretGuard properties', () => {
  it('never rejects and is idempotent on arbitrary text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(soup, fc.string({ unit: 'binary', maxLength: 200 })), async (text) => {
        const once = await guard.redact(text);
        expect(typeof once.text).toBe('string');
        const twice = await guard.redact(once.text);
        expect(twice.text).toBe(once.text);
      }),
      { numRuns: 1000 },
    );
  });

  it('redacts a corpus secret wherever it is pasted between other lines', async () => {
    const line = fc.string({ maxLength: 40 }).map((value) => value.replace(/[\r\n]/g, ' '));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...corpus), line, line, async (sample, before, after) => {
        const result = await guard.redact(`${before}\n${sample.text}\n${after}`);
        for (const secret of sample.secrets) expect(result.text).not.toContain(secret);
      }),
      { numRuns: 150 },
    );
  });
});
