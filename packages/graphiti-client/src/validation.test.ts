import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GraphitiResponseValidationError, GraphitiUsageError } from './errors.js';
import { searchResultsSchema } from './schemas.js';
import { describeIssues, newMessagesRequestSchema, parseRequest, parseResponse } from './validation.js';

const request = { method: 'POST', path: '/search', status: 200 };
const fact = {
  uuid: 'f1',
  name: 'USES',
  fact: 'The project uses pnpm.',
  valid_at: '2025-06-08T11:58:10.431000+00:00',
  invalid_at: null,
  created_at: '2025-06-08T11:58:10Z',
  expired_at: null,
};

describe('parseRequest', () => {
  it('returns the parsed value', () => {
    expect(parseRequest('x', z.string(), 'a')).toBe('a');
  });

  it('refuses with a GraphitiUsageError naming the operation and the path, not the value', () => {
    const run = () =>
      parseRequest('addMessages', newMessagesRequestSchema, {
        group_id: 'team chat',
        messages: [{ content: 'private words', role_type: 'user', role: null }],
      });
    expect(run).toThrow(GraphitiUsageError);
    expect(run).toThrow(/^addMessages refused its input before sending: group_id: group_id must match/);
    expect(run).not.toThrow(/private words|team chat/);
  });
});

describe('newMessagesRequestSchema', () => {
  const message = { content: 'c', role_type: 'user' as const, role: null };

  it('accepts messages without uuid (or with uuid null)', () => {
    expect(newMessagesRequestSchema.safeParse({ group_id: 'g', messages: [message, { ...message, uuid: null }] }).success).toBe(true);
  });

  it('refuses a message uuid and explains why (upstream #1646)', () => {
    const parsed = newMessagesRequestSchema.safeParse({ group_id: 'g', messages: [message, { ...message, uuid: 'u' }] });
    expect(parsed.success).toBe(false);
    expect(describeIssues(parsed.error?.issues ?? [])).toMatch(
      /^messages\.1\.uuid: never set uuid for a new message: the server treats it as an existing episode to re-process \(upstream #1646\)/,
    );
  });

  it('refuses a missing role key, an unknown role_type and unknown fields', () => {
    const parsed = newMessagesRequestSchema.safeParse({
      group_id: 'g',
      messages: [{ content: 'c', role_type: 'robot' }, { ...message, extra: 1 }],
    });
    const text = describeIssues(parsed.error?.issues ?? []);
    expect(text).toContain('messages.0.role_type');
    expect(text).toContain('messages.0.role');
    expect(text).toMatch(/extra/);
  });
});

describe('parseResponse', () => {
  it('accepts facts from an older server (no source/target/episodes) and keeps unknown fields', () => {
    const body = JSON.stringify({ facts: [{ ...fact, score: 0.5 }], next: 'x' });
    const parsed = parseResponse(searchResultsSchema, body, request);
    expect(parsed.facts[0]).toMatchObject({ uuid: 'f1', score: 0.5 });
    expect(parsed).toMatchObject({ next: 'x' });
  });

  it('rejects a body that is not JSON, keeping the raw body', () => {
    try {
      parseResponse(searchResultsSchema, '<html>proxy login</html>', request);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GraphitiResponseValidationError);
      const validation = error as GraphitiResponseValidationError;
      expect(validation.rawBody).toBe('<html>proxy login</html>');
      expect(validation.issues).toEqual([]);
      expect(validation.message).toMatch(/not JSON/);
    }
  });

  it('rejects a wrong shape with the zod issues', () => {
    const body = JSON.stringify({ facts: [{ ...fact, created_at: null }] });
    try {
      parseResponse(searchResultsSchema, body, request);
      expect.unreachable();
    } catch (error) {
      const validation = error as GraphitiResponseValidationError;
      expect(validation.kind).toBe('response-validation');
      expect(validation.rawBody).toBe(body);
      expect(validation.issues.map((issue) => issue.path.join('.'))).toEqual(['facts.0.created_at']);
    }
  });
});

describe('describeIssues', () => {
  it('shows at most five issues and counts the rest', () => {
    const parsed = z.array(z.string()).safeParse([1, 2, 3, 4, 5, 6, 7]);
    expect(describeIssues(parsed.error?.issues ?? [])).toMatch(/\(and 2 more\)$/);
  });
});
