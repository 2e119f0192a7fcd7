// The source a captured message carries (tool, session, title) stays on its outbox record through
// the journal: a crash, an adoption by the next process or a compaction keeps it until confirmation.
import { describe, expect, it } from 'vitest';
import { FileOutbox } from './file-outbox.js';
import { entry, temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { closingOutboxes } from '../../test-support/outboxes.js';

const openOutbox = closingOutboxes();

describe('FileOutbox and message sources', () => {
  it('keeps the source of each record across processes', async () => {
    const directory = await temporaryDirectory();
    const first = await FileOutbox.open({ directory });
    const source = { tool: 'Claude Code', session: 's1', title: 'Fix the build' };
    first.append([{ ...entry(1), source }, entry(2)]);
    const [sent] = await first.pending(1);
    first.markSent([sent!.id], 5);
    await first.close();
    const second = await openOutbox({ directory });
    expect((await second.inFlight()).map((record) => record.source)).toEqual([source]);
    expect((await second.pending(10)).map((record) => record.source)).toEqual([undefined]);
  });
});
