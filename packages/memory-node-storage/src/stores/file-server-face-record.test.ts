import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endpointStateFiles } from '../state/state-layout.js';
import { FileServerFaceRecord } from './file-server-face-record.js';

const ENDPOINT = 'http://127.0.0.1:8000';
let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'server-face-'));
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

describe('FileServerFaceRecord', () => {
  it('remembers a face per endpoint across instances (processes), and forgets it', async () => {
    await FileServerFaceRecord.of(root, ENDPOINT).remember('mcp');
    expect(await FileServerFaceRecord.of(root, ENDPOINT).read()).toBe('mcp');
    expect(await FileServerFaceRecord.of(root, 'http://127.0.0.1:8001').read()).toBeUndefined();
    await FileServerFaceRecord.of(root, ENDPOINT).remember('rest');
    expect(await FileServerFaceRecord.of(root, ENDPOINT).read()).toBe('rest');
    await FileServerFaceRecord.of(root, ENDPOINT).forget();
    expect(await FileServerFaceRecord.of(root, ENDPOINT).read()).toBeUndefined();
    await FileServerFaceRecord.of(root, ENDPOINT).forget();
  });

  it('writes the face and when it was seen, nothing else, in a file only its owner can read, under the endpoint’s folder', async () => {
    const record = FileServerFaceRecord.of(root, ENDPOINT);
    await record.remember('rest', new Date('2026-11-25T10:00:00.000Z'));
    expect(record.filePath).toBe(endpointStateFiles(root, ENDPOINT).serverFace);
    expect(JSON.parse(await fs.readFile(record.filePath, 'utf8'))).toEqual({ kind: 'rest', seenAt: '2026-11-25T10:00:00.000Z' });
    if (process.platform !== 'win32') expect((await fs.stat(record.filePath)).mode & 0o777).toBe(0o600);
  });

  it('does not rewrite a face already on record', async () => {
    const record = FileServerFaceRecord.of(root, ENDPOINT);
    await record.remember('rest', new Date('2026-11-25T10:00:00.000Z'));
    await record.remember('rest', new Date('2026-11-25T11:00:00.000Z'));
    expect(JSON.parse(await fs.readFile(record.filePath, 'utf8'))).toMatchObject({ seenAt: '2026-11-25T10:00:00.000Z' });
  });

  it.each([['not json {'], ['{"kind":"grpc"}'], ['[]']])('reads a damaged record (%s) as none: the next client probes', async (text) => {
    const record = FileServerFaceRecord.of(root, ENDPOINT);
    await fs.mkdir(path.dirname(record.filePath), { recursive: true });
    await fs.writeFile(record.filePath, text);
    expect(await record.read()).toBeUndefined();
    await record.remember('mcp');
    expect(await record.read()).toBe('mcp');
  });
});
