import { describe, expect, it } from 'vitest';
import {
  GraphitiAbortError,
  GraphitiConnectionError,
  GraphitiResponseValidationError,
  GraphitiTimeoutError,
  GraphitiUsageError,
  isGraphitiError,
  isRetryableStatus,
} from './errors.js';

const request = { method: 'POST', path: '/search' };

describe('isGraphitiError', () => {
  it('recognises every error class of the client', () => {
    const errors = [
      new GraphitiConnectionError('x', request),
      new GraphitiTimeoutError('x', { ...request, timeoutMs: 5 }),
      new GraphitiAbortError('x', request),
      new GraphitiResponseValidationError('x', { ...request, status: 200, rawBody: '', issues: [] }),
      new GraphitiUsageError('x'),
    ];
    for (const error of errors) expect(isGraphitiError(error)).toBe(true);
  });

  it('recognises an error of another copy of the package by its registry-wide brand', () => {
    // What a second installed copy produces: a different class, the same Symbol.for brand.
    class OtherCopyError extends Error {}
    const foreign = new OtherCopyError('from another copy');
    Object.defineProperty(foreign, Symbol.for('@graphiti-memory/graphiti-client.GraphitiError'), { value: true });
    expect(isGraphitiError(foreign)).toBe(true);
  });

  it('rejects plain errors and non-objects', () => {
    expect(isGraphitiError(new Error('plain'))).toBe(false);
    expect(isGraphitiError(null)).toBe(false);
    expect(isGraphitiError('GraphitiError')).toBe(false);
  });

  it('keeps the brand non-enumerable, so spreading or serialising an error does not copy it', () => {
    const error = new GraphitiUsageError('x');
    const brand = Symbol.for('@graphiti-memory/graphiti-client.GraphitiError');
    expect(Object.prototype.propertyIsEnumerable.call(error, brand)).toBe(false);
    expect(isGraphitiError({ ...error })).toBe(false);
  });
});

describe('error classes', () => {
  it('carry kind, retryable and name', () => {
    const timeout = new GraphitiTimeoutError('x', { ...request, timeoutMs: 5 });
    expect([timeout.kind, timeout.retryable, timeout.name, timeout.timeoutMs]).toEqual([
      'timeout',
      true,
      'GraphitiTimeoutError',
      5,
    ]);
    const abort = new GraphitiAbortError('x', request);
    expect([abort.kind, abort.retryable]).toEqual(['abort', false]);
    expect(new GraphitiConnectionError('x', request).retryable).toBe(true);
  });
});

describe('isRetryableStatus', () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [404, false],
    [422, false],
  ])('%i → %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });
});
