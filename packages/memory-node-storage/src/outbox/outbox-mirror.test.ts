// A structured mirror record's nodes and edges stay on its outbox record through the journal: a
// crash, the next process and a compaction keep them until confirmation, and a dead letter retried.
import { describe, expect, it } from 'vitest';
import { FileOutbox } from './file-outbox.js';
import { entry, temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { closingOutboxes } from '../../test-support/outboxes.js';

const openOutbox = closingOutboxes();

const mirror = {
  nodes: [
    { id: 'conv:s1', uuid: '0b1c2d3e-0000-8000-8000-000000000001', summary: 'Claude Code conversation' },
    { id: 'turn:t1', uuid: '0b1c2d3e-0000-8000-8000-000000000002', summary: 'Turn at 2026-11-29T00:00:00.000Z' },
  ],
  edges: [{ from: 'conv:s1', to: 'turn:t1', name: 'HAS_TURN', fact: 'conv:s1 has turn turn:t1' }],
};

describe('FileOutbox and mirror records', () => {
  it('keeps a record’s structure across processes and through compaction', async () => {
    const directory = await temporaryDirectory();
    const first = await FileOutbox.open({ directory, compactMinLines: 4, commitIntervalMs: 1 });
    first.append([{ ...entry(1), mirror }, entry(2)]);
    for (let index = 3; index < 12; index += 1) first.append([entry(index)]);
    const pending = await first.pending(20);
    first.markConfirmed(pending.slice(2).map((record) => record.id));
    await first.close();
    const second = await openOutbox({ directory });
    expect((await second.pending(10)).map((record) => record.mirror)).toEqual([mirror, undefined]);
  });
});
