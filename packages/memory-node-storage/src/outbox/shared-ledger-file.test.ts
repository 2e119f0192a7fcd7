import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { LEDGER_FILE_NAME, SharedLedgerFile } from './shared-ledger-file.js';

const timing = { staleMs: 10_000, updateMs: 2_000 };
const keys = (from: number, count: number): string[] => Array.from({ length: count }, (_, index) => `key-${from + index}`);

describe('SharedLedgerFile', () => {
  it('rewrites a file grown past twice its bound to the newest keys, atomically, owner-only, leaving no temp file', async () => {
    const directory = await temporaryDirectory();
    const ledger = new SharedLedgerFile(directory, 10, timing);
    for (let batch = 0; batch < 4; batch++) await ledger.append(keys(batch * 5, 5));
    const linesBefore = (await fs.readFile(ledger.filePath, 'utf8')).split('\n').filter(Boolean).length;
    expect(linesBefore).toBe(20); // at the bound: not rewritten yet
    await ledger.append(keys(20, 5)); // 25 lines > 2 × 10: rewritten to the newest 10

    const lines = (await fs.readFile(ledger.filePath, 'utf8')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(10);
    expect((await ledger.load()).keys).toEqual(keys(15, 10));
    if (process.platform !== 'win32') expect((await fs.stat(ledger.filePath)).mode & 0o777).toBe(0o600);
    expect(await fs.readdir(directory)).toEqual([LEDGER_FILE_NAME]);
  });

  it('keeps every key appended after a rewrite', async () => {
    const directory = await temporaryDirectory();
    const ledger = new SharedLedgerFile(directory, 4, timing);
    await ledger.append(keys(0, 9)); // rewritten to key-5..key-8
    await ledger.append(['key-9']);
    expect((await ledger.load()).keys).toEqual(keys(6, 4));
    expect((await fs.readFile(path.join(directory, LEDGER_FILE_NAME), 'utf8')).split('\n').filter(Boolean)).toHaveLength(5);
  });
});
