import { describe, expect, it } from 'vitest';
import { UsageError } from './harness-errors.js';
import { parseGranularity, parseScopeSelection } from './option-parsers.js';

describe('parseGranularity (--granularity of ingest and track)', () => {
  it("takes capture.granularity's values, and nothing when the option is not given", () => {
    expect(parseGranularity('session')).toBe('session');
    expect(parseGranularity('turn')).toBe('turn');
    expect(parseGranularity(undefined)).toBeUndefined();
  });

  it('refuses anything else with a usage error that names the value and the choices', () => {
    expect(() => parseGranularity('message')).toThrow(UsageError);
    expect(() => parseGranularity('message')).toThrow(/--granularity "message" is not one of session, turn/);
  });
});

describe('--scopes mirror', () => {
  it('names the structured mirror, which recall searches only when listed', () => {
    expect(parseScopeSelection('mirror')).toEqual({ kind: 'list', scopes: ['mirror'] });
    expect(parseScopeSelection('mirror,workspace')).toEqual({ kind: 'list', scopes: ['workspace', 'mirror'] });
    expect(() => parseScopeSelection('mirrors')).toThrow(/unknown scope "mirrors".*session, workspace, user, team, mirror/);
  });
});
