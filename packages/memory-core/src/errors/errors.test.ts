import { GraphitiClient, GraphitiConnectionError, GraphitiServerError } from '@graphiti-memory/graphiti-client';
import { startEmulator } from '@graphiti-memory/graphiti-emulator';
import { describe, expect, it } from 'vitest';
import { describeGraphitiFailure, classifyGraphitiError, errorClassOf, type FailureAdvice } from './index.js';

const advice: FailureAdvice = { endpoint: 'check the endpoint setting', apiKey: 'set the key', timeout: 'raise the timeout' };
const request = { method: 'GET', path: '/healthcheck' };

/** A URL where nothing listens: an emulator's, after it closed. */
async function closedUrl(): Promise<string> {
  const emulator = await startEmulator({ quiet: true });
  await emulator.close();
  return emulator.url;
}

describe('classifyGraphitiError', () => {
  it('reads the code the client puts on its connection error, without walking causes', async () => {
    const client = new GraphitiClient({ baseUrl: await closedUrl(), maxRetries: 0, timeoutMs: 2000 });
    const error = await client.healthcheck().then(() => undefined, (failure: unknown) => failure);
    expect(classifyGraphitiError(error)).toMatchObject({ kind: 'connection', errorClass: 'GraphitiConnectionError', code: 'ECONNREFUSED', retryable: true });
  });

  it('keeps the status of an API error and names foreign errors by class only', () => {
    const server = new GraphitiServerError('boom', { ...request, status: 503, body: 'secret body', headers: {} });
    expect(classifyGraphitiError(server)).toMatchObject({ kind: 'server', status: 503, errorClass: 'GraphitiServerError' });
    expect(classifyGraphitiError(new TypeError('user text'))).toEqual({ kind: 'unknown', errorClass: 'TypeError' });
    expect(classifyGraphitiError('a string')).toEqual({ kind: 'unknown', errorClass: 'UnknownError' });
  });
});

describe('errorClassOf', () => {
  it('names a thrown value by class, a plain system error by its code, and never by its message', () => {
    expect(errorClassOf(new RangeError('user text'))).toBe('RangeError');
    class FolderGone extends Error {}
    expect(errorClassOf(new FolderGone('user text'))).toBe('FolderGone');
    // What node:fs rejects with for a missing file: a plain Error with a system code.
    const missing = Object.assign(new Error("ENOENT: no such file or directory, open '/user/secret-name'"), { code: 'ENOENT', errno: -2, syscall: 'open' });
    expect(errorClassOf(missing)).toBe('ENOENT');
    expect(errorClassOf(Object.assign(new Error('user text'), { code: 'not a system code' }))).toBe('Error');
    expect(errorClassOf('a string')).toBe('UnknownError');
    expect(errorClassOf({ message: 'user text' })).toBe('UnknownError');
  });
});

describe('describeGraphitiFailure', () => {
  const context = { endpoint: 'http://127.0.0.1:9', operation: 'Health check', timeoutMs: 300, advice };

  it('says a refused connection is unreachable, with the URL and what to do', () => {
    const described = describeGraphitiFailure(new GraphitiConnectionError('x', request, { code: 'ECONNREFUSED' }), context);
    expect(described.message).toBe('Health check failed: Graphiti at http://127.0.0.1:9 is unreachable (connection refused: nothing listens on that port).');
    expect(described.hint).toContain('check the endpoint setting');
  });

  it('names the timeout, the API key advice on 401 and the server error, never a body', () => {
    const timeout = Object.assign(new Error('t'), { name: 'GraphitiTimeoutError', kind: 'timeout' });
    expect(describeGraphitiFailure(timeout, context)).toMatchObject({ message: expect.stringContaining('no answer within 300 ms'), hint: expect.stringContaining('raise the timeout') });
    const unauthorized = Object.assign(new Error('u'), { kind: 'api', status: 401 });
    expect(describeGraphitiFailure(unauthorized, context)).toMatchObject({ message: expect.stringContaining('refused (HTTP 401)'), hint: expect.stringContaining('set the key') });
    const server = new GraphitiServerError('boom', { ...request, status: 500, body: 'secret body', headers: {} });
    const described = describeGraphitiFailure(server, context);
    expect(described.message).toContain('server error (HTTP 500)');
    expect(JSON.stringify(described)).not.toContain('secret body');
  });
});
