import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endpointProblem, normaliseEndpoint } from './endpoint.js';

describe('normaliseEndpoint', () => {
  it.each([
    ['http://localhost:8000', 'http://localhost:8000'],
    ['http://localhost:8000/', 'http://localhost:8000'],
    ['  HTTP://LocalHost:8000//  ', 'http://localhost:8000'],
    ['http://example.com:80', 'http://example.com'],
    ['https://example.com:443/graphiti/', 'https://example.com/graphiti'],
    ['https://example.com:8443', 'https://example.com:8443'],
    ['http://[::1]:8000', 'http://[::1]:8000'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseEndpoint(input)).toBe(expected);
  });

  it.each([
    ['not a url'],
    ['ftp://example.com'],
    ['file:///etc/passwd'],
    ['http://user:pass@example.com'],
    ['http://example.com/?token=1'],
    ['http://example.com/#top'],
    [''],
  ])('refuses %j', (input) => {
    expect(normaliseEndpoint(input)).toBeUndefined();
    expect(endpointProblem(input)).toEqual(expect.any(String));
  });

  it('keeps different servers apart', () => {
    expect(normaliseEndpoint('http://localhost:8000')).not.toBe(normaliseEndpoint('http://localhost:8001'));
    expect(normaliseEndpoint('http://example.com')).not.toBe(normaliseEndpoint('https://example.com'));
    expect(normaliseEndpoint('http://example.com/a')).not.toBe(normaliseEndpoint('http://example.com/b'));
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: false, withFragments: false }), (url) => {
        const once = normaliseEndpoint(url);
        if (once !== undefined) expect(normaliseEndpoint(once)).toBe(once);
      }),
    );
  });
});
