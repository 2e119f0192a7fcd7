// 422 bodies over HTTP, compared with what FastAPI + Pydantic v2 send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from './server.js';
import { get, message, post, send } from './test-support/http.js';
import type { RunningEmulator } from './types.js';
import { dateTime, type ValidationIssue } from './validation.js';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.close();
});

describe('FastAPI validation errors', () => {
  it('requires the role key (null allowed)', async () => {
    const withoutRole = { content: 'hi', role_type: 'user' };
    const reply = await post(emulator.url, '/messages', { group_id: 'g', messages: [withoutRole] });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'messages', 0, 'role'], msg: 'Field required', input: withoutRole }],
    });
    const nullRole = await post(emulator.url, '/messages', { group_id: 'g', messages: [message({ role: null })] });
    expect(nullRole.status).toBe(202);
  });

  it('refuses a role_type outside the enum', async () => {
    const reply = await post(emulator.url, '/messages', { group_id: 'g', messages: [message({ role_type: 'bot' })] });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      detail: [
        {
          type: 'literal_error',
          loc: ['body', 'messages', 0, 'role_type'],
          msg: "Input should be 'user', 'assistant' or 'system'",
          input: 'bot',
          ctx: { expected: "'user', 'assistant' or 'system'" },
        },
      ],
    });
  });

  it('requires content, and lists every problem in field order', async () => {
    const broken = { role_type: 'robot', role: 'x' };
    const reply = await post(emulator.url, '/messages', { messages: [message(), broken] });
    expect(reply.status).toBe(422);
    const detail = (reply.body as { detail: { type: string; loc: unknown[] }[] }).detail;
    expect(detail.map((entry) => [entry.type, entry.loc])).toEqual([
      ['missing', ['body', 'group_id']],
      ['missing', ['body', 'messages', 1, 'content']],
      ['literal_error', ['body', 'messages', 1, 'role_type']],
    ]);
  });

  it('reports wrong types', async () => {
    const reply = await post(emulator.url, '/messages', { group_id: 7, messages: 'none' });
    expect(reply.body).toEqual({
      detail: [
        { type: 'string_type', loc: ['body', 'group_id'], msg: 'Input should be a valid string', input: 7 },
        { type: 'list_type', loc: ['body', 'messages'], msg: 'Input should be a valid list', input: 'none' },
      ],
    });
  });

  it('refuses a timestamp that is not a datetime', async () => {
    const reply = await post(emulator.url, '/messages', {
      group_id: 'g',
      messages: [message({ timestamp: 'yesterday' })],
    });
    expect(reply.status).toBe(422);
    const [entry] = (reply.body as { detail: { type: string; loc: unknown[]; input: unknown }[] }).detail;
    expect(entry).toMatchObject({ type: 'datetime_from_date_parsing', loc: ['body', 'messages', 0, 'timestamp'], input: 'yesterday' });
  });

  it('answers json_invalid for a body that is not JSON', async () => {
    const reply = await send(emulator.url, 'POST', '/search', { rawBody: '{"query": ' });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      detail: [{ type: 'json_invalid', loc: ['body', 10], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }],
    });
  });

  it('answers missing body and non-object bodies like FastAPI', async () => {
    const empty = await post(emulator.url, '/search');
    expect(empty.body).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
    const list = await post(emulator.url, '/search', [1]);
    expect(list.body).toEqual({
      detail: [
        {
          type: 'model_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or instance of SearchQuery',
          input: [1],
          ctx: { class_name: 'SearchQuery' },
        },
      ],
    });
  });

  it('requires last_n on /episodes and parses it as an integer', async () => {
    const missing = await get(emulator.url, '/episodes/g');
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      detail: [{ type: 'missing', loc: ['query', 'last_n'], msg: 'Field required', input: null }],
    });
    const notANumber = await get(emulator.url, '/episodes/g?last_n=many');
    expect(notANumber.body).toEqual({
      detail: [
        {
          type: 'int_parsing',
          loc: ['query', 'last_n'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'many',
        },
      ],
    });
  });

  it('validates /search, /get-memory and /entity-node bodies', async () => {
    const search = await post(emulator.url, '/search', { group_ids: ['g', 3], max_facts: 2.5 });
    expect((search.body as { detail: { type: string; loc: unknown[] }[] }).detail.map((entry) => [entry.type, entry.loc])).toEqual([
      ['string_type', ['body', 'group_ids', 1]],
      ['missing', ['body', 'query']],
      ['int_from_float', ['body', 'max_facts']],
    ]);
    const memory = await post(emulator.url, '/get-memory', { group_id: 'g', messages: [] });
    expect(memory.body).toEqual({
      detail: [
        { type: 'missing', loc: ['body', 'center_node_uuid'], msg: 'Field required', input: { group_id: 'g', messages: [] } },
      ],
    });
    const node = await post(emulator.url, '/entity-node', { name: 'Alice' });
    expect((node.body as { detail: { loc: unknown[] }[] }).detail.map((entry) => entry.loc)).toEqual([
      ['body', 'uuid'],
      ['body', 'group_id'],
    ]);
  });

  it('accepts a search without group_ids (null) and numeric strings for integers, like Pydantic lax mode', async () => {
    const reply = await post(emulator.url, '/search', { query: 'coffee', max_facts: '3' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ facts: [] });
  });
});

describe('validators', () => {
  it('reads datetimes like Pydantic: offsets, fractions, date only, Unix seconds and milliseconds', () => {
    const read = (input: unknown) => {
      const issues: ValidationIssue[] = [];
      const value = dateTime(input, ['body'], issues);
      return issues.length === 0 ? value : 'invalid';
    };
    expect(read('2025-06-08T11:58:10.431000+00:00')).toBe(Date.UTC(2025, 5, 8, 11, 58, 10, 431));
    expect(read('2025-06-08T13:58:10+02:00')).toBe(Date.UTC(2025, 5, 8, 11, 58, 10));
    expect(read('2025-06-08')).toBe(Date.UTC(2025, 5, 8));
    expect(read(1_700_000_000)).toBe(1_700_000_000_000);
    expect(read(1_700_000_000_000)).toBe(1_700_000_000_000);
    expect(read('2025-13-01T00:00:00Z')).toBe('invalid');
    expect(read(true)).toBe('invalid');
  });
});
