import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AuditEntry } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { FileAuditLog } from './file-audit-log.js';

function entry(index: number): AuditEntry {
  return {
    at: new Date(Date.UTC(2026, 10, 23, 10, 0, index)).toISOString(),
    endpoint: 'http://localhost:8000',
    route: 'POST /messages',
    groupId: 'gm_session_x',
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
});
