import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseMemorySettings, SETTING_BOUNDS, type MemorySettings } from './memory-settings.js';

describe('DEFAULT_SETTINGS', () => {
  it('has every feature off and the documented defaults', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      enabled: false,
      endpoint: 'http://localhost:8000',
      serverKind: 'auto',
      timeoutMs: 5000,
      maxBatchSize: 20,
      maxQueueSize: 1000,
      maxMessageChars: 4000,
      maxAttempts: 8,
      maxAgeHours: 72,
      scopes: 'both',
      groupIdStrategy: 'hashed',
      includeGitMetadata: false,
      includeSystemMessages: false,
      autoPromote: { enabled: false, review: true },
      recall: { enabled: false, timeoutMs: 750, maxFacts: 10, scopes: 'both', stale: 'mark' },
      team: { consent: false, displayName: '' },
      capture: { vscodeChat: false, claudeCode: false, backfillTurns: 20, granularity: 'session', idleMinutes: 5, digestTurns: 10, digestWriter: 'filtered', digestModel: '' },
      loops: { expireDays: 30, proposeWithModel: false },
      filter: 'compact',
      mirror: { enabled: false },
    } satisfies MemorySettings);
  });

  it('takes loops.expireDays from 1 to 3650 days (30 by default) and names it when out of bounds', () => {
    expect(parseMemorySettings({ 'loops.expireDays': 7 }).settings.loops.expireDays).toBe(7);
    const refused = parseMemorySettings({ loops: { expireDays: 0 } });
    expect(refused.ok ? [] : refused.problems).toEqual([expect.stringMatching(/^graphitiMemory\.loops\.expireDays: /)]);
  });

  it('takes loops.proposeWithModel as a boolean, off by default, and names it when it is not one', () => {
    expect(parseMemorySettings({}).settings.loops.proposeWithModel).toBe(false);
    expect(parseMemorySettings({ 'loops.proposeWithModel': true }).settings.loops.proposeWithModel).toBe(true);
    const refused = parseMemorySettings({ loops: { proposeWithModel: 'yes' } });
    expect(refused.ok ? [] : refused.problems).toEqual([expect.stringMatching(/^graphitiMemory\.loops\.proposeWithModel: /)]);
  });

  it('takes capture.digestWriter filtered or chatModel (filtered by default) and refuses anything else, naming the setting', () => {
    expect(parseMemorySettings({}).settings.capture.digestWriter).toBe('filtered');
    expect(parseMemorySettings({ 'capture.digestWriter': 'chatModel', 'capture.digestModel': 'gpt-4o-mini' }).settings.capture).toMatchObject({ digestWriter: 'chatModel', digestModel: 'gpt-4o-mini' });
    const refused = parseMemorySettings({ capture: { digestWriter: 'claude', digestModel: 'a\nb' } });
    expect(refused.ok ? [] : refused.problems).toEqual([expect.stringMatching(/^graphitiMemory\.capture\.digestWriter: /), expect.stringMatching(/^graphitiMemory\.capture\.digestModel: .*one line/)]);
  });

  it('takes serverKind auto, rest or mcp and refuses anything else, naming the setting', () => {
    expect(parseMemorySettings({ serverKind: 'mcp' }).settings.serverKind).toBe('mcp');
    expect(parseMemorySettings({ 'graphitiMemory.serverKind': 'rest' }).settings.serverKind).toBe('rest');
    const refused = parseMemorySettings({ serverKind: 'grpc' });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? [] : refused.problems).toEqual([expect.stringMatching(/^graphitiMemory\.serverKind: /)]);
  });

  it('is frozen, so no caller can switch a feature on for everyone', () => {
    expect(Object.isFrozen(DEFAULT_SETTINGS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_SETTINGS.recall)).toBe(true);
  });
});

describe('filter', () => {
  it('takes a preset or per-kind modes over one, flat or nested, and names each bad kind or mode with the allowed values', () => {
    expect(parseMemorySettings({ 'graphitiMemory.filter': 'conversation' }).settings.filter).toBe('conversation');
    expect(parseMemorySettings({ filter: { preset: 'full', assistant: 'summary' } }).settings.filter).toEqual({ preset: 'full', assistant: 'summary' });
    const refused = parseMemorySettings({ filter: { preset: 'tiny', asistant: 'summary', code: 'sumary' } });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? [] : refused.problems).toEqual([
      'graphitiMemory.filter.preset: must be one of "full", "compact", "conversation" (got "tiny")',
      'graphitiMemory.filter.asistant: is not a kind of message; the kinds are preset, user, assistant, code, toolCalls, toolResults, thinking',
      'graphitiMemory.filter.code: must be one of "full", "summary", "omit" (got "sumary")',
    ]);
    const wrongType = parseMemorySettings({ filter: ['compact'] });
    expect(wrongType.ok ? [] : wrongType.problems).toEqual([expect.stringMatching(/^graphitiMemory\.filter: must be a preset \("full", "compact", "conversation"\) or an object/)]);
  });
});

describe('parseMemorySettings', () => {
  it('gives the defaults for undefined, null and an empty object', () => {
    for (const raw of [undefined, null, {}]) {
      expect(parseMemorySettings(raw)).toEqual({ ok: true, settings: DEFAULT_SETTINGS });
    }
  });

  it('accepts nested objects', () => {
    const result = parseMemorySettings({ enabled: true, recall: { enabled: true, maxFacts: 5, scopes: 'auto' } });
    expect(result.ok).toBe(true);
    expect(result.settings.enabled).toBe(true);
    expect(result.settings.recall).toEqual({ enabled: true, timeoutMs: 750, maxFacts: 5, scopes: 'auto', stale: 'mark' });
  });

  it('takes recall.stale mark, drop or off (mark by default) and refuses anything else, naming the setting', () => {
    expect(parseMemorySettings({}).settings.recall.stale).toBe('mark');
    expect(parseMemorySettings({ 'recall.stale': 'drop' }).settings.recall.stale).toBe('drop');
    expect(parseMemorySettings({ recall: { stale: 'off' } }).settings.recall.stale).toBe('off');
    const refused = parseMemorySettings({ 'recall.stale': 'hide' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problems.join('\n')).toContain('recall.stale');
  });

  it('accepts flat dotted keys, with or without the graphitiMemory prefix', () => {
    const result = parseMemorySettings({
      'recall.timeoutMs': 500,
      'graphitiMemory.autoPromote.enabled': true,
      'capture.claudeCode': true,
      scopes: 'session',
    });
    expect(result.ok).toBe(true);
    expect(result.settings.recall.timeoutMs).toBe(500);
    expect(result.settings.autoPromote.enabled).toBe(true);
    expect(result.settings.capture).toEqual({ vscodeChat: false, claudeCode: true, backfillTurns: 20, granularity: 'session', idleMinutes: 5, digestTurns: 10, digestWriter: 'filtered', digestModel: '' });
    expect(result.settings.scopes).toBe('session');
  });

  it('lets a dotted key win over the nested value and keeps the nested siblings', () => {
    const result = parseMemorySettings({ recall: { maxFacts: 3, enabled: true }, 'recall.maxFacts': 7 });
    expect(result.settings.recall.maxFacts).toBe(7);
    expect(result.settings.recall.enabled).toBe(true);
  });

  it('treats null values as not set', () => {
    const result = parseMemorySettings({ timeoutMs: null, recall: { maxFacts: null }, 'recall.timeoutMs': null });
    expect(result).toEqual({ ok: true, settings: DEFAULT_SETTINGS });
  });

  it('normalises the endpoint and allows an empty one (not configured)', () => {
    expect(parseMemorySettings({ endpoint: ' HTTPS://Graphiti.Example.com:443/api/ ' }).settings.endpoint).toBe(
      'https://graphiti.example.com/api',
    );
    expect(parseMemorySettings({ endpoint: '' })).toMatchObject({ ok: true, settings: { endpoint: '' } });
  });

  it('names the setting, the rule and the value for an out-of-range number', () => {
    const result = parseMemorySettings({ enabled: true, 'recall.maxFacts': 500 });
    expect(result).toEqual({
      ok: false,
      settings: DEFAULT_SETTINGS,
      problems: ['graphitiMemory.recall.maxFacts: must be at most 50 (got 500)'],
    });
  });

  it('reports every problem, each naming its setting, and turns the integration off', () => {
    const result = parseMemorySettings({
      enabled: true,
      timeoutMs: 10,
      maxBatchSize: 2.5,
      scopes: 'everything',
      includeGitMetadata: 'yes',
      endpoint: 'ftp://example.com',
      recall: 'fast',
    });
    expect(result.ok).toBe(false);
    expect(result.settings.enabled).toBe(false);
    expect(result.ok ? [] : result.problems).toEqual([
      'graphitiMemory.endpoint: must be an http(s) URL such as http://localhost:8000',
      'graphitiMemory.timeoutMs: must be at least 100 (got 10)',
      'graphitiMemory.maxBatchSize: must be a whole number (got 2.5)',
      'graphitiMemory.scopes: must be one of "session", "workspace", "both" (got "everything")',
      'graphitiMemory.includeGitMetadata: must be true or false (got "yes")',
      'graphitiMemory.recall: must be an object (got "fast")',
    ]);
  });

  it('never echoes an endpoint (it may hold a password)', () => {
    const result = parseMemorySettings({ endpoint: 'https://alice:hunter2@graphiti.example.com' });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^graphitiMemory\.endpoint: must not contain a user name or password/);
    expect(problems.join('\n')).not.toContain('hunter2');
  });

  it('refuses a settings value that is not an object', () => {
    expect(parseMemorySettings('on')).toEqual({
      ok: false,
      settings: DEFAULT_SETTINGS,
      problems: ['graphitiMemory: settings must be an object (got "on")'],
    });
  });

  it('ignores unknown keys', () => {
    expect(parseMemorySettings({ someFutureSetting: 1, 'recall.someFutureSetting': true }).ok).toBe(true);
  });

  const numericSettings: Array<[string, { min: number; max: number }, (settings: MemorySettings) => number]> = [
    ['timeoutMs', SETTING_BOUNDS.timeoutMs, (settings) => settings.timeoutMs],
    ['maxBatchSize', SETTING_BOUNDS.maxBatchSize, (settings) => settings.maxBatchSize],
    ['maxQueueSize', SETTING_BOUNDS.maxQueueSize, (settings) => settings.maxQueueSize],
    ['maxAttempts', SETTING_BOUNDS.maxAttempts, (settings) => settings.maxAttempts],
    ['maxAgeHours', SETTING_BOUNDS.maxAgeHours, (settings) => settings.maxAgeHours],
    ['maxMessageChars', SETTING_BOUNDS.maxMessageChars, (settings) => settings.maxMessageChars],
    ['recall.timeoutMs', SETTING_BOUNDS.recallTimeoutMs, (settings) => settings.recall.timeoutMs],
    ['recall.maxFacts', SETTING_BOUNDS.recallMaxFacts, (settings) => settings.recall.maxFacts],
  ];

  it('accepts every whole number within the bounds of each numeric setting', () => {
    for (const [key, bounds, read] of numericSettings) {
      fc.assert(
        fc.property(fc.integer({ min: bounds.min, max: bounds.max }), fc.boolean(), (value, enabled) => {
          const result = parseMemorySettings({ enabled, [key]: value });
          expect(result.ok).toBe(true);
          expect(read(result.settings)).toBe(value);
          expect(result.settings.enabled).toBe(enabled);
        }),
        { numRuns: 50 },
      );
    }
  });

  it('refuses every number outside the bounds, naming the setting, and stays disabled', () => {
    for (const [key, bounds] of numericSettings) {
      const outside = fc.oneof(
        fc.integer({ min: bounds.max + 1, max: bounds.max * 10 + 10 }),
        fc.integer({ min: -1_000_000, max: bounds.min - 1 }),
      );
      fc.assert(
        fc.property(outside, (value) => {
          const result = parseMemorySettings({ enabled: true, [key]: value });
          expect(result.ok).toBe(false);
          expect(result.settings).toBe(DEFAULT_SETTINGS);
          const problems = result.ok ? [] : result.problems;
          expect(problems).toHaveLength(1);
          expect(problems[0]).toMatch(new RegExp(`^graphitiMemory\\.${key.replace('.', '\\.')}: must be at (most|least) `));
          expect(problems[0]).toContain(`(got ${value})`);
        }),
        { numRuns: 50 },
      );
    }
  });
});

describe('issue 13 settings', () => {
  it('reviews promotions by default and bounds capture.backfillTurns', () => {
    expect(DEFAULT_SETTINGS.autoPromote.review).toBe(true);
    expect(parseMemorySettings({ 'autoPromote.review': false }).settings.autoPromote.review).toBe(false);
    expect(parseMemorySettings({ capture: { backfillTurns: 5 } }).settings.capture.backfillTurns).toBe(5);
    const tooMany = parseMemorySettings({ 'capture.backfillTurns': 5000 });
    expect(tooMany.ok ? [] : tooMany.problems).toEqual(['graphitiMemory.capture.backfillTurns: must be at most 1000 (got 5000)']);
  });
});

describe('the team settings and list-form recall.scopes', () => {
  it('takes team.consent and team.displayName, off and empty by default', () => {
    expect(DEFAULT_SETTINGS.team).toEqual({ consent: false, displayName: '' });
    expect(parseMemorySettings({ 'team.consent': true, 'team.displayName': 'Alice' }).settings.team).toEqual({ consent: true, displayName: 'Alice' });
    const refused = parseMemorySettings({ team: { displayName: 'Alice\nBob' } });
    expect(refused.ok ? [] : refused.problems).toEqual(['graphitiMemory.team.displayName: must be one line of text without control characters']);
  });

  it('takes recall.scopes as a list naming team, and names the setting for a bad one', () => {
    expect(parseMemorySettings({ recall: { scopes: ['workspace', 'team'] } }).settings.recall.scopes).toEqual(['workspace', 'team']);
    const refused = parseMemorySettings({ recall: { scopes: ['workspace', 'squad'] } });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? [] : refused.problems.join('\n')).toMatch(/^graphitiMemory\.recall\.scopes(\.1)?: must be one of .*team/);
  });
});
