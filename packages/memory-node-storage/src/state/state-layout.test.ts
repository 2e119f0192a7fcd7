import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedStateFiles, transcriptLedgerFile } from './state-layout.js';

describe('transcriptLedgerFile', () => {
  const state = path.resolve('/tmp/graphiti-state');

  it('keeps one ledger per transcript in the hooks folder, named as earlier versions named it', () => {
    const transcript = path.resolve('/home/ada/.claude/projects/engine/session.jsonl');
    const file = transcriptLedgerFile(state, transcript);
    expect(path.dirname(file)).toBe(path.join(sharedStateFiles(state).hooksDirectory, 'transcripts'));
    // The name earlier hook versions wrote: an upgrade finds their ledgers and takes nothing twice.
    const earlier = `${createHash('sha256').update(transcript).digest('hex').slice(0, 24)}.json`;
    expect(path.basename(file)).toBe(earlier);
  });

  it('names a transcript by its resolved path: one file however the path is spelt, another file per transcript', () => {
    const absolute = path.resolve('transcripts', 'a.jsonl');
    expect(transcriptLedgerFile(state, 'transcripts/./a.jsonl')).toBe(transcriptLedgerFile(state, absolute));
    expect(transcriptLedgerFile(state, 'transcripts/b.jsonl')).not.toBe(transcriptLedgerFile(state, absolute));
  });
});
