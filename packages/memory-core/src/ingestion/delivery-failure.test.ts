import { describe, expect, it } from 'vitest';
import { classifyFailure } from './delivery-failure.js';
import { retryDelay } from './ingestion-options.js';
import { fakeGraphitiError } from '../../test-support/ingestion.js';

describe('classifyFailure', () => {
  it.each([
    [fakeGraphitiError('server', { status: 500 }), 'retry', 'HTTP 500 (server)'],
    [fakeGraphitiError('server', { status: 503 }), 'retry', 'HTTP 503 (server)'],
    [fakeGraphitiError('rate-limit', { status: 429 }), 'retry', 'HTTP 429 (rate-limit)'],
    [fakeGraphitiError('api', { status: 408 }), 'retry', 'HTTP 408 (api)'],
    [fakeGraphitiError('validation', { status: 422 }), 'dead-letter', 'HTTP 422 (validation)'],
    [fakeGraphitiError('not-found', { status: 404 }), 'dead-letter', 'HTTP 404 (not-found)'],
    [fakeGraphitiError('api', { status: 400 }), 'dead-letter', 'HTTP 400 (api)'],
    [fakeGraphitiError('usage'), 'dead-letter', 'refused by the client before sending (usage)'],
    [fakeGraphitiError('connection', { code: 'ECONNREFUSED' }), 'retry', 'not connected (ECONNREFUSED)'],
    [fakeGraphitiError('connection', { code: 'ECONNRESET' }), 'unknown-outcome', 'connection lost (ECONNRESET)'],
    [fakeGraphitiError('connection'), 'unknown-outcome', 'connection lost'],
    [fakeGraphitiError('timeout'), 'unknown-outcome', 'timed out'],
    [fakeGraphitiError('abort'), 'unknown-outcome', 'aborted'],
    [fakeGraphitiError('response-too-large', { retryable: false }), 'unknown-outcome', 'answer too large'],
    [new TypeError('boom'), 'retry', 'unexpected failure'],
    ['a string', 'retry', 'unexpected failure'],
  ])('%s → %s', (error, disposition, reason) => {
    expect(classifyFailure(error)).toMatchObject({ disposition, reason });
  });

  it('treats a 2xx with an unexpected body as accepted, and keeps Retry-After', () => {
    const odd = Object.assign(new Error('odd'), { name: 'GraphitiResponseValidationError', kind: 'response-validation', status: 202 });
    expect(classifyFailure(odd)).toMatchObject({ disposition: 'accepted', errorClass: 'GraphitiResponseValidationError' });
    expect(classifyFailure(fakeGraphitiError('rate-limit', { status: 429, retryAfterMs: 3000 }))).toMatchObject({
      retryAfterMs: 3000,
    });
  });
});

describe('retryDelay', () => {
  const options = { retryDelayMs: 100, maxRetryDelayMs: 1_000 };
  it('doubles per failure, caps, jitters within [half, full] and honours Retry-After', () => {
    expect(retryDelay(1, { ...options, random: () => 0 })).toBe(50);
    expect(retryDelay(1, { ...options, random: () => 0.999999 })).toBe(100);
    expect(retryDelay(3, { ...options, random: () => 0 })).toBe(200);
    expect(retryDelay(20, { ...options, random: () => 0.999999 })).toBe(1_000);
    expect(retryDelay(1, { ...options, random: () => 0 }, 5_000)).toBe(5_000);
  });
});
