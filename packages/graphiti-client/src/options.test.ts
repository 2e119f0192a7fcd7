import { describe, expect, it } from 'vitest';
import { isGraphitiError } from './errors.js';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, resolveClientOptions, resolveRequestOptions } from './options.js';

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isGraphitiError(error) && error.kind === 'usage') return error.message;
    throw error;
  }
  throw new Error('expected a GraphitiUsageError');
}

describe('resolveClientOptions', () => {
  it('applies the defaults and strips trailing slashes', () => {
    const resolved = resolveClientOptions({ baseUrl: 'http://localhost:8000/' });
    expect(resolved.baseUrl).toBe('http://localhost:8000');
    expect(resolved.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    expect(resolved.maxRetries).toBe(DEFAULT_MAX_RETRIES);
    expect(resolved.headers.accept).toBe('application/json');
    expect(resolved.headers['user-agent']).toMatch(/graphiti-client/);
    expect(resolved.headers.authorization).toBeUndefined();
  });

  it('keeps a path prefix of a proxied deployment', () => {
    expect(resolveClientOptions({ baseUrl: 'https://example.test/graphiti//' }).baseUrl).toBe(
      'https://example.test/graphiti',
    );
  });

  it('sends the key as a bearer token in authorization by default', () => {
    const resolved = resolveClientOptions({ baseUrl: 'http://h', apiKey: 'k1' });
    expect(resolved.headers.authorization).toBe('Bearer k1');
  });

  it('sends the raw key under a custom header name', () => {
    const resolved = resolveClientOptions({ baseUrl: 'http://h', apiKey: 'k1', apiKeyHeader: 'X-Api-Key' });
    expect(resolved.headers['x-api-key']).toBe('k1');
    expect(resolved.headers.authorization).toBeUndefined();
  });

  it.each(['localhost:8000', 'ftp://host', 'not a url', '', 'http://host/?a=1'])(
    'refuses baseUrl %j and says what a valid one looks like',
    (baseUrl) => {
      expect(usageMessage(() => resolveClientOptions({ baseUrl }))).toMatch(
        /baseUrl must be an absolute http:\/\/ or https:\/\/ URL/,
      );
    },
  );

  it('refuses bad numbers, header names and keys', () => {
    expect(usageMessage(() => resolveClientOptions({ baseUrl: 'http://h', timeoutMs: 0 }))).toMatch(/timeoutMs/);
    expect(usageMessage(() => resolveClientOptions({ baseUrl: 'http://h', maxRetries: -1 }))).toMatch(/maxRetries/);
    expect(usageMessage(() => resolveClientOptions({ baseUrl: 'http://h', apiKeyHeader: 'bad header' }))).toMatch(
      /apiKeyHeader/,
    );
    expect(usageMessage(() => resolveClientOptions({ baseUrl: 'http://h', apiKey: 'a\r\nb' }))).toMatch(/line breaks/);
  });

  it('never puts the key into an error message', () => {
    const message = usageMessage(() => resolveClientOptions({ baseUrl: 'http://h', apiKey: 'secret-key\n' }));
    expect(message).not.toContain('secret-key');
  });
});

describe('resolveRequestOptions', () => {
  const client = resolveClientOptions({ baseUrl: 'http://h', timeoutMs: 1000, maxRetries: 3 });

  it('falls back to the client values', () => {
    expect(resolveRequestOptions('search', client, undefined)).toEqual({
      signal: undefined,
      timeoutMs: 1000,
      maxRetries: 3,
      maxResponseBytes: 10 * 1024 * 1024,
    });
  });

  it('lets a call override timeout and retries and pass its signal', () => {
    const signal = new AbortController().signal;
    expect(resolveRequestOptions('search', client, { signal, timeoutMs: 50, maxRetries: 0 })).toEqual({
      signal,
      timeoutMs: 50,
      maxRetries: 0,
      maxResponseBytes: 10 * 1024 * 1024,
    });
  });

  it('refuses invalid overrides naming the operation', () => {
    expect(usageMessage(() => resolveRequestOptions('search', client, { timeoutMs: -1 }))).toMatch(
      /^search was given invalid request options: timeoutMs/,
    );
  });
});
