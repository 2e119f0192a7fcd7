import fc from 'fast-check';
import { it } from 'vitest';
import { SecretlintSecretGuard } from './secretlint-secret-guard.js';

const guard = new SecretlintSecretGuard();
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

it('repro', async () => {
  const failures: string[] = [];
  await fc.assert(
    fc.asyncProperty(fc.oneof(soup, fc.string({ unit: 'binary', maxLength: 200 })), async (text) => {
      const once = await guard.redact(text);
      const twice = await guard.redact(once.text);
      if (twice.text !== once.text) { failures.push(JSON.stringify({ text, once: once.text, twice: twice.text })); }
    }),
    { numRuns: Number(process.env.RUNS ?? 20000), seed: Number(process.env.SEED ?? 1) },
  );
  console.log('failures', failures.length);
  for (const failure of failures.slice(0, Number(process.env.SHOW ?? 5))) console.log(failure);
}, 600000);
