import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EndpointStores } from './endpoint-stores.js';

/** A store that is only the file it was opened on. */
interface FakeStore {
  readonly file: string;
}

describe('EndpointStores', () => {
  it("opens one store per endpoint, from that endpoint's files, once, and reaches the one of the endpoint in force", async () => {
    let endpoint = 'http://a.example:8000';
    const opened: string[] = [];
    const stores = new EndpointStores<FakeStore>(async () => '/state', () => endpoint, {
      name: 'the test store',
      open: (files, url) => {
        opened.push(url);
        return { file: files.groupRegistry };
      },
    });
    const first = await stores.current();
    expect(first.file.startsWith(path.join('/state', 'endpoints'))).toBe(true);
    expect(await stores.current()).toBe(first);
    endpoint = 'http://b.example:8000';
    const second = await stores.current();
    expect(second.file).not.toBe(first.file);
    expect(opened).toEqual(['http://a.example:8000', 'http://b.example:8000']);
  });

  it('without a stand-in, a store that cannot be opened fails the call (naming the store) and is opened again by the next one', async () => {
    const state: { folder?: string } = {};
    const stores = new EndpointStores<FakeStore>(async () => state.folder, () => 'http://a.example:8000', {
      name: 'the test store',
      open: (files) => ({ file: files.forgetLedger }),
    });
    await expect(stores.current()).rejects.toThrow(/^the test store needs the shared state folder/);
    state.folder = '/state';
    expect((await stores.current()).file).toMatch(/forgotten\.json$/);
  });

  it('with a stand-in, a store that cannot be opened is replaced by it for the process', async () => {
    let fail = true;
    const reasons: unknown[] = [];
    const stores = new EndpointStores<FakeStore>(async () => '/state', () => 'http://a.example:8000', {
      name: 'the test store',
      open: (files) => {
        if (fail) throw new Error('EACCES');
        return { file: files.groupRegistry };
      },
      unavailable: (error) => {
        reasons.push(error);
        return { file: 'in memory' };
      },
    });
    expect((await stores.current()).file).toBe('in memory');
    fail = false;
    expect((await stores.current()).file).toBe('in memory');
    expect(reasons).toHaveLength(1);
  });

  it('runs an action on every store opened so far, skipping one that failed, and opens none', async () => {
    let endpoint = 'http://a.example:8000';
    const stores = new EndpointStores<FakeStore>(async () => '/state', () => endpoint, {
      name: 'the test store',
      open: (files, url) => {
        if (url.includes('broken')) throw new Error('EIO');
        return { file: files.groupRegistry };
      },
    });
    const visited: string[] = [];
    await stores.forEachOpened(async (store) => void visited.push(store.file));
    expect(visited).toEqual([]);
    await stores.current();
    endpoint = 'http://broken.example:8000';
    await expect(stores.current()).rejects.toThrow('EIO');
    endpoint = 'http://b.example:8000';
    await stores.current();
    await stores.forEachOpened(async (store) => void visited.push(store.file));
    expect(visited).toHaveLength(2);
  });
});
