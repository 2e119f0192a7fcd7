// The record of import-instructions: a forget of a workspace group lets go of that group's files
// only, a forgotten source lets go of the one line whose memory it was, and the file may be named
// lazily (the extension learns the state folder after binding).
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileInstructionLedger, type ImportedLine } from './file-instruction-ledger.js';

let folder: string;
let file: string;
beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'instruction-ledger-'));
  file = path.join(folder, 'instruction-imports.json');
});
afterEach(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

function line(groupId: string, number: number, text: string): ImportedLine {
  return { hash: `hash-${text}`, line: number, text, kind: 'procedure', groupId, episodeName: `graphiti-memory.promotion.${text}`, importedAt: '2026-11-20T10:00:00.000Z' };
}

describe('FileInstructionLedger', () => {
  it("forgets a workspace group's files and keeps the other workspaces'", async () => {
    const ledger = new FileInstructionLedger(file);
    await ledger.replace(FileInstructionLedger.key('gm_workspace_a', 'CLAUDE.md'), [line('gm_workspace_a', 1, 'a1')]);
    await ledger.replace(FileInstructionLedger.key('gm_workspace_b', 'CLAUDE.md'), [line('gm_workspace_b', 1, 'b1')]);
    expect(await ledger.forgetGroups(['gm_workspace_a'])).toBe(1);
    expect(await ledger.lines(FileInstructionLedger.key('gm_workspace_a', 'CLAUDE.md'))).toEqual([]);
    expect(await ledger.lines(FileInstructionLedger.key('gm_workspace_b', 'CLAUDE.md'))).toHaveLength(1);
    expect(await ledger.forgetGroups(['gm_workspace_a'])).toBe(0);
  });

  it('forgets the line whose memory was a forgotten episode, by its name, and nothing else', async () => {
    const ledger = new FileInstructionLedger(async () => file);
    const key = FileInstructionLedger.key('gm_workspace_a', 'AGENTS.md');
    await ledger.replace(key, [line('gm_workspace_a', 1, 'keep'), line('gm_workspace_a', 2, 'gone')]);
    expect(await ledger.forgetEpisodes(['graphiti-memory.promotion.gone'])).toBe(1);
    expect((await ledger.lines(key)).map((kept) => kept.text)).toEqual(['keep']);
    expect(await ledger.forgetEpisodes(['graphiti-memory.promotion.unknown'])).toBe(0);
    // The same file, read by a second ledger (another process).
    expect((await new FileInstructionLedger(file).lines(key)).map((kept) => kept.text)).toEqual(['keep']);
  });
});
