import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { SettingsSource } from '../ports.js';
import { FakeSettingsSource } from '../../test-support/fakes.js';
import { ConfiguredMemorySettings, MemoryConfiguration } from './memory-configuration.js';
import { DEFAULT_SETTINGS } from './memory-settings.js';

describe('ConfiguredMemorySettings', () => {
  it('resolves through inversify with the SettingsSource token', () => {
    const container = new Container();
    container.bind(SettingsSource).toConstantValue(new FakeSettingsSource({ enabled: true }));
    container.bind(MemoryConfiguration).to(ConfiguredMemorySettings).inSingletonScope();
    const configuration = container.get<MemoryConfiguration>(MemoryConfiguration);
    expect(configuration.current().enabled).toBe(true);
    expect(configuration.problems()).toEqual([]);
  });

  it('parses again on change, notifies listeners, and falls back to disabled defaults on a bad value', () => {
    const source = new FakeSettingsSource({ enabled: true });
    const configuration = new ConfiguredMemorySettings(source);
    let notified = 0;
    const subscription = configuration.onDidChange(() => (notified += 1));

    source.set({ enabled: true, 'recall.maxFacts': 500 });
    expect(notified).toBe(1);
    expect(configuration.current()).toBe(DEFAULT_SETTINGS);
    expect(configuration.problems()).toEqual(['graphitiMemory.recall.maxFacts: must be at most 50 (got 500)']);

    source.set({ enabled: true, 'recall.maxFacts': 5 });
    expect(notified).toBe(2);
    expect(configuration.current().recall.maxFacts).toBe(5);
    expect(configuration.problems()).toEqual([]);

    subscription.dispose();
    source.set({});
    expect(notified).toBe(2);
  });

  it('keeps notifying other listeners when one throws, and unsubscribes from the source on dispose', () => {
    const source = new FakeSettingsSource({});
    const configuration = new ConfiguredMemorySettings(source);
    let seen = false;
    configuration.onDidChange(() => {
      throw new Error('listener failed');
    });
    configuration.onDidChange(() => (seen = true));
    source.set({ enabled: true });
    expect(seen).toBe(true);
    expect(source.listenerCount()).toBe(1);
    configuration.dispose();
    expect(source.listenerCount()).toBe(0);
  });

  it("keeps memory off with the source's own problems (a bad config file) until they are fixed", () => {
    const problems: string[] = ['/home/me/.config/graphiti-memory/config.json: unknown key `endpiont`; did you mean `endpoint`?'];
    const source = Object.assign(new FakeSettingsSource({ enabled: true }), { problems: () => problems });
    const configuration = new ConfiguredMemorySettings(source);
    expect(configuration.current()).toBe(DEFAULT_SETTINGS);
    expect(configuration.problems()).toEqual(problems);
    problems.length = 0;
    source.set({ enabled: true });
    expect(configuration.current().enabled).toBe(true);
    expect(configuration.problems()).toEqual([]);
  });
});
