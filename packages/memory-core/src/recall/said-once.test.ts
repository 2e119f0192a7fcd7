import { describe, expect, it } from 'vitest';
import { InMemorySaidOnceStore, NOTHING_SAID, parseSaidInSession, SAID_ONCE_BOUNDS, unsaidFacts, withSaid, type SaidFact } from './said-once.js';

const fact = (uuid: string, text: string, extra: Partial<SaidFact> = {}): SaidFact => ({ uuid, fact: text, valid_at: '2026-11-01T00:00:00Z', invalid_at: null, expired_at: null, ...extra });

describe('say it once', () => {
  it('leaves out a fact the session was given unchanged, and keeps the others', async () => {
    const said = await withSaid(NOTHING_SAID, { facts: [fact('f1', 'We deploy with Fly.io.')] });
    const facts = [fact('f1', 'We deploy with Fly.io.'), fact('f2', 'Tests run with vitest.')];
    expect((await unsaidFacts(facts, said)).map((item) => item.uuid)).toEqual(['f2']);
  });

  it('says a fact again when its text or validity changed', async () => {
    const said = await withSaid(NOTHING_SAID, { facts: [fact('f1', 'We deploy with Fly.io.')] });
    expect(await unsaidFacts([fact('f1', 'We deploy with Render.')], said)).toHaveLength(1);
    expect(await unsaidFacts([fact('f1', 'We deploy with Fly.io.', { valid_at: '2026-11-20T00:00:00Z' })], said)).toHaveLength(1);
    // Case, spacing and a final full stop are not a change.
    expect(await unsaidFacts([fact('f1', '  we deploy with   Fly.io')], said)).toHaveLength(0);
  });

  it('leaves out a new fact that repeats a promoted memory given by text or by its episode', async () => {
    const said = await withSaid(NOTHING_SAID, { texts: ['Releases are cut from the main branch only.'], episodes: ['episode-1'] });
    expect(await unsaidFacts([fact('f9', 'releases are cut from the main branch only')], said)).toHaveLength(0);
    expect(await unsaidFacts([fact('f8', 'Main is the release branch', { episodes: ['episode-1'] })], said)).toHaveLength(0);
    expect(await unsaidFacts([fact('f7', 'Main is the release branch', { episodes: ['episode-2'] })], said)).toHaveLength(1);
    // Supported by a later episode too: it may say more than the memory given.
    expect(await unsaidFacts([fact('f6', 'Main is the release branch', { episodes: ['episode-1', 'episode-2'] })], said)).toHaveLength(1);
  });

  it('keeps only hashes and ids, bounded to the newest entries', async () => {
    const many = Array.from({ length: SAID_ONCE_BOUNDS.facts + 10 }, (_, index) => fact(`f${index}`, `Fact number ${index}`));
    const said = await withSaid(NOTHING_SAID, { facts: many });
    expect(Object.keys(said.facts)).toHaveLength(SAID_ONCE_BOUNDS.facts);
    expect(said.facts['f0']).toBeUndefined();
    expect(said.facts[`f${SAID_ONCE_BOUNDS.facts + 9}`]).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(said)).not.toContain('Fact number');
    // A record read back gives the same answers.
    const again = parseSaidInSession(JSON.parse(JSON.stringify(said)));
    expect(await unsaidFacts([fact('f12', 'Fact number 12'), fact('new', 'Fact number 99999')], again)).toHaveLength(1);
    expect(parseSaidInSession('nonsense')).toEqual(NOTHING_SAID);
  });

  it('in process: per session, a fresh start forgets what was given, and the least recent sessions go', async () => {
    const store = new InMemorySaidOnceStore(2);
    await store.record('a', { facts: [fact('f1', 'We deploy with Fly.io.')] });
    expect(await unsaidFacts([fact('f1', 'We deploy with Fly.io.')], await store.said('a'))).toHaveLength(0);
    expect(await unsaidFacts([fact('f1', 'We deploy with Fly.io.')], await store.said('b'))).toHaveLength(1);
    await store.record('a', {}, { fresh: true });
    expect(await unsaidFacts([fact('f1', 'We deploy with Fly.io.')], await store.said('a'))).toHaveLength(1);
    await store.record('b', { texts: ['x'] });
    await store.record('c', { texts: ['y'] });
    expect(await store.said('a')).toEqual(NOTHING_SAID);
  });
});
