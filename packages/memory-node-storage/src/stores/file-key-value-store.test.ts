import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileConsentStore } from './file-consent-store.js';
import { FileKeyValueStore } from './file-key-value-store.js';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';

describe('FileKeyValueStore', () => {
  it('persists values across reopening and deletes keys', async () => {
    const file = path.join(await temporaryDirectory(), 'nested', 'state.json');
    const store = await FileKeyValueStore.open(file);
    const value = { offset: 12 };
    await Promise.all([store.set('a', value), store.set('b', [1, 2]), store.set('c', 'gone')]);
    value.offset = 99;
    await store.delete('c');
    expect(store.get('a')).toEqual({ offset: 12 });
    const reopened = await FileKeyValueStore.open(file);
    expect(reopened.keys().sort()).toEqual(['a', 'b']);
    expect(reopened.get('b')).toEqual([1, 2]);
    expect(reopened.recovery()).toBeUndefined();
  });

  it('keeps a corrupt file as .corrupt, reports its path and starts fresh', async () => {
    const file = path.join(await temporaryDirectory(), 'state.json');
    await fs.writeFile(file, '{"a": 1, "b":');
    const store = await FileKeyValueStore.open(file);
    expect(store.recovery()).toEqual({ corruptFile: file, keptAs: `${file}.corrupt`, reason: 'not valid JSON' });
    expect(store.get('a')).toBeUndefined();
    expect(await fs.readFile(`${file}.corrupt`, 'utf8')).toBe('{"a": 1, "b":');
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({});
    await store.set('a', 2);
    expect((await FileKeyValueStore.open(file)).get('a')).toBe(2);
  });

  it('treats a JSON value that is not an object as corrupt', async () => {
    const file = path.join(await temporaryDirectory(), 'state.json');
    await fs.writeFile(file, '[1,2]');
    expect((await FileKeyValueStore.open(file)).recovery()?.reason).toBe('not a JSON object');
  });

  it('never leaves a half-written file: concurrent writes all land, the last value wins', async () => {
    const file = path.join(await temporaryDirectory(), 'state.json');
    const store = await FileKeyValueStore.open(file);
    await Promise.all(Array.from({ length: 50 }, (_, index) => store.set('counter', index)));
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ counter: 49 });
  });
});

describe('FileConsentStore', () => {
  it('grants, reads back after reopening, and revokes', async () => {
    const file = path.join(await temporaryDirectory(), 'consent.json');
    const consent = new FileConsentStore(await FileKeyValueStore.open(file), { now: () => Date.UTC(2026, 0, 2) });
    expect(consent.get()).toBeUndefined();
    await consent.grant('http://localhost:8000');
    const reopened = new FileConsentStore(await FileKeyValueStore.open(file));
    expect(reopened.get()).toEqual({ endpoint: 'http://localhost:8000', grantedAt: '2026-01-02T00:00:00.000Z' });
    await reopened.revoke();
    expect(new FileConsentStore(await FileKeyValueStore.open(file)).get()).toBeUndefined();
  });

  it('reads a malformed record as no consent', async () => {
    const store = await FileKeyValueStore.open(path.join(await temporaryDirectory(), 'consent.json'));
    await store.set('graphiti-memory.consent', { endpoint: 42 });
    expect(new FileConsentStore(store).get()).toBeUndefined();
  });
});
