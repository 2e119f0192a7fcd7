import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unsaidFacts } from '@graphiti-memory/memory-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saidOnceDirectory, saidOnceFile } from '../state/state-layout.js';
import { FileSaidOnceStore } from './file-said-once-store.js';

const ENDPOINT = 'http://127.0.0.1:8000';
const decision = { uuid: 'f1', fact: 'We deploy the billing API with Fly.io.', valid_at: null, invalid_at: null, expired_at: null };
let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'said-once-'));
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

describe('FileSaidOnceStore', () => {
  it('remembers across store instances (processes) what a session was given, per session and endpoint', async () => {
    await new FileSaidOnceStore({ stateDirectory: root, endpoint: ENDPOINT }).record('session-1', { facts: [decision], texts: ['Releases are cut from main.'] });
    const again = new FileSaidOnceStore({ stateDirectory: root, endpoint: ENDPOINT });
    expect(await unsaidFacts([decision], await again.said('session-1'))).toEqual([]);
    expect(await unsaidFacts([decision], await again.said('session-2'))).toHaveLength(1);
    expect(await unsaidFacts([decision], await new FileSaidOnceStore({ stateDirectory: root, endpoint: 'http://other:8000' }).said('session-1'))).toHaveLength(1);
  });

  it('writes hashes only, in a file only its owner can read; a fresh start replaces the record', async () => {
    const store = new FileSaidOnceStore({ stateDirectory: root, endpoint: ENDPOINT });
    await store.record('session-1', { facts: [decision], texts: ['Releases are cut from main.'], episodes: ['episode-1'] });
    const file = saidOnceFile(root, ENDPOINT, 'session-1');
    const text = await fs.readFile(file, 'utf8');
    expect(text).not.toMatch(/Fly|Releases|session-1/);
    if (process.platform !== 'win32') expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    await store.record('session-1', {}, { fresh: true });
    expect(await unsaidFacts([decision], await store.said('session-1'))).toHaveLength(1);
  });

  it('expires records of old sessions and keeps at most maxSessions', async () => {
    const store = new FileSaidOnceStore({ stateDirectory: root, endpoint: ENDPOINT, maxSessions: 2, maxAgeMs: 60_000 });
    for (const session of ['a', 'b', 'c', 'd']) await store.record(session, { facts: [decision] });
    const old = new Date(Date.now() - 120_000);
    await fs.utimes(saidOnceFile(root, ENDPOINT, 'a'), old, old);
    expect(await store.expire()).toBe(2);
    expect(await fs.readdir(saidOnceDirectory(root))).toHaveLength(2);
    // The newest two are kept; the removed ones repeat, nothing breaks.
    expect(await unsaidFacts([decision], await store.said('d'))).toEqual([]);
    expect(await unsaidFacts([decision], await store.said('a'))).toHaveLength(1);
  });
});
