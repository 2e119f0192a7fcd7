import { describe, expect, it } from 'vitest';
import { ConfiguredMemorySettings } from '../settings/memory-configuration.js';
import { FakeConsentStore, FakeSettingsSource, FakeWorkspaceContext } from '../test-support/fakes.js';
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
