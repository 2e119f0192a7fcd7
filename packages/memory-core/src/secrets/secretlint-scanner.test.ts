import { describe, expect, it } from 'vitest';
import { FakeValues } from '../../test-support/secret-corpus/fake-values.js';
import { scanWithSecretlint, spansOfMessage } from './secretlint-scanner.js';

const fake = new FakeValues('secretlint scanner tests');

describe('scanWithSecretlint', () => {
  it('runs the recommended preset and maps its messages to marker kinds', async () => {
    const token = `ghp_${fake.alphanumeric(36)}`;
    const text = `token=${token}\n`;
    const spans = await scanWithSecretlint(text);
    expect(spans.map((span) => [text.slice(span.start, span.end), span.kind])).toEqual([[token, 'github-token']]);
  });

  it('spans the AWS secret key value, not the range the rule reports', async () => {
    const secret = fake.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+', 40);
    const text = `export AWS_SECRET_ACCESS_KEY=${secret}\n`;
    const spans = await scanWithSecretlint(text);
    expect(spans.map((span) => [text.slice(span.start, span.end), span.kind])).toEqual([[secret, 'aws-secret-key']]);
  });

  it('reports access key ids and connection strings, and keeps reporting despite disable comments', async () => {
    const keyId = `AKIA${fake.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
    const password = fake.alphanumeric(12);
    const text = `// secretlint-disable\n${keyId} postgres://app:${password}@db.example.com:5432/app // secretlint-disable-line\n`;
    const kinds = (await scanWithSecretlint(text)).map((span) => span.kind).sort();
    expect(kinds).toEqual(['aws-access-key', 'connection-string']);
  });

  it('drops the whole-text service-account report and the account id report', async () => {
    const text = JSON.stringify({ private_key_id: fake.hex(40), private_key: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n' });
    const spans = await scanWithSecretlint(text);
    expect(spans.every((span) => span.end - span.start < text.length)).toBe(true);
    expect(
      spansOfMessage('AWS_ACCOUNT_ID=1234-5678-9012', {
        type: 'message',
        ruleId: '@secretlint/secretlint-rule-aws',
        messageId: 'AWSAccountID',
        message: 'found',
        range: [0, 29],
        loc: { start: { line: 1, column: 0 }, end: { line: 1, column: 29 } },
        severity: 'error',
      }),
    ).toEqual([]);
  });

  it('names kinds of unknown rules after the rule id', () => {
    expect(
      spansOfMessage('abc secret-value-here', {
        type: 'message',
        ruleId: '@secretlint/secretlint-rule-new-provider',
        messageId: 'NEW',
        message: 'found',
        range: [4, 21],
        loc: { start: { line: 1, column: 4 }, end: { line: 1, column: 21 } },
        severity: 'error',
        data: { TOKEN: 'secret-value-here' },
      }),
    ).toEqual([{ start: 4, end: 21, kind: 'new-provider', priority: 4 }]);
  });
});

describe('secretlint profiling', () => {
  it('leaves no performance marks behind, however many texts are scanned', async () => {
    const secretlintMarks = () =>
      globalThis.performance.getEntriesByType('mark').filter((entry) => entry.name.startsWith('@core>')).length;
    for (let scan = 0; scan < 50; scan += 1) await scanWithSecretlint(`line ${scan} with nothing secret in it`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(secretlintMarks()).toBe(0);
  });
});

