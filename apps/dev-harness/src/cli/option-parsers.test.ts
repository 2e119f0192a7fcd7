import { describe, expect, it } from 'vitest';
import { UsageError } from './harness-errors.js';
import { parseGranularity } from './option-parsers.js';

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
