import { describe, expect, it } from 'vitest';
import {
  GraphitiApiError,
  GraphitiNotFoundError,
  GraphitiRateLimitError,
  GraphitiServerError,
  GraphitiValidationError,
} from '../errors.js';
import { apiErrorFromResponse } from './http-errors.js';

const request = { method: 'POST', path: '/messages' };

describe('apiErrorFromResponse', () => {
  it('404 → GraphitiNotFoundError with the detail text, not retryable', () => {
    const error = apiErrorFromResponse({ method: 'DELETE', path: '/episode/e1' }, 404, {}, '{"detail":"node e1 not found"}');
    expect(error).toBeInstanceOf(GraphitiNotFoundError);
    expect(error).toMatchObject({ kind: 'not-found', status: 404, retryable: false, detail: 'node e1 not found' });
    expect(error.message).toContain('DELETE /episode/e1: node e1 not found');
  });

  it('422 → GraphitiValidationError with the FastAPI detail list; the message leaves out the echoed input', () => {
    const body = {
      detail: [{ type: 'missing', loc: ['body', 'messages', 0, 'role'], msg: 'Field required', input: { content: 'secret content' } }],
    };
    const error = apiErrorFromResponse(request, 422, {}, JSON.stringify(body));
    expect(error).toBeInstanceOf(GraphitiValidationError);
    expect((error as GraphitiValidationError).detail?.[0]?.loc).toEqual(['body', 'messages', 0, 'role']);
    expect(error.message).toContain('body.messages.0.role: Field required');
    expect(error.message).not.toContain('secret content');
    expect(error.body).toEqual(body);
    expect(error.retryable).toBe(false);
  });

  it('429 → GraphitiRateLimitError with Retry-After in ms, retryable', () => {
    const error = apiErrorFromResponse(request, 429, { 'retry-after': '2' }, '');
    expect(error).toBeInstanceOf(GraphitiRateLimitError);
    expect(error).toMatchObject({ kind: 'rate-limit', retryable: true, retryAfterMs: 2000 });
  });

  it('5xx → GraphitiServerError keeping the plain-text body', () => {
    const error = apiErrorFromResponse(request, 500, { 'content-type': 'text/plain' }, 'Internal Server Error');
    expect(error).toBeInstanceOf(GraphitiServerError);
    expect(error).toMatchObject({ kind: 'server', retryable: true, body: 'Internal Server Error' });
    expect(error.headers['content-type']).toBe('text/plain');
    expect(apiErrorFromResponse(request, 503, {}, '').retryable).toBe(true);
  });

  it('other statuses → GraphitiApiError; 408 and 409 retryable, 400/401 not', () => {
    for (const [status, retryable] of [
      [400, false],
      [401, false],
      [408, true],
      [409, true],
    ] as const) {
      const error = apiErrorFromResponse(request, status, {}, '{"detail":"x"}');
      expect(error.constructor).toBe(GraphitiApiError);
      expect(error).toMatchObject({ kind: 'api', status, retryable });
    }
    expect(apiErrorFromResponse(request, 401, {}, '').message).toMatch(/apiKey/);
  });
});
