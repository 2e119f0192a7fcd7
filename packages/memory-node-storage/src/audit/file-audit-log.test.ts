import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AuditEntry } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { adoptAuditLog, FileAuditLog } from './file-audit-log.js';

function entry(index: number): AuditEntry {
  return {
    at: new Date(Date.UTC(2026, 10, 23, 10, 0, index)).toISOString(),
    endpoint: 'http://localhost:8000',
    tool: 'graphiti-harness',
    face: 'rest',
    operation: 'POST /messages',
    groupIds: ['gm_session_x'],
    episodeNames: [`graphiti-memory.turn.t${index}.user`],
    bytes: 100 + index,
    redactions: 0,
    kind: 'messages',
  };
}

describe('FileAuditLog', () => {
  it('appends entries to a private file and reads them back, filtered by --since', async () => {
    const filePath = path.join(await temporaryDirectory(), 'audit', 'audit.jsonl');
    const log = new FileAuditLog({ filePath });
    for (let index = 0; index < 5; index++) log.record(entry(index));
    await log.flush();
    const reader = new FileAuditLog({ filePath });
    expect(await reader.read()).toEqual([0, 1, 2, 3, 4].map(entry));
    expect((await reader.read({ since: Date.parse(entry(3).at) })).map((item) => item.bytes)).toEqual([103, 104]);
    if (process.platform !== 'win32') expect((await fs.stat(filePath)).mode & 0o777).toBe(0o600);
  });

  it('rotates by size, keeps the newest files, and reads across them in order', async () => {
    const directory = await temporaryDirectory();
    const filePath = path.join(directory, 'audit.jsonl');
    const log = new FileAuditLog({ filePath, maxBytes: 1024, keepFiles: 2 });
    for (let index = 0; index < 60; index++) {
      log.record(entry(index));
      await log.flush();
    }
    const files = (await fs.readdir(directory)).sort();
    // The current file may just have been rotated away; never more than `keepFiles` old ones.
    expect(files.filter((file) => file !== 'audit.jsonl')).toEqual(['audit.jsonl.1', 'audit.jsonl.2']);
    for (const file of files) expect((await fs.stat(path.join(directory, file))).size).toBeLessThanOrEqual(1024 + 400);
    const read = await log.read();
    expect(read.length).toBeLessThan(60);
    expect(read.at(-1)).toEqual(entry(59));
    const bytes = read.map((item) => item.bytes);
    expect(bytes).toEqual([...bytes].sort((left, right) => left - right));
  });

  it('finds its file lazily and takes over the lines of a log kept elsewhere, older lines included, in time order', async () => {
    const directory = await temporaryDirectory();
    const shared = path.join(directory, 'state', 'audit', 'audit.jsonl');
    const log = new FileAuditLog({ filePath: async () => shared });
    log.record(entry(5));
    await log.flush();
    const old = path.join(directory, 'global-storage', 'audit-log.jsonl');
    await fs.mkdir(path.dirname(old), { recursive: true });
    const legacy = { at: entry(1).at, endpoint: 'http://localhost:8000', route: 'POST /messages', groupId: 'gm_user_y', episodeNames: [], bytes: 7, redactions: 0, kind: 'promotion' };
    await fs.writeFile(old, `${JSON.stringify(legacy)}\n{"torn":`);
    expect(await adoptAuditLog(old, log)).toBe(1);
    expect(await adoptAuditLog(old, log)).toBe(0);
    const read = await new FileAuditLog({ filePath: shared }).read();
    expect(read.map((item) => item.groupIds)).toEqual([['gm_user_y'], ['gm_session_x']]);
    expect(read[0]).toMatchObject({ operation: 'POST /messages', kind: 'promotion' });
    expect(await log.filePath()).toBe(shared);
  });
});
