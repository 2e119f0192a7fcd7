import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALPHABETS, FakeValues, toBase64 } from '../../test-support/secret-corpus/fake-values.js';
import { decodeBase64, findHighEntropyTokens, isProse, isRandomLooking, shannonEntropy } from './entropy-rule.js';

const fake = new FakeValues('entropy tests');

describe('isRandomLooking', () => {
  it('accepts random base62 and base64 tokens of 48 characters nearly always', () => {
    let accepted = 0;
    for (let index = 0; index < 500; index += 1) {
      if (isRandomLooking(fake.chars(index % 2 === 0 ? ALPHABETS.alphanumeric : ALPHABETS.base64, 48))) accepted += 1;
    }
    expect(accepted).toBeGreaterThanOrEqual(490);
  });

  it('rejects hex, UUIDs, identifiers, paths, constants and short tokens', () => {
    for (const value of [
      fake.hex(40),
      fake.hex(64).toUpperCase(),
      fake.uuid(),
      'createTranscriptReaderFromFormatOptionsWithDefaults',
      'ThisIsAVeryLongIdentifierNameForTesting123',
      'packages/memory-core/src/transcripts/claude-code',
      'EXPERIMENTAL_FEATURE_FLAG_FOR_SOMETHING_VERY_LONG',
      'test_should_return_404_when_user_not_found_in_db',
      fake.alphanumeric(31),
    ]) {
      expect(isRandomLooking(value), value).toBe(false);
    }
  });

  it('never accepts a hex string, whatever its length', () => {
    fc.assert(fc.property(fc.stringMatching(/^[0-9a-f]{32,128}$/), (value) => !isRandomLooking(value)));
  });
});

describe('shannonEntropy', () => {
  it('measures bits per character', () => {
    expect(shannonEntropy('')).toBe(0);
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abab')).toBe(1);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});

describe('decodeBase64 and isProse', () => {
  it('decodes standard and url-safe base64', () => {
    expect(decodeBase64(toBase64('hello world, again'))).toBe('hello world, again');
    expect(decodeBase64(toBase64('a?>~ ok').replace(/\+/g, '-').replace(/\//g, '_'))).toBe('a?>~ ok');
    expect(decodeBase64('not base64!')).toBeUndefined();
    expect(decodeBase64('abcde')).toBeUndefined();
  });

  it('tells prose from key material', () => {
    expect(isProse('The quick brown fox')).toBe(true);
    expect(isProse('user:password')).toBe(false);
    expect(isProse(String.fromCharCode(1, 200, 3, 32, 32, 9))).toBe(false);
  });
});

describe('findHighEntropyTokens', () => {
  it('spans a random token including its padding', () => {
    const token = fake.chars(ALPHABETS.base64, 42);
    const text = `value ${token}== end`;
    const spans = findHighEntropyTokens(text);
    expect(spans.map((span) => text.slice(span.start, span.end))).toEqual(isRandomLooking(token) ? [`${token}==`] : []);
    expect(isRandomLooking(token)).toBe(true);
  });

  it('checks query values of URLs but not their paths', () => {
    const pathId = fake.alphanumeric(44);
    const queryToken = fake.alphanumeric(44);
    const text = `https://docs.example.com/d/${pathId}/edit?sig=${queryToken}`;
    expect(findHighEntropyTokens(text).map((span) => text.slice(span.start, span.end))).toEqual([queryToken]);
  });

  it('reports base64 of a PEM private key as a private key', () => {
    const encoded = toBase64(`-----BEGIN EC PRIVATE KEY-----\n${fake.chars(ALPHABETS.base64, 64)}\n-----END EC PRIVATE KEY-----\n`);
    expect(findHighEntropyTokens(`key: ${encoded}`).map((span) => span.kind)).toEqual(['private-key']);
  });
});
