import { describe, expect, it } from 'vitest';
import { ConfiguredMemorySettings } from '../settings/memory-configuration.js';
import { FakeConsentStore, FakeSettingsSource, FakeWorkspaceContext } from '../../test-support/fakes.js';
import { parseMemorySettings } from '../settings/memory-settings.js';
import { CONSENT_CATEGORIES, categoriesInUse, inertCategories } from './consent-categories.js';
import { DefaultMemoryGate } from './memory-gate.js';

function gateWith(options: { settings?: unknown; trusted?: boolean; consentFor?: string }) {
  const source = new FakeSettingsSource(options.settings ?? { enabled: true, endpoint: 'http://localhost:8000' });
  const workspace = new FakeWorkspaceContext({ trusted: options.trusted ?? true });
  const consent = new FakeConsentStore(options.consentFor);
  const gate = new DefaultMemoryGate(new ConfiguredMemorySettings(source), workspace, consent);
  return { gate, source, workspace, consent };
}

describe('DefaultMemoryGate', () => {
  it('opens when enabled, trusted and consent matches the endpoint', () => {
    const { gate } = gateWith({ consentFor: 'http://localhost:8000' });
    expect(gate.evaluate()).toEqual({ open: true, endpoint: 'http://localhost:8000' });
  });

  it('compares endpoints normalised', () => {
    const { gate } = gateWith({
      settings: { enabled: true, endpoint: 'HTTP://LOCALHOST:8000/' },
      consentFor: 'http://localhost:8000//',
    });
    expect(gate.evaluate().open).toBe(true);
  });

  it.each([
    ['disabled', { settings: { enabled: false }, consentFor: 'http://localhost:8000' }],
    ['disabled', { settings: {}, consentFor: 'http://localhost:8000' }],
    ['invalid-settings', { settings: { enabled: true, timeoutMs: 1 }, consentFor: 'http://localhost:8000' }],
    ['no-endpoint', { settings: { enabled: true, endpoint: '  ' }, consentFor: 'http://localhost:8000' }],
    ['untrusted', { trusted: false, consentFor: 'http://localhost:8000' }],
    ['no-consent', {}],
    ['consent-for-other-endpoint', { consentFor: 'http://localhost:8001' }],
    ['consent-for-other-endpoint', { consentFor: 'https://localhost:8000' }],
  ] as const)('is closed with reason %s', (reason, options) => {
    expect(gateWith(options).gate.evaluate()).toEqual({ open: false, reason });
  });

  it('follows changes of settings, trust and consent at once', async () => {
    const { gate, source, workspace, consent } = gateWith({ consentFor: 'http://localhost:8000' });
    expect(gate.evaluate().open).toBe(true);

    source.set({ enabled: true, endpoint: 'http://graphiti.internal:8000' });
    expect(gate.evaluate()).toEqual({ open: false, reason: 'consent-for-other-endpoint' });
    await consent.grant('http://graphiti.internal:8000');
    expect(gate.evaluate().open).toBe(true);

    workspace.trusted = false;
    expect(gate.evaluate()).toEqual({ open: false, reason: 'untrusted' });
    workspace.trusted = true;

    await consent.revoke();
    expect(gate.evaluate()).toEqual({ open: false, reason: 'no-consent' });
  });
});

describe('consent categories', () => {
  it('closes for a category the consent does not cover, and opens once it is agreed to', async () => {
    const { gate, consent } = gateWith({ settings: { enabled: true, endpoint: 'http://localhost:8000', capture: { vscodeChat: true } } });
    await consent.grant('http://localhost:8000', ['memoryChat']);
    expect(gate.evaluate().open).toBe(true);
    expect(gate.evaluate('memoryChat').open).toBe(true);
    expect(gate.evaluate('workspaceChats')).toEqual({ open: false, reason: 'category-not-consented' });
    expect(gate.evaluate('recallQueries')).toEqual({ open: false, reason: 'category-not-consented' });
    await consent.grant('http://localhost:8000', ['memoryChat', 'workspaceChats']);
    expect(gate.evaluate('workspaceChats').open).toBe(true);
  });

  it('treats a record without categories (a host that does not track them) as covering all', () => {
    const { gate } = gateWith({ consentFor: 'http://localhost:8000' });
    expect(CONSENT_CATEGORIES.every((category) => gate.evaluate(category).open)).toBe(true);
  });

  it('lists the categories the settings use and those of them not agreed to', () => {
    const settings = parseMemorySettings({ enabled: true, capture: { claudeCode: true }, includeSystemMessages: true, recall: { enabled: true } }).settings;
    expect(categoriesInUse(settings)).toEqual(['memoryChat', 'claudeCode', 'systemPrompts', 'recallQueries']);
    const record = { endpoint: 'http://localhost:8000', grantedAt: '2026-01-01T00:00:00.000Z', categories: ['recallQueries'] as const };
    expect(inertCategories(record, settings)).toEqual(['claudeCode', 'systemPrompts']);
    expect(inertCategories(undefined, settings)).toEqual([]);
  });
});
