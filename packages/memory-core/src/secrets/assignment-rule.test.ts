import { describe, expect, it } from 'vitest';
import { findSecretAssignments, secretKindOfKey } from './assignment-rule.js';

function redactedValues(text: string): string[] {
  return findSecretAssignments(text).map((span) => text.slice(span.start, span.end));
}

describe('secretKindOfKey', () => {
  it('recognises secret-sounding names in every casing convention', () => {
    expect(secretKindOfKey('DB_PASSWORD')).toBe('password');
    expect(secretKindOfKey('dbPass')).toBe('password');
    expect(secretKindOfKey('spring.datasource.password')).toBe('password');
    expect(secretKindOfKey('GITHUB_TOKEN')).toBe('secret');
    expect(secretKindOfKey('apiKey')).toBe('secret');
    expect(secretKindOfKey('X-Api-Key')).toBe('secret');
    expect(secretKindOfKey('client_secret')).toBe('secret');
    expect(secretKindOfKey('AccountKey')).toBe('secret');
    expect(secretKindOfKey('aws_secret_access_key')).toBe('aws-secret-key');
    expect(secretKindOfKey('_auth')).toBe('secret');
  });

  it('ignores names that only mention a secret', () => {
    for (const key of ['bypass', 'compass', 'max_tokens', 'token_type', 'secretName', 'password_file', 'eos_token', 'next_token', 'key', 'primaryKey', 'cacheKey', 'cancellationToken']) {
      expect(secretKindOfKey(key), key).toBeUndefined();
    }
  });
});

describe('findSecretAssignments', () => {
  it('takes values from env, yaml, json, toml, code literals and query strings', () => {
    expect(redactedValues('DB_PASSWORD=s3cr3t-value\n')).toEqual(['s3cr3t-value']);
    expect(redactedValues('export API_TOKEN="abc def ghi"\n')).toEqual(['abc def ghi']);
    expect(redactedValues('  password: hunter22\n')).toEqual(['hunter22']);
    expect(redactedValues('{"apiKey": "k-123456"}')).toEqual(['k-123456']);
    expect(redactedValues('client_secret = "zz-99"')).toEqual(['zz-99']);
    expect(redactedValues("const password = 'hunter2';")).toEqual(['hunter2']);
    expect(redactedValues('https://x.example/a?user=me&token=t0k3n&page=2')).toEqual(['t0k3n']);
    expect(redactedValues('PGPASSWORD=pa55 psql -h db')).toEqual(['pa55']);
    expect(redactedValues('password: "unterminated value\n')).toEqual(['unterminated value']);
  });

  it('leaves code that names a secret without holding one', () => {
    const code = [
      'password: string;',
      'token?: CancellationToken',
      'const token = await getToken();',
      'apiKey: config.apiKey,',
      "apiKey: env['API_KEY'],",
      'password: userPassword,',
      'secret: undefined,',
      'password = input("Password: ")',
      'if (password === "x") {}',
      'token: ${{ secrets.GITHUB_TOKEN }}',
      'SECRET_KEY=${SECRET_KEY}',
      'password: <your-password>',
      'OPENAI_API_KEY=sk-...',
      'password: DEFAULT_PASSWORD',
      'Token: the unit a model reads',
      "label: 'Password'",
      "password: 'Enter your password'",
      '"password": { "type": "string" }',
      'password:',
      'DB_PASSWORD=',
      'password: [REDACTED:password]',
      "const client = new Client({ apiKey: 'YOUR_API_KEY' });",
      'token = "your-token-here"',
    ].join('\n');
    expect(redactedValues(code)).toEqual([]);
  });
});
