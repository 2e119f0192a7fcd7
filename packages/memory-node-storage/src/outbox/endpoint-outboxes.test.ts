// Moving what a wrong endpoint queued: a typo's outbox (never confirmed) moves to the new endpoint,
// with its taken transcript turns; a real server's (confirmed) stays until asked.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entry, temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { endpointStateFiles, transcriptLedgerFile } from '../state/state-layout.js';
import { FileTranscriptLedger } from '../transcripts/file-transcript-ledger.js';
import { moveOnEndpointChange, moveQueuedRecords, otherEndpointOutboxes } from './endpoint-outboxes.js';
import { readEndpointRecord } from './endpoint-record.js';
import { FileOutbox } from './file-outbox.js';

const WRONG = 'https://127.0.0.1:8000';
const RIGHT = 'http://127.0.0.1:8000';
const REAL = 'http://graphiti.internal:8000';

async function queue(state: string, endpoint: string, count: number, confirmFirst = false): Promise<void> {
  const outbox = await FileOutbox.open({ directory: endpointStateFiles(state, endpoint).outboxDirectory, endpoint });
  outbox.append(Array.from({ length: count }, (_, index) => entry(index + 1)));
  if (!confirmFirst) {
    // A send attempt that never got an answer (a drainer stopped mid-request): unconfirmed there.
    const [first] = await outbox.pending(1);
    outbox.markSent([first!.id], 1);
  }
  if (confirmFirst) {
    const [first] = await outbox.pending(1);
    outbox.markSent([first!.id], 1);
    outbox.markConfirmed([first!.id]);
  }
  await outbox.close();
}

async function queuedNames(state: string, endpoint: string): Promise<string[]> {
  const outbox = await FileOutbox.open({ directory: endpointStateFiles(state, endpoint).outboxDirectory });
  try {
    return (await outbox.pending(100)).map((record) => record.message.name ?? '');
  } finally {
    await outbox.close();
  }
}

describe('moveOnEndpointChange', () => {
  it("moves a never-confirmed endpoint's queue (and its taken turns) to the new endpoint, and says how many", async () => {
    const state = await temporaryDirectory();
    await queue(state, WRONG, 3);
    const ledgerFile = transcriptLedgerFile(state, '/tmp/session.jsonl');
    await new FileTranscriptLedger({ filePath: ledgerFile, endpoint: WRONG }).add(['s\n1', 's\n2']);

    const change = await moveOnEndpointChange(state, RIGHT);

    expect(change.moved).toEqual([{ from: WRONG, to: RIGHT, records: 3, deadLetters: 0, openSegments: 0, journalsLeft: 0 }]);
    expect(change.kept).toEqual([]);
    expect(await queuedNames(state, RIGHT)).toEqual(['test.turn.1.user', 'test.turn.2.user', 'test.turn.3.user']);
    expect(await queuedNames(state, WRONG)).toEqual([]);
    expect(await new FileTranscriptLedger({ filePath: ledgerFile, endpoint: RIGHT }).taken()).toEqual(new Set(['s\n1', 's\n2']));
    // Moving again finds nothing.
    expect((await moveOnEndpointChange(state, RIGHT)).moved).toEqual([]);
  });

  it("keeps the queue of an endpoint that confirmed deliveries, and names it for `outbox move --from`", async () => {
    const state = await temporaryDirectory();
    await queue(state, REAL, 3, true);
    expect((await readEndpointRecord(endpointStateFiles(state, REAL).outboxDirectory))?.confirmedAt).toBeDefined();

    const change = await moveOnEndpointChange(state, RIGHT);

    expect(change.moved).toEqual([]);
    expect(change.kept).toEqual([expect.objectContaining({ url: REAL, queued: 2, confirmed: true })]);
    expect(await queuedNames(state, REAL)).toHaveLength(2);
    // On request it moves.
    const moved = await moveQueuedRecords(state, REAL, RIGHT);
    expect(moved).toMatchObject({ from: REAL, to: RIGHT, records: 2 });
    expect(await queuedNames(state, RIGHT)).toEqual(['test.turn.2.user', 'test.turn.3.user']);
    expect(await otherEndpointOutboxes(state, RIGHT)).toEqual([expect.objectContaining({ url: REAL, queued: 0 })]);
  });

  it('finds the queue of a folder an earlier version did not record, by the previous consent named', async () => {
    const state = await temporaryDirectory();
    const outbox = await FileOutbox.open({ directory: endpointStateFiles(state, WRONG).outboxDirectory });
    outbox.append([entry(1)]);
    await outbox.close();
    expect((await moveOnEndpointChange(state, RIGHT)).kept).toEqual([expect.objectContaining({ url: undefined, queued: 1 })]);
    const change = await moveOnEndpointChange(state, RIGHT, [WRONG]);
    expect(change.moved).toEqual([expect.objectContaining({ from: WRONG, records: 1 })]);
    expect(await fs.readdir(path.join(state, 'endpoints'))).toHaveLength(2);
  });
});
