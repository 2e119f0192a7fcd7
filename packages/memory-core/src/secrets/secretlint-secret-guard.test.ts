import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { buildOrdinaryCorpus } from '../../test-support/secret-corpus/ordinary-corpus.js';
import { buildSecretCorpus } from '../../test-support/secret-corpus/secret-corpus.js';
import { FakeValues } from '../../test-support/secret-corpus/fake-values.js';
import { containsSecret, SecretGuard, SecretlintSecretGuard } from './index.js';
import type { SecretSpan } from './secret-guard.js';
import { findSecretsWithOwnRules } from './secretlint-secret-guard.js';
import { foldForReading, joinAcrossLineBreaks } from '../text/reading-text.js';

const secretCorpus = buildSecretCorpus();
const ordinaryCorpus = buildOrdinaryCorpus();

/** Every 12-character window of a secret: a partial leak fails too. */
function windows(secret: string, size = 12): string[] {
  if (secret.length <= size) return [secret];
  return Array.from({ length: secret.length - size + 1 }, (_, index) => secret.slice(index, index + size));
}

/** What a reader takes from a text: folded (as recall folds it) and joined across its line breaks. */
function asRead(text: string): string {
  return joinAcrossLineBreaks(foldForReading(text)).joined;
}

function expectFullyRedacted(output: string, secrets: readonly string[]): void {
  for (const secret of secrets) {
    for (const window of windows(secret)) expect(output).not.toContain(window);
    // Nor as it will be read: a key with a zero-width space inside must not come back whole.
    for (const window of windows(asRead(secret))) expect(asRead(output)).not.toContain(window);
  }
}

class BrokenSecretlintGuard extends SecretlintSecretGuard {
  protected override scanWithLibrary(): Promise<SecretSpan[]> {
    return Promise.reject(new Error('secretlint exploded'));
  }
}

describe('SecretlintSecretGuard on the secret corpus', () => {
  const guard = new SecretlintSecretGuard();

  it('holds at least 40 distinct formats', () => {
    expect(new Set(secretCorpus.map((sample) => sample.format)).size).toBe(secretCorpus.length);
    expect(secretCorpus.length).toBeGreaterThanOrEqual(40);
  });

  it.each(secretCorpus.map((sample) => [sample.format, sample] as const))('redacts %s completely', async (_format, sample) => {
    for (const secret of sample.secrets) expect(sample.text).toContain(secret);
    const result = await guard.redact(sample.text);
    expectFullyRedacted(result.text, sample.secrets);
    expect(result.text).toContain(`[REDACTED:${sample.kind}]`);
    expect(result.findings.length).toBeGreaterThan(0);
    // Findings are content-free: kinds and counts only.
    for (const finding of result.findings) {
      expect(Object.keys(finding).sort()).toEqual(['count', 'kind']);
      expect(sample.secrets.some((secret) => secret.includes(finding.kind))).toBe(false);
    }
  });

  it('is idempotent: redacting a redacted text changes nothing', async () => {
    for (const sample of secretCorpus) {
      const once = await guard.redact(sample.text);
      const twice = await guard.redact(once.text);
      expect(twice.text, sample.format).toBe(once.text);
      expect(twice.findings, sample.format).toEqual([]);
    }
  });

  it('rescans what a redaction uncovers, so one call is as good as two', async () => {
    // Found by the property test: the token runs into the PEM header and, with the header's
    // words, does not look random; once the key is replaced it stands alone and does.
    const token = 'Jsha512-gac1Y/MfvEnp/+z++JB/+aR//9YP//ZJ35Z4';
    const text = `p0+i;5a<(h/C7+rO/W51jr0+//T++q+SWWa14+/+1++0R/U/+0++11<^*${token}//-----BEGIN RSA PRIVATE KEY-----A_msk7wD;`;
    const result = await guard.redact(text);
    expect(result.text).not.toContain(token);
    expect(result.findings.map((finding) => finding.kind)).toEqual(['high-entropy', 'private-key']);
    expect((await guard.redact(result.text)).text).toBe(result.text);
  });

  it('redacts everything with its own rules alone when secretlint fails (fail closed)', async () => {
    const broken = new BrokenSecretlintGuard();
    for (const sample of secretCorpus) {
      const result = await broken.redact(sample.text);
      expectFullyRedacted(result.text, sample.secrets);
    }
  });

  it('redacts every sample when they are all pasted into one message', async () => {
    const message = secretCorpus.map((sample) => sample.text).join('\n\n');
    const result = await guard.redact(message);
    expectFullyRedacted(
      result.text,
      secretCorpus.flatMap((sample) => sample.secrets),
    );
  });
});

describe('SecretlintSecretGuard on ordinary text', () => {
  const guard = new SecretlintSecretGuard();

  it.each(ordinaryCorpus.map((sample) => [sample.name, sample.text] as const))('leaves %s unchanged', async (_name, text) => {
    const result = await guard.redact(text);
    expect(result.text).toBe(text);
    expect(result.findings).toEqual([]);
  });

  it('reports no secret in ordinary text through containsSecret', async () => {
    for (const sample of ordinaryCorpus) expect(await containsSecret(sample.text), sample.name).toBe(false);
  });
});

describe('SecretlintSecretGuard', () => {
  const guard = new SecretlintSecretGuard();
  const fake = new FakeValues('guard unit tests');

  it('replaces only the secret and counts findings per kind', async () => {
    const first = `ghp_${fake.alphanumeric(36)}`;
    const second = `ghp_${fake.alphanumeric(36)}`;
    const password = fake.alphanumeric(14);
    const result = await guard.redact(`token one ${first}\ntoken two ${second}\nDB_PASSWORD=${password}\n`);
    expect(result.text).toBe(
      'token one [REDACTED:github-token]\ntoken two [REDACTED:github-token]\nDB_PASSWORD=[REDACTED:password]\n',
    );
    expect(result.findings).toEqual([
      { kind: 'github-token', count: 2 },
      { kind: 'password', count: 1 },
    ]);
  });

  it('redacts every occurrence of a repeated secret', async () => {
    const key = `AKIA${fake.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
    const result = await guard.redact(`${key} and again ${key}`);
    expect(result.text).toBe('[REDACTED:aws-access-key] and again [REDACTED:aws-access-key]');
  });

  it('ignores secretlint-disable comments in the text', async () => {
    const token = `ghp_${fake.alphanumeric(36)}`;
    const result = await guard.redact(`// secretlint-disable\nconst token = "${token}"; // secretlint-disable-line\n`);
    expect(result.text).not.toContain(token);
  });

  it('returns empty text unchanged and survives non-string input', async () => {
    expect(await guard.redact('')).toEqual({ text: '', findings: [] });
    expect(await guard.redact(undefined as unknown as string)).toEqual({ text: '', findings: [] });
  });

  it('handles a large message with a secret at its end', async () => {
    const filler = buildOrdinaryCorpus()
      .map((sample) => sample.text)
      .join('\n')
      .repeat(40);
    const token = `xoxb-123456789012-1234567890123-${fake.alphanumeric(24)}`;
    const result = await guard.redact(`${filler}\n${token}`);
    expect(result.text).toBe(`${filler}\n[REDACTED:slack-token]`);
  });

  it('scans adversarial input in linear time (a quadratic rule would exceed the test timeout)', async () => {
    const inputs = [
      'a'.repeat(200_000),
      'password='.repeat(20_000),
      'password="'.repeat(20_000),
      'token: '.repeat(30_000),
      'A1b2'.repeat(50_000),
      '-----BEGIN RSA PRIVATE KEY-----'.repeat(5_000),
      '--password "'.repeat(20_000),
    ];
    for (const input of inputs) {
      const result = await guard.redact(input);
      expect(typeof result.text).toBe('string');
    }
  });

  it('is bound under its token and resolvable without other bindings', async () => {
    const container = new Container();
    container.bind<SecretGuard>(SecretGuard).to(SecretlintSecretGuard).inSingletonScope();
    const resolved = container.get<SecretGuard>(SecretGuard);
    expect((await resolved.redact(`key AIza${fake.chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_', 35)}`)).text).toBe(
      'key [REDACTED:google-api-key]',
    );
  });

  it('containsSecret answers for a given guard too', async () => {
    const fixed: SecretGuard = { redact: (text) => Promise.resolve({ text, findings: [{ kind: 'x', count: 1 }] }) };
    expect(await containsSecret('anything', fixed)).toBe(true);
    expect(await containsSecret(`password: ${fake.alphanumeric(12)}`)).toBe(true);
  });

  it('own rules alone find no secret in the ordinary corpus', () => {
    for (const sample of ordinaryCorpus) expect(findSecretsWithOwnRules(sample.text), sample.name).toEqual([]);
  });
});
