import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyTakenIds, FileTranscriptLedger } from './file-transcript-ledger.js';

const E = 'http://127.0.0.1:8000';

let root: string;
let filePath: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'transcript-ledger-'));
  filePath = path.join(root, 'hooks', 'transcripts', 'ledger.json');
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('FileTranscriptLedger', () => {
  it('tells a transcript never seen (no file) from one whose turns were taken', async () => {
    const ledger = new FileTranscriptLedger({ filePath, endpoint: E });
    expect(await ledger.taken()).toBeUndefined();
    await ledger.add([]);
    // Seen, nothing taken: an empty ledger is not "never seen".
    expect(await ledger.taken()).toEqual(new Set());
    await ledger.add(['s\n1', 's\n2', 's\n1']);
    await ledger.add(['s\n2', 's\n3']);
    expect(await new FileTranscriptLedger({ filePath, endpoint: E }).taken()).toEqual(new Set(['s\n1', 's\n2', 's\n3']));
    expect(JSON.parse(await fs.readFile(filePath, 'utf8'))).toEqual({ ids: [], endpoints: { [E]: ['s\n1', 's\n2', 's\n3'] } });
  });

  it('loses no id when many writers add at once (one process, one pid), and leaves no temporary file', async () => {
    const ids = Array.from({ length: 12 }, (_, index) => `s\n${index}`);
    await Promise.all(ids.map((id) => new FileTranscriptLedger({ filePath, endpoint: E }).add([id])));
    expect(await new FileTranscriptLedger({ filePath, endpoint: E }).taken()).toEqual(new Set(ids));
    expect(await fs.readdir(path.dirname(filePath))).toEqual(['ledger.json']);
  });

  it('keeps the newest maxIds ids', async () => {
    const ledger = new FileTranscriptLedger({ filePath, endpoint: E, maxIds: 3 });
    await ledger.add(['a', 'b']);
    await ledger.add(['c', 'd']);
    expect(await ledger.taken()).toEqual(new Set(['b', 'c', 'd']));
  });

  it('counts a damaged ledger as never seen, keeps it aside and starts a fresh one', async () => {
    await fs.mkdir(path.dirname(filePath), { recursive: true });
    await fs.writeFile(filePath, '{"ids": ["s\\n1", tor');
    const ledger = new FileTranscriptLedger({ filePath, endpoint: E });
    expect(await ledger.taken()).toBeUndefined();
    await ledger.add(['s\n2']);
    expect(await ledger.taken()).toEqual(new Set(['s\n2']));
    expect(await fs.readFile(`${filePath}.corrupt`, 'utf8')).toContain('tor');
  });

  it('counts a turn as taken for the endpoint that took it, not for another one', async () => {
    const wrong = new FileTranscriptLedger({ filePath, endpoint: 'https://127.0.0.1:8000' });
    await wrong.add(['s\n1', 's\n2']);
    expect(await wrong.taken()).toEqual(new Set(['s\n1', 's\n2']));
    // Never seen by the right endpoint: its first Stop takes the transcript as new.
    const right = new FileTranscriptLedger({ filePath, endpoint: E });
    expect(await right.taken()).toBeUndefined();
    // What moved there (its queued records) counts as taken there too.
    expect(await copyTakenIds(filePath, 'https://127.0.0.1:8000', E)).toBe(true);
    expect(await right.taken()).toEqual(new Set(['s\n1', 's\n2']));
    expect(await copyTakenIds(filePath, 'https://127.0.0.1:8000', E)).toBe(false);
  });

  it("keeps an earlier version's shared ledger as taken for every endpoint (an upgrade sends nothing twice)", async () => {
    await fs.mkdir(path.dirname(filePath), { recursive: true });
    await fs.writeFile(filePath, JSON.stringify({ ids: ['s\n1'] }));
    const ledger = new FileTranscriptLedger({ filePath, endpoint: E });
    expect(await ledger.taken()).toEqual(new Set(['s\n1']));
    await ledger.add(['s\n1', 's\n2']);
    expect(JSON.parse(await fs.readFile(filePath, 'utf8'))).toEqual({ ids: ['s\n1'], endpoints: { [E]: ['s\n2'] } });
    expect(await new FileTranscriptLedger({ filePath, endpoint: 'http://other:8000' }).taken()).toEqual(new Set(['s\n1']));
  });
});
