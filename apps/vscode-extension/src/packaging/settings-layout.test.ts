// Settings a person can scan (issue 32 item 6): the most common first, team sharing under its own
// heading, digest and transport knobs under Advanced, capture's scopes and filter away from recall's
// scopes, each description leading with what it changes — and every key as it was (renaming a key
// loses what users set).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Category {
  readonly title: string;
  readonly order: number;
  readonly properties: Record<string, { readonly order: number; readonly markdownDescription?: string; readonly description?: string }>;
}

const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { contributes: { configuration: Category[] } };
const categories = [...manifest.contributes.configuration].sort((a, b) => a.order - b.order);
const keysOf = (category: Category | undefined) => Object.entries(category?.properties ?? {}).sort((a, b) => a[1].order - b[1].order).map(([key]) => key.replace('graphitiMemory.', ''));
const categoryOf = (key: string) => categories.find((category) => `graphitiMemory.${key}` in category.properties)?.title;

/** The keys users have set since 0.1.0 (none may disappear), and the ones added since. */
const KEYS = [
  'autoPromote.enabled', 'autoPromote.review', 'capture.backfillTurns', 'capture.claudeCode', 'capture.digestModel', 'capture.digestTurns', 'capture.digestWriter',
  'capture.granularity', 'capture.idleMinutes', 'capture.vscodeChat', 'enabled', 'endpoint', 'filter', 'groupIdStrategy', 'includeGitMetadata', 'includeSystemMessages',
  'maxAgeHours', 'maxAttempts', 'maxBatchSize', 'maxMessageChars', 'maxQueueSize', 'recall.enabled', 'recall.maxFacts', 'recall.scopes', 'recall.stale', 'recall.timeoutMs',
  'scopes', 'serverKind', 'team.consent', 'team.displayName', 'timeoutMs',
  // Since 0.1.0: open loops (issue 33) and the structured mirror (issue 34).
  'loops.expireDays', 'loops.proposeWithModel', 'mirror.enabled',
];

describe('the settings, as the Settings editor lists them', () => {
  it('keeps every key', () => {
    expect(categories.flatMap(keysOf).sort()).toEqual([...KEYS].sort());
  });

  it('opens on the most common: on/off, the endpoint, recall and where recall looks', () => {
    expect(categories[0]?.title).toBe('Memory');
    expect(keysOf(categories[0])).toEqual(['enabled', 'endpoint', 'recall.enabled', 'recall.scopes']);
  });

  it('puts team sharing under its own heading, and digest and transport knobs under Advanced', () => {
    expect(keysOf(categories.find((category) => category.title === 'Team Sharing'))).toEqual(['team.consent', 'team.displayName']);
    for (const key of ['capture.granularity', 'capture.idleMinutes', 'capture.digestTurns', 'capture.digestWriter', 'capture.digestModel', 'serverKind', 'timeoutMs', 'maxQueueSize', 'maxAttempts', 'maxAgeHours', 'maxBatchSize']) {
      expect(categoryOf(key), key).toBe('Advanced');
    }
    expect(categories.at(-1)?.title).toBe('Advanced');
  });

  it("keeps capture's Scopes and Filter away from Recall: Scopes", () => {
    expect(categoryOf('scopes')).not.toBe(categoryOf('recall.scopes'));
    expect(categoryOf('filter')).not.toBe(categoryOf('recall.scopes'));
    expect(categoryOf('scopes')).toBe('Chats to Remember');
  });

  it('starts each description with what it changes, not with a label', () => {
    for (const category of categories) {
      for (const [key, property] of Object.entries(category.properties)) {
        const text = property.markdownDescription ?? property.description ?? '';
        expect(text, key).not.toMatch(/^(Advanced:|Turn |Promote |Memories |A session digest|Let )/);
        expect(text.length, key).toBeGreaterThan(20);
      }
    }
  });
});
